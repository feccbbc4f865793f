"""A person plays Coexist in the terminal against bots.

The session is a referee: it holds the State, gives every bot (and the
screen) only an Observation, and keeps the game record up to date. The
record is saved at each of the person's decisions and when the session
ends, however it ends (quit, end of input, Ctrl-C, the game's end, a crash),
so a game is never lost; `coexist-ai play --resume FILE` continues it.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from coexist_ai import explain
from coexist_ai.bots import Bot, make_bot
from coexist_ai.match import Record, as_failure
from coexist_ai.play import gamefile
from coexist_ai.play.compact import compact_screen, short_move
from coexist_ai.play.console import Console
from coexist_ai.play.moveinput import COMMANDS, interpret
from coexist_ai.play.render import render_final, render_moves, render_position
from coexist_ai.play.wrap import fold

if TYPE_CHECKING:
    from coexist_ai._engine import Observation
    from coexist_ai.cards import CardSet
    from coexist_ai.paths import StrPath
    from coexist_ai.play.gamefile import TurnRun

__all__ = ["Console", "PlaySession", "hint_text"]   # cli_play takes Console from here

HELP = """\
Type the number of a move, or the move itself. The start of a move is enough
when only one legal move begins that way, word by word: 'rel fox' for
'release forest-red-fox', 'as c bear' for 'assign C forest-brown-bear'; a
card may be named by any word of its name. Tab completes, the arrow keys
edit and bring back earlier lines.

Commands:
  help    this text
  hint    what the ISMCTS bot would play here, and its estimated value
  undo    take back your previous decision (and the bots' moves since)
  board   the screen again
  detail  the whole position in full words (card ids, specialties, effects)
  moves   every legal move, in full notation
  quit    save the game and leave; continue with: coexist-ai play --resume FILE
End of input (Ctrl-D) and Ctrl-C save and leave like quit.

Colours: C Congener, F Water/Food, P Protection, H Habitat (lowest to
highest tier), S Survival. A Reputation track reads left to right: S is a
Survival token, a digit the points that space still gives, ^ a capture icon.
Mission board: cap capture value, cons conservation value (points when
released); a seat's '>' marks the seat to play.
"""

SPINNER = "|/-\\"


class PlaySession:
    """One game between a person (one seat) and bots (the other seats)."""

    def __init__(self, card_set: CardSet, record: Record, console: Console,
                 save_path: StrPath, hint_spec: str, file_records: Sequence[Record] = (),
                 index: int | None = None) -> None:
        """record: a game with one "human" seat, its moves already made.
        It is saved at `index` among `file_records` (the other games of
        the save file, kept as they are); index None: appended."""
        humans = gamefile.human_seats(record)
        if len(humans) != 1:
            raise gamefile.GameFileError(
                f"a game to play needs exactly one seat with spec 'human'; this "
                f"record has {len(humans)} (seat specs: "
                f"{[b.get('spec') for b in record.get('bots', [])]})")
        self.cs, self.console, self.style = card_set, console, console.style
        self.record, self.human = record, humans[0]
        self.save_path, self.hint_spec = save_path, hint_spec
        self.records = list(file_records)
        self.index = len(self.records) if index is None else index
        self.names = gamefile.seat_names(record)
        self.state = gamefile.state_after(record, card_set)
        self.forfeits: list[dict[str, Any]] = []
        self.notes: list[str] = []          # lines for the foot of the next screen
        self.hint_bot: Bot | None = None
        self.bots = {seat: make_bot(entry["spec"], entry.get("seed"))
                     for seat, entry in enumerate(record["bots"]) if seat != self.human}
        self._reset_bots()

    def _reset_bots(self) -> None:
        for seat, bot in self.bots.items():
            bot.new_game(seat, self.state.num_players)

    def close(self) -> None:
        for bot in list(self.bots.values()) + [self.hint_bot]:
            if bot is not None:
                bot.close()

    # -- the game --------------------------------------------------------------
    def run(self) -> int:
        """Play until the end or until the person leaves; returns 0."""
        try:
            return self._loop()
        except KeyboardInterrupt:
            self.console.end_status()
            self.console.write("")
            self._leave("interrupted")
            return 0
        except BaseException:
            self.save()      # whatever went wrong, the game so far is kept
            raise
        finally:
            self.close()

    def _loop(self) -> int:
        self._intro()
        while not self.state.is_over():
            seat = self.state.current_player
            if seat == self.human:
                if not self._human_decision():
                    return 0
            elif not self._bot_move(seat):
                break
        self._finish()
        return 0

    def _intro(self) -> None:
        r = self.record
        seat = self.human
        what = "continuing a saved game" if r["moves"] else "a new game"
        self.console.write(self.style.bold(
            f"Coexist: {what}, {r['players']} players, you are seat {seat} "
            f"({r['faunas'][seat]} specialty); card set {self.cs.display_name}"))
        for p, name in enumerate(self.names):
            if p != seat:
                self.console.write(f"  seat {p}: {name} ({r['faunas'][p]})")
        self.console.write(f"The game is saved to {self.save_path} as it goes. "
                           "Type help at the prompt for the commands.")
        # the first screen may clear these lines: it repeats the essentials
        self.notes = [f"You are seat {seat} ({r['faunas'][seat]}); saved to "
                      f"{self.save_path}; type help for the commands."]

    def _show(self, notes: Sequence[str] = ()) -> list[str]:
        """The compact screen, fitted to the terminal; the legal moves."""
        obs = self.state.observation(self.human)
        moves = obs.legal_moves()
        console = self.console
        lines = compact_screen(obs, moves, self.names, self.human, self._recent(),
                               self.style, console.width, console.height, notes)
        console.screen("\n".join(lines))
        console.complete_with([short_move(self.cs, m).split() for m in moves]
                              + [m.split() for m in moves], sorted(set(COMMANDS) - {"?"}))
        return moves

    def _say(self, text: str) -> None:
        """A message under the prompt; the screen is drawn again, the
        message at its foot, when writing it would scroll the header away."""
        left = self.console.rows_left()
        lines = fold(text, self.console.width).split("\n")
        if left is None or len(lines) + 1 <= left:
            self.console.write(text)
        else:
            self._show(notes=lines)

    def _recent(self) -> list[TurnRun]:
        """The last turn of every seat (the current turn's moves so far
        included): [(seat, [move, ...], seconds)]."""
        return gamefile.turn_runs(self.record)[-self.state.num_players:]

    def _human_decision(self) -> bool:
        """Ask the person until they move (True) or leave (False)."""
        self.save()
        notes, self.notes = self.notes, []
        moves = self._show(notes)
        asked = time.perf_counter()
        numbers = "1" if len(moves) == 1 else f"1-{len(moves)}"
        prompt = f"seat {self.human} (you), {self.state.phase} ({numbers}, help) > "
        while True:
            try:
                line = self.console.read(prompt)
            except EOFError:
                self.console.write("")
                self._leave("end of input")
                return False
            obs = self.state.observation(self.human)
            answer = interpret(line, moves, self.cs, obs)
            if answer.kind == "move":
                self._play(self.human, self.state.legal_actions()[answer.move],
                           time.perf_counter() - asked)
                return True
            if answer.kind == "error":
                self._say(self.style.error(answer.message))
            elif answer.kind == "command":
                if answer.command == "quit":
                    self._leave("quit")
                    return False
                if answer.command == "undo":
                    if self._undo():
                        return True
                    continue
                self._command(answer.command, moves)

    def _command(self, command: str, moves: Sequence[str]) -> None:
        if command == "board":
            self._show()
        elif command == "detail":
            obs = self.state.observation(self.human)
            self.console.screen(render_position(obs, self.names, self.human,
                                                self._recent_moves(), self.style))
            self.console.write(render_moves(self.cs, moves, self.style))
        elif command == "moves":
            self.console.write(render_moves(self.cs, moves, self.style))
        elif command == "hint":
            self._hint()
        elif command == "help":
            self.console.write(HELP)

    def _recent_moves(self) -> list[tuple[int, str]]:
        return [(seat, move) for seat, run, _ in self._recent() for move in run]

    def _play(self, seat: int, action: int, seconds: float) -> None:
        self.record["moves"].append([seat, self.state.move_name(action)])
        self.record["times"].append(round(seconds, 6))
        self.state.apply(action)

    def _bot_move(self, seat: int) -> bool:
        """Let a bot move (True), or record its forfeit (False)."""
        bot = self.bots[seat]
        label = self.style.seat(seat, f"seat {seat} ({self.names[seat]})")
        obs = self.state.observation(seat)
        try:
            action, seconds = self._think(bot, obs, f"{label} is thinking")
        except Exception as error:  # whatever a bot raises is its forfeit
            failure = as_failure(error)
            return self._forfeit(seat, failure.kind, failure.detail)
        if not isinstance(action, int) or not self.state.is_legal(action):
            return self._forfeit(seat, "illegal", f"illegal move {action!r} in the "
                                                  f"'{self.state.phase}' decision")
        move = self.state.move_name(action)
        self._play(seat, action, seconds)
        self.console.write(f"{label}: {move}")
        return True

    def _think(self, bot: Bot, obs: Observation, text: str) -> tuple[int, float]:
        """bot.choose(obs) in a thread, with a spinner on a terminal;
        (action, seconds). The search runs without the GIL."""
        result: dict[str, Any] = {}

        def work() -> None:
            try:
                result["action"] = bot.choose(obs)
            except BaseException as e:  # handed to the main thread
                result["error"] = e

        start = time.perf_counter()
        worker = threading.Thread(target=work, daemon=True)
        worker.start()
        tick = 0
        while worker.is_alive():
            worker.join(0.1)
            if worker.is_alive():
                tick += 1
                self.console.status(f"{text} {SPINNER[tick % 4]} "
                                    f"{time.perf_counter() - start:.1f}s")
        if tick:
            self.console.end_status()
        if "error" in result:
            raise result["error"]
        return result["action"], time.perf_counter() - start

    def _forfeit(self, seat: int, kind: str, reason: str) -> bool:
        self.console.write(self.style.error(
            f"seat {seat} ({self.names[seat]}) forfeits: {kind}: {reason}"))
        self.forfeits = [{"seat": seat, "kind": kind, "reason": reason}]
        return False

    # -- commands -------------------------------------------------------------
    def _undo(self) -> bool:
        moves = self.record["moves"]
        mine = [i for i, (seat, _) in enumerate(moves) if seat == self.human]
        if not mine:
            self.console.write("Nothing to undo: you have not moved yet.")
            return False
        cut = mine[-1]
        taken = moves[cut:]
        del moves[cut:]
        del self.record["times"][cut:]
        self.state = gamefile.state_after(self.record, self.cs)
        self._reset_bots()      # a bot's search tree belongs to the old line
        self.notes = [f"Undone: {', '.join(m for _, m in taken)}"]
        return True

    def _hint(self) -> None:
        obs = self.state.observation(self.human)
        legal = obs.legal_actions()
        if len(legal) == 1:
            self._say(f"hint: only one legal move: {obs.move_name(legal[0])}")
            return
        if self.hint_bot is None:
            self.hint_bot = make_bot(self.hint_spec)
        try:
            self.hint_bot.new_game(self.human, obs.num_players)
            action, seconds = self._think(self.hint_bot, obs,
                                          f"hint ({self.hint_spec}): thinking")
        except Exception as error:  # a failed hint costs the person nothing
            failure = as_failure(error)
            self._say(self.style.error(f"no hint: {failure.kind}: {failure.detail}"))
            return
        self._say(hint_text(self.cs, legal, action, self.hint_bot.info,
                            self.hint_spec, seconds))

    # -- leaving and the end ---------------------------------------------------------
    def save(self) -> None:
        gamefile.finish_record(self.record, self.state, self.forfeits)
        self.records = gamefile.save_game(self.save_path, self.records, self.index,
                                          self.record)

    def _leave(self, why: str) -> None:
        self.save()
        self.console.write(f"{why}: the game is saved to {self.save_path}\n"
                           f"Continue it with: coexist-ai play --resume {self.save_path}")

    def _finish(self) -> None:
        self.save()
        obs = self.state.observation(self.human)
        rec = self.record
        board = compact_screen(obs, [], self.names, self.human, self._recent(), self.style,
                               self.console.width)
        lost = {f["seat"] for f in rec["forfeits"]}
        final = render_final(obs, self.names, self.human, self.style,
                             ranks=rec["ranks"], forfeits=rec["forfeits"])
        self.console.screen("\n".join(board) + "\n\n" + final)
        self.console.write(self.style.bold(self._verdict(obs, lost)))
        self.console.write(f"The record is in {self.save_path}; step through it with: "
                           f"coexist-ai replay {self.save_path}")

    def _verdict(self, obs: Observation, lost: set[int]) -> str:
        rec = self.record
        place, n = rec["ranks"][self.human], rec["players"]
        verdict = "You win!" if place == 1 and rec["ranks"].count(1) == 1 else (
            "A shared first place!" if place == 1 else f"You finish {ordinal(place)} of {n}.")
        labels = [("you" if p == self.human else f"seat {p} ({name})")
                  for p, name in enumerate(self.names)]
        tie = explain.seat_tie_break(self.human, obs.scores(), [s.track for s in obs.seats],
                                     labels, exclude=lost)
        return verdict + (f" ({tie})" if tie else "")


def ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def hint_text(card_set: CardSet, legal: Sequence[int], action: int, info: Mapping[str, Any],
              spec: str, seconds: float) -> str:
    """What the hint bot would play, with its estimated value and the
    search's best alternatives."""
    from coexist_ai.notation import action_to_move
    move = action_to_move(card_set, action)
    number = legal.index(action) + 1 if action in legal else "?"
    lines = [f"hint: {spec} would play {number}. {move}"]
    if "value" in info:
        lines[0] += (f" (estimated value {info['value']:.2f}: 1 = first place, "
                     f"0 = last; {info.get('iterations', 0)} iterations in {seconds:.1f}s)")
        stats = sorted(info.get("moves", []), key=lambda m: -m[1])
        total = sum(m[1] for m in stats) or 1
        for a, visits, _, value in stats[:3]:
            lines.append(f"  {action_to_move(card_set, a):<40} "
                         f"{100 * visits / total:5.1f}% of visits, value {value:.2f}")
        line = [action_to_move(card_set, a) for a in info.get("principal_line", [])[:6]]
        if len(line) > 1:
            lines.append(f"  expected line: {', '.join(line)}")
    return "\n".join(lines)
