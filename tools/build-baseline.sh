#!/usr/bin/env bash
# Build another commit of coexist-ai into a venv of its own, so that a bot of
# that commit can play today's bots over the protocol: the way to measure a
# change of the search against the search before it at equal time per move.
#
#   tools/build-baseline.sh COMMIT DIR
#   coexist-ai duel ismcts:time=0.1 \
#       "cmd:move_time=0.125 DIR/bin/coexist-ai serve ismcts:time=0.1" --games 200
#
# A served ISMCTS searches at most 80% of the move time it is given
# (docs/protocol.md, serve), so move_time 0.125 gives it the 0.1 s the
# in-process bot gets. Prints the command of the served bot.
set -euo pipefail
if [ $# -ne 2 ]; then
    echo "usage: $0 COMMIT DIR (a commit of this repository; DIR: a new folder)" >&2
    exit 2
fi
commit=$1 dir=$2
repo=$(cd "$(dirname "$0")/.." && pwd)
if [ -e "$dir" ]; then
    echo "error: $dir exists: give a new folder" >&2
    exit 2
fi
sha=$(git -C "$repo" rev-parse --verify --quiet "$commit^{commit}") || {
    echo "error: $commit is not a commit of $repo" >&2; exit 2; }
mkdir -p "$dir/src"
git -C "$repo" archive "$sha" | tar -x -C "$dir/src"
python3 -m venv "$dir"
"$dir/bin/pip" install -q "$dir/src"
echo "$sha" > "$dir/COMMIT"
echo "built $sha: serve it with $dir/bin/coexist-ai serve BOTSPEC"
