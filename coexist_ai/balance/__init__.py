"""The balance laboratory: is a card set fair to every specialty?

`coexist-ai balance CARDS` plays seeded games between equal bots at each
player count (resumable records, like a tournament: coexist_ai.tournament),
replays each record on the engine to learn what happened to every card
(facts.py), sums the games up with intervals (stats.py) and writes an HTML
report with figures, JSON and CSV (report.py). `coexist-ai cards report`
is its quick version: the same statistics, as text (coexist_ai.cardreport).
"""
