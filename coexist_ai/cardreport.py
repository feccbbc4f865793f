"""`coexist-ai cards report`: the quick version of the balance laboratory.

Plays seeded games between equal players (uniformly random by default, or
any bot spec) in memory, without records, and prints the laboratory's own
figures (coexist_ai.balance): game length, how games end, scores, how
often each effect fires and what it is worth, each specialty's and each
seat's win share with its 95% interval, and the cards of largest and
smallest impact. `coexist-ai balance` plays the same kind of study with
records (resumable), more games and an HTML report.
"""
from __future__ import annotations

from collections.abc import Sequence

from coexist_ai.balance import study
from coexist_ai.balance.text import study_lines
from coexist_ai.cards import CardSet


def card_set_report(card_set: CardSet, games: int = 400, seed: int = 1,
                    player_counts: Sequence[int] = (2, 3, 4), spec: str = "random",
                    jobs: int = 1, cards_spec: str | None = None) -> str:
    """The report's text (one study of `games` games at each count);
    `cards_spec`: what the user named the set by (a path), for the command
    that plays the same games with records."""
    s = study.Study(cards_spec or card_set, card_set, tuple(player_counts), spec,
                    dict.fromkeys(player_counts, games), seed, None)
    runs = study.play(s, jobs, progress=False, echo=lambda text: None)
    facts = {players: study.facts_of(run.records, card_set) for players, run in runs.items()}
    return "\n".join(study_lines(study.summarize(s, facts)))
