"""The web game: `coexist-ai web` serves a page on which a person plays
Coexist against bots, watches a bot game or steps through a record.

server.py (HTTP, Starlette) -> table.py (the game on the table) ->
live.py (a game in play: referee, bots, record) / replay.py (a record);
view.py and story.py turn Observations into what the page draws, words.py
says it in words; static/ is the page itself (plain HTML, CSS and JS: no
build step, nothing fetched from the network).
"""
