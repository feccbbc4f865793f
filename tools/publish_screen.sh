#!/bin/sh
# Publish a balance screen: its card file, edits, report.json and summary.
#   tools/publish_screen.sh FOLDER SET.toml STUDY_DIR LOG "EDIT..."
# FOLDER is tournaments/balance/v4-screens/<name>-<players>p; the summary is
# the study's log without its progress lines (they end in \r, not \n).
set -eu
folder=$1 cards=$2 study=$3 log=$4 edits=$5
# A folder already published for other cards is another screen's: screen
# names are reused across eras (b1 on v2, b1 on a3), so never overwrite it.
if [ -e "$folder/cards.toml" ] && ! cmp -s "$cards" "$folder/cards.toml"; then
    echo "publish_screen: $folder holds another screen's cards; pick a new name" >&2
    exit 1
fi
mkdir -p "$folder"
cp "$cards" "$folder/cards.toml"
printf '%s\n' "$edits" > "$folder/edits.txt"
cp "$study/report.json" "$folder/report.json"
tr '\r' '\n' < "$log" | grep -v 'ETA' > "$folder/summary.txt"
