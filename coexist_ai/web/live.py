"""A game in progress behind the web page: a referee, its bots, its record.

The game holds the State; the page, each bot and the hint bot only ever get
an Observation. Bots move in a thread of their own, one move at a time,
so a page that asks while a bot thinks gets the position so far; `pace`
spaces a bot's moves out so that a person can follow them. The record (the
terminal game's format, coexist_ai/play/gamefile.py) is saved whenever the
turn passes to another seat, at the end, and after an undo, so `coexist-ai
play --resume` and `replay` read what the web game writes, and back.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any

from coexist_ai.bots import Bot, make_bot
from coexist_ai.errors import CoexistError
from coexist_ai.match import BotFailure, as_failure
from coexist_ai.play import gamefile
from coexist_ai.web import words
from coexist_ai.web.view import board_view, move_view
from coexist_ai.web.story import final_view, turns_view


class Refused(CoexistError):
    """A request the game cannot grant now; `status` is the HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class LiveGame:
    """One game between a person (or nobody: a bot game to watch) and bots."""

    mode = "play"

    def __init__(self, card_set: Any, record: dict[str, Any], save_path: str,
                 hint_spec: str, file_records: Sequence[Any] = (), index: int | None = None,
                 pace: float = 0.0) -> None:
        humans = gamefile.human_seats(record)
        if len(humans) > 1:
            raise gamefile.GameFileError(
                f"a game to play needs at most one seat with spec 'human'; this "
                f"record has {len(humans)}")
        self.cs, self.record, self.pace = card_set, record, pace
        self.human = humans[0] if humans else None
        self.mode = "play" if humans else "watch"
        self.save_path, self.hint_spec = save_path, hint_spec
        self.records = list(file_records)
        self.index = len(self.records) if index is None else index
        self.names = gamefile.seat_names(record)
        self.state = gamefile.state_after(record, card_set)
        self.forfeits: list[dict[str, Any]] = list(record.get("forfeits") or [])
        self.bots = {seat: make_bot(entry["spec"], entry.get("seed"))
                     for seat, entry in enumerate(record["bots"]) if seat != self.human}
        self.hint_bot: Bot | None = None
        self.version = 0            # bumped at every change the page must see
        self.thinking: int | None = None
        self.closed = False
        self.changed = threading.Condition(threading.RLock())
        self.hinting = threading.Lock()      # one hint search at a time
        self.asked = time.perf_counter()     # when the person's decision came up
        self._reset_bots()
        self.save()
        self.worker = threading.Thread(target=self._bot_loop, daemon=True,
                                       name="coexist-web-bots")
        self.worker.start()

    # -- what the page sees ------------------------------------------------------
    def over(self) -> bool:
        return self.state.is_over() or bool(self.forfeits)

    def snapshot(self) -> dict[str, Any]:
        """Everything the page draws, from an Observation only."""
        with self.changed:
            state = self.state
            viewer = self.human if self.human is not None else max(state.current_player, 0)
            obs = state.observation(viewer)
            yours = self._human_to_move()
            snap = {
                "mode": self.mode, "version": self.version, "you": self.human,
                "names": self.names, "board": board_view(obs),
                "turns": turns_view(self.cs, self.record, self.names),
                "moves_made": len(self.record["moves"]),
                "thinking": self.thinking, "your_move": yours,
                "legal": [move_view(self.cs, m) for m in obs.legal_moves()] if yours else [],
                "can_undo": self._can_undo(), "save_path": self.save_path,
                "forfeits": self.forfeits,
                "final": final_view(obs, self.names, self.human, self.record)
                if self.over() else None,
            }
        return snap

    def _human_to_move(self) -> bool:
        return (self.human is not None and not self.over()
                and self.state.current_player == self.human)

    def _can_undo(self) -> bool:
        mine = any(seat == self.human for seat, _ in self.record["moves"])
        return mine and self.thinking is None and (self._human_to_move() or self.over())

    # -- the person's requests ---------------------------------------------------------
    def play(self, move: str, version: int | None = None) -> dict[str, Any]:
        """Play the person's move (notation) and return the position right
        after it (the bots' moves since come with the next snapshots);
        Refused says why it cannot be."""
        with self.changed:
            if not self._human_to_move():
                raise Refused(self._not_your_move(), 409)
            if version is not None and version != self.version:
                raise Refused("the position changed since the page drew it; "
                              "it has been redrawn", 409)
            if not isinstance(move, str):
                raise Refused(f"'move' must be a move in notation, such as 'recruit C', "
                              f"not {move!r}")
            obs = self.state.observation(self.human)
            try:
                action = obs.parse_move(move)
            except CoexistError:
                why = words.why_illegal(obs, move, self.human)
                raise Refused(why or f"{move!r} is not legal here") from None
            assert self.human is not None    # _human_to_move: there is a person
            self._apply(self.human, action, time.perf_counter() - self.asked)
            return self.snapshot()

    def _not_your_move(self) -> str:
        if self.human is None:
            return "this is a bot game to watch: nobody plays from the page"
        if self.over():
            return "the game is over; start a new game"
        seat = self.state.current_player
        return f"it is seat {seat}'s move ({self.names[seat]}), not yours"

    def undo(self) -> dict[str, Any]:
        """Back to the person's previous decision: the position there, with
        the moves taken back (`undone`)."""
        with self.changed:
            if not self._can_undo():
                if self.thinking is not None:
                    raise Refused("a bot is thinking: undo once it is your move", 409)
                raise Refused("nothing to undo: you have not moved yet", 409)
            moves = self.record["moves"]
            cut = max(i for i, (seat, _) in enumerate(moves) if seat == self.human)
            taken = [m for _, m in moves[cut:]]
            del moves[cut:]
            del self.record["times"][cut:]
            self.forfeits = []
            self.state = gamefile.state_after(self.record, self.cs)
            self.asked = time.perf_counter()
            self._reset_bots()        # a search tree belongs to the old line
            self._changed()
            self.save()
            return dict(self.snapshot(), undone=taken)

    def hint(self) -> dict[str, Any]:
        """What the hint bot would play: the move, its value, its line."""
        with self.changed:
            if not self._human_to_move():
                raise Refused(self._not_your_move(), 409)
            obs = self.state.observation(self.human)
        if not self.hinting.acquire(blocking=False):
            raise Refused("a hint is already being worked out", 409)
        try:
            return self._hint(obs)
        finally:
            self.hinting.release()

    def _hint(self, obs: Any) -> dict[str, Any]:
        legal = obs.legal_actions()
        if len(legal) == 1:
            move = obs.move_name(legal[0])
            return {"move": move, "text": words.describe_move(self.cs, move),
                    "only": True, "line": []}
        if self.hint_bot is None:
            self.hint_bot = make_bot(self.hint_spec)
        start = time.perf_counter()
        assert self.human is not None    # asked only while the person is to move
        try:
            self.hint_bot.new_game(self.human, obs.num_players)
            action = self.hint_bot.choose(obs)
        except Exception as error:  # a failed hint costs the person nothing
            failure = as_failure(error)
            raise Refused(f"no hint: {failure.kind}: {failure.detail}", 503) from None
        return hint_view(self.cs, obs, action, self.hint_bot.info, self.hint_spec,
                         time.perf_counter() - start)

    # -- bots ------------------------------------------------------------------------
    def _reset_bots(self) -> None:
        for seat, bot in self.bots.items():
            bot.new_game(seat, self.state.num_players)

    def _bot_to_move(self) -> int | None:
        if self.over() or self.closed:
            return None
        seat = self.state.current_player
        return seat if seat != self.human else None

    def _bot_loop(self) -> None:
        try:
            while self._one_bot_move():
                pass
        finally:
            for bot in list(self.bots.values()) + [self.hint_bot]:
                if bot is not None:
                    bot.close()

    def _one_bot_move(self) -> bool:
        """Wait for a bot's turn and play one move; False once closed."""
        with self.changed:
            while not self.closed and self._bot_to_move() is None:
                self.changed.wait()
            if self.closed:
                return False
            seat = self._bot_to_move()
            assert seat is not None      # the wait above ends on a bot's turn
            obs = self.state.observation(seat)
            self.thinking = seat
            self._changed()
        start = time.perf_counter()
        action: int | None = None
        failure: BotFailure | None = None
        try:
            action = self.bots[seat].choose(obs)
        except Exception as error:  # whatever a bot raises is its forfeit
            failure = as_failure(error)
        seconds = time.perf_counter() - start
        with self.changed:
            self.thinking = None
            if self.closed:
                return False
            if failure is None and not (isinstance(action, int) and self.state.is_legal(action)):
                failure = BotFailure("illegal", f"illegal move {action!r} in the "
                                                f"'{self.state.phase}' decision")
            if failure is not None:
                self.forfeits = [{"seat": seat, "kind": failure.kind, "reason": failure.detail}]
                self._changed()
                self.save()
                return True
            assert action is not None    # an int, legal: checked above
            self._apply(seat, action, seconds)
        if self.pace > seconds:
            time.sleep(self.pace - seconds)   # the page shows one move at a time
        return True

    # -- the record ------------------------------------------------------------------
    def _apply(self, seat: int, action: int, seconds: float) -> None:
        before = self.state.current_player
        self.record["moves"].append([seat, self.state.move_name(action)])
        self.record["times"].append(round(seconds, 6))
        self.state.apply(action)
        if self._human_to_move():
            self.asked = time.perf_counter()
        self._changed()
        # the person's moves at once (a closed page loses none), a bot's
        # once its turn is over
        if seat == self.human or self.state.is_over() or self.state.current_player != before:
            self.save()

    def _changed(self) -> None:
        self.version += 1
        self.changed.notify_all()

    def save(self) -> None:
        with self.changed:
            gamefile.finish_record(self.record, self.state, self.forfeits)
            self.records = gamefile.save_game(self.save_path, self.records, self.index,
                                              self.record)

    def close(self) -> None:
        """Stop the bots; the bot thread closes them once its move is done."""
        with self.changed:
            if self.closed:
                return
            self.closed = True
            if self.thinking is not None:
                self.bots[self.thinking].stop()
            self.changed.notify_all()
            self.save()


def hint_view(card_set: Any, obs: Any, action: int, info: dict[str, Any], spec: str,
              seconds: float) -> dict[str, Any]:
    """The hint for the page: move, words, value, the search's best moves
    and the line it expects."""
    move = obs.move_name(action)
    stats = sorted(info.get("moves", []), key=lambda m: -m[1])
    total = sum(m[1] for m in stats) or 1
    best = [{"move": obs.move_name(a), "share": round(visits / total, 3),
             "value": round(value, 3)} for a, visits, _, value in stats[:3]]
    line = []
    for a in info.get("principal_line", [])[:8]:
        named = obs.move_name(a)
        if any(c in card_set.by_id and obs.location(c).location == "deck"
               for c in named.split()[1:]):
            break   # past a refill the line plays cards of a sampled deal
        line.append(named)
    return {"move": move, "text": words.describe_move(card_set, move), "only": False,
            "value": round(info["value"], 3) if "value" in info else None,
            "iterations": info.get("iterations"), "seconds": round(seconds, 2),
            "spec": spec, "best": best,
            "line": [{"move": m, "text": words.describe_move(card_set, m)} for m in line]}
