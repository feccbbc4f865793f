"""One game between bots, as a referee plays it, and its record.

The referee holds the State; each bot only ever receives its seat's
Observation. A bot that fails (raises BotFailure, raises anything else,
answers an illegal move) forfeits: the game stops there, the forfeiting seat
is ranked last and the others are ranked by the score they have at that
moment. A bot's bug is that bot's lost game, never the end of a tournament.
"""
from __future__ import annotations

import time
from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, Protocol

from coexist_ai import _engine
from coexist_ai.errors import CoexistError

if TYPE_CHECKING:
    from coexist_ai.cards import CardSet

RECORD_FORMAT = "coexist-game"
RECORD_VERSION = 1

Record = dict[str, Any]    # a game record (docs/formats.md, recordschema.py)


class BotFailure(CoexistError):
    """A bot could not give a move: `kind` is one of time, illegal, crash,
    stall; `detail` says what happened (an external bot's stderr tail...)."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind, self.detail = kind, detail


REASON_CHARS = 500   # a record keeps the start of a failure's message


class Player(Protocol):
    """What the referee asks of the bot in a seat (coexist_ai.bots.Bot,
    an external bot, UnstartableBot)."""
    info: dict[str, Any]

    def new_game(self, seat: int, num_players: int) -> None: ...

    def choose(self, observation: _engine.Observation) -> int: ...

    def close(self) -> None: ...


def as_failure(error: BaseException) -> BotFailure:
    """The forfeit a bot's exception means: a BotFailure as it is; anything
    else (a bug, a search that cannot run) a crash whose reason is the
    exception's type and message."""
    if isinstance(error, BotFailure):
        return error
    return BotFailure("crash", f"{type(error).__name__}: {error}"[:REASON_CHARS])


class UnstartableBot:
    """Stands in a seat whose bot could not even be made: it forfeits at
    the start of the game, with the reason it could not be made."""

    def __init__(self, spec: str, error: BaseException) -> None:
        self.spec, self.failure = spec, as_failure(error)
        self.info: dict[str, Any] = {}

    def new_game(self, seat: int, num_players: int) -> NoReturn:
        raise self.failure

    def choose(self, observation: _engine.Observation) -> NoReturn:
        raise self.failure

    def close(self) -> None:
        pass


# a forfeit as records hold it: {"seat", "kind", "reason"}
Forfeit = dict[str, Any]


def _forfeit(seat: int, failure: BotFailure) -> list[Forfeit]:
    return [{"seat": seat, "kind": failure.kind, "reason": failure.detail}]


def play_game(card_set: CardSet, players: int, deal_seed: int, bots: Sequence[Player],
              specs: Sequence[str], seeds: Sequence[int],
              meta: Mapping[str, Any] | None = None) -> Record:
    """Play one game; returns its record (a dict, see docs/formats.md)."""
    state = _engine.State.new(card_set, players=players, seed=deal_seed)
    record = _record_head(card_set, state, specs, seeds, meta)
    record["deck"] = [card_set.cards[c].id for c in state_initial_deck(state)]
    forfeits = _start_bots(bots, players) or _play_moves(state, bots, record)
    _record_result(state, record, forfeits)
    _record_names(record, bots)
    return record


def _record_names(record: Record, bots: Sequence[Player]) -> None:
    """The name each external bot gave itself in its protocol hello (known
    once it has been asked a move), for tables to show."""
    for entry, bot in zip(record["bots"], bots):
        name = (getattr(bot, "identity", None) or {}).get("name")
        if isinstance(name, str) and name.strip():
            entry["name"] = name.strip()[:100]


def state_initial_deck(state: _engine.State) -> list[int]:
    """The full initial order of a new game: the cards dealt face up, then
    the pile (card indices)."""
    return [card.index for card in state.mission] + state.referee_draw_pile()


def _record_head(card_set: CardSet, state: _engine.State, specs: Sequence[str],
                 seeds: Sequence[int], meta: Mapping[str, Any] | None) -> Record:
    faunas = [str(seat.fauna) for seat in state.seats]
    head: Record = {"format": RECORD_FORMAT, "version": RECORD_VERSION}
    head.update(meta or {})
    head.update({
        "card_set": {"name": card_set.name, "sha256": card_set.sha256},
        "players": state.num_players, "faunas": faunas,
        "first_player": state.first_player,
        "bots": [{"spec": s, "seed": seed} for s, seed in zip(specs, seeds)],
        "moves": [], "times": [],
    })
    return head


def _start_bots(bots: Sequence[Player], players: int) -> list[Forfeit]:
    """Tell every bot a game begins; a bot that fails to start forfeits."""
    for seat, bot in enumerate(bots):
        try:
            bot.new_game(seat, players)
        except Exception as error:  # whatever a bot raises is its forfeit
            return _forfeit(seat, as_failure(error))
    return []


def _play_moves(state: _engine.State, bots: Sequence[Player],
                record: Record) -> list[Forfeit]:
    """Play to the end or to a forfeit; returns the forfeits."""
    while not state.is_over():
        seat = state.current_player
        start = time.perf_counter()
        try:
            action = bots[seat].choose(state.observation(seat))
        except Exception as error:  # whatever a bot raises is its forfeit
            return _forfeit(seat, as_failure(error))
        elapsed = time.perf_counter() - start
        if not isinstance(action, int) or not state.is_legal(action):
            name = _move_text(state, action)
            return [{"seat": seat, "kind": "illegal",
                     "reason": f"illegal move {name} in the '{state.phase}' decision"}]
        record["moves"].append([seat, state.move_name(action)])
        record["times"].append(round(elapsed, 6))
        state.apply_unchecked(action)   # legality was checked just above
    return []


def _move_text(state: _engine.State, action: Any) -> str:
    try:
        return repr(state.move_name(action))
    except Exception:  # a bot may answer anything at all
        return repr(action)


def _record_result(state: _engine.State, record: Record,
                   forfeits: list[Forfeit]) -> None:
    scores, ranks = state.scores(), state.ranks()
    if forfeits:
        ranks = forfeit_ranks(scores, state, {f["seat"] for f in forfeits})
    record.update({
        "end": "forfeit" if forfeits else "normal",
        "scores": scores, "ranks": ranks,
        "breakdown": [score.as_dict() for score in state.score_breakdown()],
        "rounds": state.rounds, "forfeits": forfeits,
    })


def forfeit_ranks(scores: Sequence[int], state: _engine.Position,
                  losers: Collection[int]) -> list[int]:
    """Ranks with the forfeiting seats last (sharing last place), the others
    by score and the track tie-break."""
    tracks = [seat.track for seat in state.seats]
    key = {p: (-scores[p], tracks[p]) for p in range(len(scores))}
    ranks: list[int] = []
    for p in range(len(scores)):
        if p in losers:
            ranks.append(len(scores) - len(losers) + 1)
        else:
            ranks.append(1 + sum(1 for q in key if q not in losers and key[q] < key[p]))
    return ranks
