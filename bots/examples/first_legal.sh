#!/bin/bash
# A Coexist protocol bot in plain bash (no jq, no other program): it plays
# the first legal move. Like random_legal.pl it reads messages with patterns,
# which the protocol allows (docs/protocol.md: "type" first, "id" second,
# the legal moves as "legal":[...]).

while IFS= read -r line; do
    [[ $line =~ ^\{\"type\":\"([^\"]*)\"(,\"id\":(-?[0-9]+|\"[^\"]*\"))? ]] || {
        [[ -z ${line//[[:space:]]/} ]] && continue
        echo '{"type":"error","message":"not a message"}'; continue; }
    type=${BASH_REMATCH[1]} id=${BASH_REMATCH[3]:-null}
    case $type in
        hello) echo "{\"type\":\"hello\",\"id\":$id,\"protocol\":1,\"name\":\"first-legal-bash\",\"author\":\"coexist-ai examples\",\"options\":[]}" ;;
        newgame) echo "{\"type\":\"ok\",\"id\":$id}" ;;
        move) [[ $line =~ \"legal\":\[\"([^\"]*)\" ]]
              echo "{\"type\":\"move\",\"id\":$id,\"move\":\"${BASH_REMATCH[1]}\"}" ;;
        ping) echo "{\"type\":\"pong\",\"id\":$id}" ;;
        quit) exit 0 ;;
        *) echo "{\"type\":\"error\",\"id\":$id,\"message\":\"unknown command (and this bot has no options)\"}" ;;
    esac
done
