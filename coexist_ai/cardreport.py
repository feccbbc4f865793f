"""`coexist-ai cards report`: does a card set play sensibly?

Plays seeded games between equal players (uniformly random by default, or
any bot spec) and sums up game length, how games end, the score range, how
often each effect kind fires, and how often each specialty wins against its
fair share.
"""
from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from coexist_ai import _engine
from coexist_ai.cards import EFFECT_KINDS, CardSet
from coexist_ai.notation import split_action
from coexist_ai.vocabulary import IMMEDIATE_EFFECTS, ActionKind, Fauna

# effects counted as "applied": the immediate ones, and start_recruit (asked
# at every turn start)
ASKED = IMMEDIATE_EFFECTS | {"start_recruit"}


@dataclass
class GameFacts:
    players: int
    rounds: int
    actions: int
    end_reason: str
    scores: list[int]
    winners_faunas: list[str]
    faunas: list[str]
    released: Counter[str] = field(default_factory=Counter)
    used: Counter[str] = field(default_factory=Counter)


Policy = Callable[[_engine.State, random.Random], int]


def bot_policy(spec: str, players: int, seed: int) -> Policy:
    """A policy in which every seat is played by its own copy of a bot."""
    from coexist_ai.bots import make_bot
    bots = [make_bot(spec, seed * 10 + seat) for seat in range(players)]

    def choose(state: _engine.State, rng: random.Random) -> int:
        return bots[state.current_player].choose(state.observation(state.current_player))
    return choose


def _effect_kind(card_set: CardSet, card_index: int) -> str | None:
    effect = card_set.cards[card_index].effect
    return effect.kind if effect else None


def _note_effects(state: _engine.State, action: int, facts: GameFacts) -> None:
    """Count releases of animals with an effect, and effects really used."""
    kind, _, _, card, _ = split_action(action)
    card_set = state.card_set
    if kind == ActionKind.RELEASE and (released := _effect_kind(card_set, card)):
        facts.released[released] += 1
    elif state.phase == "start" and kind == ActionKind.APPLY:
        facts.used["start_recruit"] += 1
    elif state.phase == "effect" and kind not in (ActionKind.SKIP, ActionKind.END):
        in_play = state.turn.effect_card   # the effect phase always has one
        assert in_play is not None and in_play.effect is not None
        facts.used[in_play.effect.kind] += 1


def _end_reason(state: _engine.State) -> str:
    goal = state.card_set.rules["release_goal"]
    if any(len(seat.released) >= goal for seat in state.seats):
        return "release goal"
    if state.draw_pile_size() == 0:
        return "draw pile empty"
    return "round safeguard"


def play_one(card_set: CardSet, players: int, seed: int, spec: str = "random") -> GameFacts:
    state = _engine.State.new(card_set, players=players, seed=seed)
    rng = random.Random(seed)
    policy = bot_policy(spec, players, seed)
    faunas = [str(seat.fauna) for seat in state.seats]
    facts = GameFacts(players, 0, 0, "", [], [], faunas)
    while not state.is_over():
        action = policy(state, rng)
        _note_effects(state, action, facts)
        state.apply(action)
        facts.actions += 1
    facts.rounds = state.rounds
    facts.end_reason = _end_reason(state)
    facts.scores = state.scores()
    facts.winners_faunas = [faunas[p] for p, r in enumerate(state.ranks()) if r == 1]
    return facts


def summarize(all_facts: Sequence[GameFacts]) -> list[str]:
    """Text lines of the report, for one player count."""
    n = len(all_facts)
    players = all_facts[0].players
    rounds = [f.rounds for f in all_facts]
    winners = [max(f.scores) for f in all_facts]
    scores = [s for f in all_facts for s in f.scores]
    lines = [f"{players} players, {n} games",
             f"  rounds: mean {sum(rounds) / n:.1f}, min {min(rounds)}, max {max(rounds)};"
             f" actions a game: mean {sum(f.actions for f in all_facts) / n:.0f}",
             "  ends by: " + ", ".join(f"{reason} {count / n:.0%}" for reason, count in
                                       Counter(f.end_reason for f in all_facts).most_common()),
             f"  winner's score: mean {sum(winners) / n:.1f}, min {min(winners)}, max {max(winners)};"
             f" all scores: mean {sum(scores) / len(scores):.1f}, min {min(scores)}, max {max(scores)}",
             "  effects a game (animals released with it / immediate effect applied;"
             " permanent effects act from their release):"]
    released = sum((f.released for f in all_facts), Counter())
    used = sum((f.used for f in all_facts), Counter())
    for kind in EFFECT_KINDS:
        applied = f"{used[kind] / n:5.2f}" if kind in ASKED else "    -"
        lines.append(f"    {kind:<26} {released[kind] / n:5.2f} / {applied}")
    lines.append(f"  specialty wins (fair share {1 / players:.0%}; ties split):")
    lines += _specialty_lines(all_facts)
    return lines


def _specialty_lines(all_facts: Sequence[GameFacts]) -> list[str]:
    wins: defaultdict[str, float] = defaultdict(float)
    seats: Counter[str] = Counter()
    for f in all_facts:
        seats.update(f.faunas)
        for fauna in f.winners_faunas:
            wins[fauna] += 1 / len(f.winners_faunas)
    return [f"    {fauna:<9} {wins[fauna] / seats[fauna]:5.1%} of {seats[fauna]} games"
            for fauna in Fauna if seats[fauna]]


def card_set_report(card_set: CardSet, games: int = 400, seed: int = 1,
                    player_counts: Sequence[int] = (2, 3, 4), spec: str = "random") -> str:
    label = "reconstructed" if card_set.is_reconstructed else "from " + str(card_set.source)
    lines = [f"card set {card_set.name!r} ({label}), sha256 {card_set.sha256[:16]}",
             f"players: every seat played by {spec!r} (equal players, seeded)"]
    for players in player_counts:
        facts = [play_one(card_set, players, seed + g, spec) for g in range(games)]
        lines += summarize(facts)
    return "\n".join(lines)
