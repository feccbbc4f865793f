#!/bin/sh
# Publish a balance screen: its card file, edits, report.json and summary.
#   tools/publish_screen.sh FOLDER SET.toml STUDY_DIR LOG "EDIT..."
# FOLDER is tournaments/balance/v4-screens/<name>-<players>p; the summary is
# the study's log without its progress lines (they end in \r, not \n).
set -eu
folder=$1 cards=$2 study=$3 log=$4 edits=$5
mkdir -p "$folder"
cp "$cards" "$folder/cards.toml"
printf '%s\n' "$edits" > "$folder/edits.txt"
cp "$study/report.json" "$folder/report.json"
tr '\r' '\n' < "$log" | grep -v 'ETA' > "$folder/summary.txt"
