"""A person plays Coexist in the terminal against bots.

The session is a referee: it holds the State, gives every bot (and the
screen) only an Observation, and keeps the game record up to date. The
record is saved at each of the person's decisions and when the session
ends, however it ends (quit, end of input, Ctrl-C, the game's end, a crash),
so a game is never lost; `coexist-ai play --resume FILE` continues it.
"""
import shutil
import sys
import threading
import time

from coexist_ai.bots import make_bot
from coexist_ai.match import as_failure
from coexist_ai.play import gamefile
from coexist_ai.play.moveinput import interpret
from coexist_ai.play.render import (group_runs, render_final, render_moves,
                                    render_position)
from coexist_ai.play.wrap import fold

HELP = """\
Type the number of a move, or the move itself. The start of a move is enough
when only one legal move begins that way, word by word: 'rel fox' for
'release forest-red-fox', 'as c bear' for 'assign C forest-brown-bear'.

Commands:
  help   this text
  hint   what the ISMCTS bot would play here, and its estimated value
  undo   take back your previous decision (and the bots' moves since)
  board  show the position and the moves again
  quit   save the game and leave; continue with: coexist-ai play --resume FILE
End of input (Ctrl-D) and Ctrl-C save and leave like quit.

Colours: C Congener, F Water/Food, P Protection, H Habitat (lowest to
highest tier), S Survival. A Reputation track reads left to right: S is a
Survival token, a digit the points that space still gives, ^ a capture icon.
"""

SPINNER = "|/-\\"


class Console:
    """Reads the person's lines and writes the screen (stdin/stdout)."""

    def __init__(self, style, clear=True, stdin=None, stdout=None):
        self.style = style
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.clear = clear and style.colour
        # No readline: the terminal's own line editing is enough, and it
        # keeps lines typed ahead of a prompt (readline can lose them).
        self.interactive = _isatty(self.stdin) and _isatty(self.stdout)
        self._status_width = 0

    def _fit(self, text):
        """Folded to the terminal's width (on a terminal; a pipe or file
        gets whole lines, which programs read more easily)."""
        if not self.interactive:
            return text
        return fold(text, shutil.get_terminal_size().columns)

    def write(self, text=""):
        self.stdout.write(self._fit(text) + "\n")
        self.stdout.flush()

    def status(self, text):
        """A line that the next status or write replaces (terminals only;
        plain spaces blank it, no control codes)."""
        if self.interactive:
            self.stdout.write("\r" + text.ljust(self._status_width))
            self.stdout.flush()
            self._status_width = len(text)

    def end_status(self):
        if self.interactive and self._status_width:
            self.stdout.write("\r" + " " * self._status_width + "\r")
            self.stdout.flush()
            self._status_width = 0

    def screen(self, text):
        self.stdout.write((self.style.clear_screen() if self.clear else "") + self._fit(text) + "\n")
        self.stdout.flush()

    def read(self, prompt):
        """A line from the person; EOFError at end of input."""
        if self.stdin is sys.stdin and self.stdout is sys.stdout:
            return input(prompt)
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise EOFError
        return line


def _isatty(stream):
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class PlaySession:
    """One game between a person (one seat) and bots (the other seats)."""

    def __init__(self, card_set, record, console, save_path, hint_spec,
                 file_records=(), index=None):
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
        self.forfeits = []
        self.hint_bot = None
        self.bots = {seat: make_bot(entry["spec"], entry.get("seed"))
                     for seat, entry in enumerate(record["bots"]) if seat != self.human}
        self._reset_bots()

    def _reset_bots(self):
        for seat, bot in self.bots.items():
            bot.new_game(seat, self.state.num_players)

    def close(self):
        for bot in list(self.bots.values()) + [self.hint_bot]:
            if bot is not None:
                bot.close()

    # -- the game --------------------------------------------------------------
    def run(self):
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

    def _loop(self):
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

    def _intro(self):
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

    def _show(self):
        obs = self.state.observation(self.human)
        moves = obs.legal_moves()
        board = render_position(obs, self.names, self.human, self._recent(), self.style)
        self.console.screen(board + "\n" + render_moves(self.cs, moves, self.style))
        return moves

    def _recent(self):
        """The moves of the last turn of every seat (the current turn's
        moves so far included)."""
        runs = group_runs(self.record["moves"])[-self.state.num_players:]
        return [(seat, move) for seat, moves in runs for move in moves]

    def _human_decision(self):
        """Ask the person until they move (True) or leave (False)."""
        self.save()
        moves = self._show()
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
            answer = interpret(line, moves, self.cs)
            if answer.kind == "move":
                self._play(self.human, self.state.legal_actions()[answer.move],
                           time.perf_counter() - asked)
                return True
            if answer.kind == "error":
                self.console.write(self.style.error(answer.message))
            elif answer.kind == "command":
                if answer.command == "quit":
                    self._leave("quit")
                    return False
                if answer.command == "undo":
                    if self._undo():
                        return True
                elif answer.command == "board":
                    moves = self._show()
                elif answer.command == "hint":
                    self._hint()
                else:
                    self.console.write(HELP)

    def _play(self, seat, action, seconds):
        self.record["moves"].append([seat, self.state.move_name(action)])
        self.record["times"].append(round(seconds, 6))
        self.state.apply(action)

    def _bot_move(self, seat):
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

    def _think(self, bot, obs, text):
        """bot.choose(obs) in a thread, with a spinner on a terminal;
        (action, seconds). The search runs without the GIL."""
        result = {}

        def work():
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

    def _forfeit(self, seat, kind, reason):
        self.console.write(self.style.error(
            f"seat {seat} ({self.names[seat]}) forfeits: {kind}: {reason}"))
        self.forfeits = [{"seat": seat, "kind": kind, "reason": reason}]
        return False

    # -- commands -------------------------------------------------------------
    def _undo(self):
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
        self.console.write(f"Undone: {', '.join(m for _, m in taken)}")
        return True

    def _hint(self):
        obs = self.state.observation(self.human)
        legal = obs.legal_actions()
        if len(legal) == 1:
            self.console.write(f"hint: only one legal move: {obs.move_name(legal[0])}")
            return
        if self.hint_bot is None:
            self.hint_bot = make_bot(self.hint_spec)
        try:
            self.hint_bot.new_game(self.human, obs.num_players)
            action, seconds = self._think(self.hint_bot, obs,
                                          f"hint ({self.hint_spec}): thinking")
        except Exception as error:  # a failed hint costs the person nothing
            failure = as_failure(error)
            self.console.write(self.style.error(f"no hint: {failure.kind}: {failure.detail}"))
            return
        self.console.write(hint_text(self.cs, legal, action, self.hint_bot.info,
                                     self.hint_spec, seconds))

    # -- leaving and the end ---------------------------------------------------------
    def save(self):
        gamefile.finish_record(self.record, self.state, self.forfeits)
        self.records = gamefile.save_game(self.save_path, self.records, self.index,
                                          self.record)

    def _leave(self, why):
        self.save()
        self.console.write(f"{why}: the game is saved to {self.save_path}\n"
                           f"Continue it with: coexist-ai play --resume {self.save_path}")

    def _finish(self):
        self.save()
        obs = self.state.observation(self.human)
        rec = self.record
        text = render_position(obs, self.names, self.human, self._recent(), self.style)
        final = render_final(obs, self.names, self.human, self.style,
                             ranks=rec["ranks"], forfeits=rec["forfeits"])
        self.console.screen(text + "\n\n" + final)
        place, n = rec["ranks"][self.human], rec["players"]
        verdict = "You win!" if place == 1 and rec["ranks"].count(1) == 1 else (
            "A shared first place!" if place == 1 else f"You finish {ordinal(place)} of {n}.")
        self.console.write(self.style.bold(verdict))
        self.console.write(f"The record is in {self.save_path}; step through it with: "
                           f"coexist-ai replay {self.save_path}")


def ordinal(n):
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def hint_text(card_set, legal, action, info, spec, seconds):
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
