"""`coexist-ai play` and `coexist-ai replay` driven through a pseudo-terminal,
as a person at a terminal would: the real program, its real input handling
(readline, end of input, Ctrl-C), its real screen.

Only the standard library drives it (pty.fork, os.read/write, select).
Opponents are `random` or `greedy`, so that a whole game takes a second.
"""
import json
import os
import pty
import random
import re
import select
import signal
import struct
import sys
import time

import pytest
from cli_process import PYTHON, package_env

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = "from coexist_ai.cli import run; run()"
PROMPT = re.compile(r"seat (\d) \(you\), (\w+) \((?:1-)?(\d+), help\) > ")
# a numbered move of the listing, in columns ("12. house gazelle") or grouped
# by what moves share ("assign C: [4] zebra [5] owl | end ...")
MOVE_ITEM = re.compile(r"(?<!\S)(\d+)\. (\S+(?: \S+)*)")
GROUPED = re.compile(r"(\[\d+\] \S+|\S+(?: (?!\[)\S+)*?:(?= )|\|)")
SGR = re.compile(r"\x1b\[[0-9;]*m")
GAME_END = re.compile(r"You win!|You finish \w+ of \d|A shared first place!")
REPLAY_PROMPT = re.compile(r"move \d+/\d+ \[n, p, g N, s, e, q\] > ")


class Program:
    """The CLI running on the slave side of a pty; we hold the master."""

    def __init__(self, args, cwd, colour=False, env=None, cols=200, rows=60):
        environ = package_env(TERM="xterm", COLUMNS=str(cols))
        environ.pop("NO_COLOR", None)
        if not colour:
            environ["NO_COLOR"] = "1"
        environ.update(env or {})
        self.pid, self.fd = pty.fork()
        if self.pid == 0:       # the child: its stdin/out/err are the pty
            try:
                # Ctrl-C as a terminal gives it, whatever the suite inherited
                # (started in the background, it passes SIGINT ignored)
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                os.chdir(cwd)
                os.execve(sys.executable, [*PYTHON, "-c", CLI, *args], environ)
            finally:
                os._exit(127)
        _set_size(self.fd, rows, cols)
        self.raw = ""           # all output so far, as the terminal got it
        self.text = ""          # all output so far, line ends as "\n"
        self.held = ""          # a "\r" that may start a "\r\n"
        self.pos = 0            # where the next expect starts looking
        self.status = None

    def _fill(self, timeout):
        """Read what the program wrote; False at end of output."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:         # EIO: the child closed the pty
            data = b""
        self.raw += data.decode("utf-8", "replace")
        chunk = self.held + data.decode("utf-8", "replace")
        self.held = "\r" if data and chunk.endswith("\r") else ""
        self.text += (chunk[:-1] if self.held else chunk).replace("\r\n", "\n")
        return bool(data)

    def expect(self, pattern, timeout=20):
        """Wait for `pattern` (regex) after the last match; the match."""
        regex = re.compile(pattern) if isinstance(pattern, str) else pattern
        deadline = time.monotonic() + timeout
        alive = True
        while True:
            found = regex.search(self.text, self.pos)
            if found:
                self.pos = found.end()
                return found
            left = deadline - time.monotonic()
            if not alive or left <= 0:
                why = "the program ended" if not alive else f"{timeout}s passed"
                raise AssertionError(f"{why} without {regex.pattern!r}; its last "
                                     f"output:\n{self.text[-3000:]}")
            alive = self._fill(min(left, 0.5))

    def send(self, text):
        os.write(self.fd, text.encode())

    def line(self, text):
        """Type a line and press Enter."""
        self.send(text + "\r")

    def wait(self, timeout=20):
        """The exit code, after reading everything the program wrote."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self._fill(0.2):
                break
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
                return self.status
            time.sleep(0.02)
        self.kill()
        raise AssertionError(f"the program did not exit; last output:\n{self.text[-2000:]}")

    def kill(self):
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except OSError:
                pass
            self.status = -9

    def close(self):
        self.kill()
        try:
            os.close(self.fd)
        except OSError:
            pass


def _set_size(fd, rows, cols):
    import fcntl
    import termios
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


@pytest.fixture
def spawn(tmp_path):
    programs = []

    def start(*args, **kw):
        program = Program([str(a) for a in args], str(tmp_path), **kw)
        programs.append(program)
        return program
    yield start
    for program in programs:
        program.close()


def decision(program, timeout=20, start=None):
    """Wait for the person's next prompt or for the game's end: (moves listed,
    prompt match), or (None, end match). The screen is read from `start`
    (default: the end of the last match)."""
    start = program.pos if start is None else start
    found = program.expect(re.compile(PROMPT.pattern + "|" + GAME_END.pattern), timeout)
    if found.group(1) is None:
        return None, found
    screen = program.text[start:found.start()]
    listing = screen[screen.rfind("to play:"):].split("\n", 1)[1]
    moves = listed_moves(listing)
    assert sorted(moves) == list(range(1, int(found.group(3)) + 1)), (listing, found.group(0))
    return [full_move(moves[n]) for n in sorted(moves)], found


def listed_moves(listing):
    """{number: move as shown} from the screen's move listing."""
    moves = {}
    for line in listing.splitlines():
        if "[" in line:
            head = ""
            for word in GROUPED.findall(line):
                if word == "|":
                    head = ""
                elif word.endswith(":"):
                    head = word[:-1] + " "
                else:
                    number, tail = word[1:].split("] ")
                    moves[int(number)] = head + tail
        else:
            moves.update((int(m.group(1)), m.group(2)) for m in MOVE_ITEM.finditer(line))
    return moves


def full_move(shown):
    """A move as listed (cards by the tail of their id) in full notation."""
    from coexist_ai.cards import default_card_set
    from coexist_ai.explain import short_ids
    full = {short: card_id for card_id, short in short_ids(default_card_set()).items()}
    return " ".join(full.get(word, word) for word in shown.split())


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def play_out(program, choose, limit=2000):
    """Answer every decision with choose(moves) until the game ends;
    returns the number of decisions."""
    for n in range(limit):
        moves, found = decision(program)
        if moves is None:
            return n
        program.line(choose(moves))
    raise AssertionError("the game did not end")


# -- a whole game -----------------------------------------------------------------

def test_full_game_by_numbers_and_moves(spawn, tmp_path):
    """A scripted person plays a whole game against `random`, typing a
    number or the move itself; the record replays to the same result."""
    save = tmp_path / "game.jsonl"
    program = spawn("play", "--vs", "random", "--seed", 5, "--save", save)
    rng = random.Random(5)

    def choose(moves):
        i = rng.randrange(len(moves))
        return str(i + 1) if rng.random() < 0.5 else moves[i]
    decisions = play_out(program, choose)
    assert program.wait() == 0
    assert decisions > 10
    assert not SGR.search(program.text), "NO_COLOR is set: no colour codes"
    assert "FINAL SCORE" in program.text
    (record,) = load(save)
    assert record["end"] == "normal"
    assert sum(1 for seat, _ in record["moves"] if seat == 0) == decisions
    from coexist_ai.cards import default_card_set
    from coexist_ai.play.gamefile import state_after
    final = state_after(record, default_card_set())
    assert final.is_over() and final.scores() == record["scores"]


def test_full_game_always_one_against_greedy(spawn, tmp_path):
    save = tmp_path / "g.jsonl"
    program = spawn("play", "--vs", "greedy", "--seed", 2, "--seat", 1, "--save", save)
    play_out(program, lambda moves: "1")
    assert program.wait() == 0
    (record,) = load(save)
    assert record["end"] == "normal" and record["bots"][1]["spec"] == "human"
    assert record["bots"][0]["spec"] == "greedy"


# -- bad input ------------------------------------------------------------------------

NOT_LEGAL = ["release forest-red-fox", "recruit H", "train C F", "discard C",
             "house sea-manatee", "apply", "pass"]


def test_bad_input_at_every_prompt(spawn, tmp_path):
    """At every prompt of a whole game: nonsense, an illegal move, numbers
    out of range, an ambiguous prefix and an empty line are refused, the same
    decision is asked again, and the game goes on to its normal end."""
    save = tmp_path / "bad.jsonl"
    program = spawn("play", "--vs", "random", "--seed", 9, "--save", save)
    rng = random.Random(9)
    made, phases, ambiguous = [], set(), 0
    while True:
        moves, found = decision(program)
        if moves is None:
            break
        prompt = found.group(0)
        phases.add(found.group(2))
        illegal = next(m for m in NOT_LEGAL if m not in moves)
        firsts = [m.split()[0] for m in moves]
        shared = [w for w in firsts if firsts.count(w) > 1 and w not in moves]
        expected = {"xyzzy": "is not a legal move or a command",
                    "house nothing-at-all": "is not a legal move or a command",
                    illegal: "is not a legal move now",
                    "0": "there is no move 0",
                    str(len(moves) + 1): f"there is no move {len(moves) + 1}",
                    "": ""}
        if shared:
            expected[shared[0]] = "is ambiguous"
            ambiguous += 1
        for text, message in expected.items():
            start = program.pos
            program.line(text)
            again = program.expect(re.escape(prompt))
            assert message in program.text[start:again.start()]
        i = rng.randrange(len(moves))
        made.append(moves[i])
        program.line(str(i + 1))
    assert program.wait() == 0
    (record,) = load(save)
    assert record["end"] == "normal"
    assert [m for seat, m in record["moves"] if seat == 0] == made
    assert {"choose", "recruit", "house", "center", "train"} <= phases, phases
    assert ambiguous > 5


def test_end_of_input_saves_the_game(spawn, tmp_path):
    save = tmp_path / "eof.jsonl"
    program = spawn("play", "--vs", "random", "--seed", 9, "--save", save)
    made = []
    for _ in range(6):
        moves, _ = decision(program)
        made.append(moves[-1])
        program.line(moves[-1])
    decision(program)
    program.send("\x04")                  # Ctrl-D: end of input
    program.expect("end of input: the game is saved to")
    assert program.wait() == 0
    (record,) = load(save)
    assert record["end"] == "unfinished"
    assert [m for seat, m in record["moves"] if seat == 0] == made


def test_the_person_chooses_a_fauna_and_the_rest_come_from_the_seed(spawn, tmp_path):
    faunas = []
    for seat in (0, 1):
        save = tmp_path / f"fauna{seat}.jsonl"
        program = spawn("play", "--vs", "random", "--seed", 9, "--seat", seat,
                        "--fauna", "savannah", "--save", save)
        decision(program)
        program.send("\x04")
        program.expect("end of input: the game is saved to")
        assert program.wait() == 0
        (record,) = load(save)
        assert record["faunas"][seat] == "savannah"
        faunas.append(record["faunas"])
    assert len(set(faunas[0])) == 2 and "savannah" not in faunas[0][1:]
    # the same seed gives the opponent the same fauna whichever seat you take
    assert faunas[0][1] == faunas[1][0]


def test_a_narrow_terminal_gets_lines_folded_to_its_width(spawn, tmp_path):
    program = spawn("play", "--players", 3, "--vs", "random", "--seed", 6,
                    "--save", tmp_path / "narrow.jsonl", cols=50)
    for _ in range(12):
        moves, _ = decision(program)
        program.line(moves[0])
    decision(program)
    program.send("\x04")
    program.expect("end of input: the game is saved to")
    lines = program.text.splitlines()
    assert any("capture limit" in line for line in lines)
    # the prompt line also holds what the person typed: the terminal wraps that
    too_long = [line for line in lines if len(line) > 50 and len(line.split()) > 1
                and not PROMPT.search(line)]
    assert not too_long


def test_ctrl_c_saves_the_game(spawn, tmp_path):
    save = tmp_path / "int.jsonl"
    program = spawn("play", "--vs", "random", "--seed", 3, "--save", save)
    decision(program)
    program.line("1")
    decision(program)
    time.sleep(0.3)     # as a person would: input() may still be on its way to read()
    program.send("\x03")
    program.expect("interrupted: the game is saved to")
    assert program.wait() == 0
    (record,) = load(save)
    assert record["end"] == "unfinished" and record["moves"][0][0] == 0


# -- undo, hint, quit and resume --------------------------------------------------------

def test_undo_goes_back_to_the_previous_decision(spawn, tmp_path):
    save = tmp_path / "undo.jsonl"
    program = spawn("play", "--vs", "greedy", "--seed", 4, "--save", save)
    first, _ = decision(program)
    program.line("undo")
    program.expect("Nothing to undo")
    program.expect(PROMPT)
    program.line("1")
    for _ in range(3):                     # a few decisions into the game
        moves, _ = decision(program)
        program.line("1")
    moves, found = decision(program)
    before = program.text[:found.start()]
    program.line("quit")
    assert program.wait() == 0
    (record,) = load(save)
    mine = [i for i, (seat, _) in enumerate(record["moves"]) if seat == 0]

    program = spawn("play", "--resume", save)
    decision(program)
    start = program.pos
    program.line("undo")
    moves_after_undo, found = decision(program, start=start)
    assert "Undone: " + record["moves"][mine[-1]][1] in program.text[start:found.start()]
    start = program.pos
    program.line("undo")
    _, found = decision(program, start=start)
    assert "Undone: " in program.text[start:found.start()]
    program.line("quit")
    assert program.wait() == 0
    (after,) = load(save)
    assert after["moves"] == record["moves"][:mine[-2]]
    assert moves_after_undo and before


def test_hint_names_a_legal_move_with_its_value(spawn, tmp_path):
    program = spawn("play", "--vs", "random", "--seed", 8, "--save", tmp_path / "h.jsonl",
                    "--hint-bot", "ismcts:iterations=400")
    moves, found = decision(program)
    program.line("hint")
    hint = program.expect(r"hint: ismcts:iterations=400 would play (\d+)\. (.+?) "
                          r"\(estimated value (\d\.\d\d)")
    number, move = int(hint.group(1)), hint.group(2)
    assert moves[number - 1] == move
    assert 0 <= float(hint.group(3)) <= 1
    program.expect(re.escape(found.group(0)))   # the same decision again
    program.line(str(number))
    while True:                                # a forced decision: one move
        moves, found = decision(program)
        # (which decisions come depends on the hint bot's move: the deal
        # is one where first moves lead to a forced one before the end)
        assert moves is not None, "the game ended before a forced decision: pick another seed"
        if len(moves) == 1:
            break
        program.line("1")
    program.line("hint")
    program.expect("hint: only one legal move: " + re.escape(moves[0]))
    program.line("help")
    program.expect(r"undo +take back your previous decision")
    program.line("quit")
    assert program.wait() == 0


def test_quit_then_resume_continues_the_same_position(spawn, tmp_path):
    save = tmp_path / "resume.jsonl"
    program = spawn("play", "--vs", "random", "--players", 3, "--seed", 8, "--save", save)
    for _ in range(12):
        moves, _ = decision(program)
        program.line(str(min(2, len(moves))))
    start = program.pos
    moves, found = decision(program)
    screen = program.text[start:found.end()]
    program.line("quit")
    program.expect("Continue it with: coexist-ai play --resume")
    assert program.wait() == 0
    (saved,) = load(save)
    assert saved["end"] == "unfinished" and saved["players"] == 3

    program = spawn("play", "--resume", save)
    program.expect("continuing a saved game")
    start = program.pos
    moves2, found2 = decision(program)
    board = lambda s: [line for line in s[s.index("Coexist, 3 players | Round"):].splitlines()
                       if not line.startswith("You are seat 0")]    # the first screen's note
    assert board(program.text[start:found2.end()]) == board(screen)
    program.line("1")
    play_out(program, lambda m: "1")
    assert program.wait() == 0
    (final,) = load(save)
    assert final["end"] == "normal"
    assert final["moves"][:len(saved["moves"])] == saved["moves"]


def test_resume_refuses_a_finished_game_and_new_game_options(spawn, tmp_path):
    program = spawn("play", "--vs", "random", "--seed", 1, "--save", tmp_path / "f.jsonl")
    play_out(program, lambda m: "1")
    assert program.wait() == 0
    program = spawn("play", "--resume", tmp_path / "f.jsonl")
    program.expect("is over \\(end 'normal'\\): nothing to continue")
    assert program.wait() == 2
    program = spawn("play", "--resume", tmp_path / "f.jsonl", "--seed", 3)
    program.expect("--seed: the saved game already sets these")
    assert program.wait() == 2


# -- replay -------------------------------------------------------------------------------

@pytest.fixture
def duel_file(tmp_path):
    """Two games of random against greedy, written by the tournament runner."""
    from coexist_ai import tournament as tm
    from coexist_ai.schedule import Entrant
    t = tm.Tournament("duel", [Entrant("random", "random"), Entrant("greedy", "greedy")],
                      2, "round-robin", 1, 7)
    path = tmp_path / "duel.jsonl"
    tm.run(t, str(path), jobs=1, progress=False, echo=lambda *a: None)
    return path


def test_replay_steps_forwards_and_backwards(spawn, duel_file):
    record = load(duel_file)[1]
    moves, n = record["moves"], len(record["moves"])
    program = spawn("replay", duel_file, "--game", 2)
    program.expect(f"game 2 of 2 .* move 0 of {n}")
    program.expect(re.escape(f"next move (1): seat {moves[0][0]} "))
    program.line("n")
    program.expect(f"move 1 of {n}")
    program.expect(re.escape(f"played {moves[0][1]}"))
    program.line("")                         # Enter: next
    program.expect(f"move 2 of {n}")
    program.expect(re.escape(f"last move (2): seat {moves[1][0]}"))
    program.line("p")
    program.expect(f"move 1 of {n}")
    program.line("g 40")
    program.expect(f"move 40 of {n}")
    program.expect(re.escape(f"last move (40): seat {moves[39][0]} "
                             f"({record['entrants'][moves[39][0]]}) played {moves[39][1]}"))
    program.line("g 99999")
    program.expect("N is a move number from 0 to")
    program.line("e")
    program.expect(f"move {n} of {n}")
    found = program.expect(r"FINAL SCORE\n.*\n +1 +seat (\d)")
    assert record["ranks"][int(found.group(1))] == 1
    for seat, total in enumerate(record["scores"]):
        assert re.search(rf"seat {seat} .* {total} +\w+", program.text[found.start():])
    program.line("n")
    program.expect("at the end of the game")
    program.line("p")
    program.expect(f"move {n - 1} of {n}")
    program.line("q")
    assert program.wait() == 0


def test_replay_of_a_saved_unfinished_play(spawn, tmp_path):
    save = tmp_path / "u.jsonl"
    program = spawn("play", "--vs", "random", "--seed", 12, "--save", save)
    for _ in range(5):
        decision(program)
        program.line("1")
    decision(program)
    program.send("\x04")
    assert program.wait() == 0
    n = len(load(save)[0]["moves"])
    program = spawn("replay", save)
    program.expect(f"move 0 of {n}")
    program.line("e")
    program.expect("left unfinished")
    # Ctrl-D only once the prompt is up: typed ahead, while the terminal is
    # still in cooked mode, the kernel turns it into a NUL byte when
    # readline switches to raw mode, and nothing ends the input.
    program.expect(REPLAY_PROMPT)
    program.send("\x04")                     # end of input leaves too
    assert program.wait() == 0


def test_replay_to_end_and_move_without_a_terminal(duel_file):
    import subprocess
    run = lambda *a: subprocess.run([*PYTHON, "-c", CLI, "replay", str(duel_file), *a],
                                    capture_output=True, text=True, cwd=ROOT,
                                    env=package_env(), timeout=60)
    record = load(duel_file)[0]
    end = run("--to-end")
    assert end.returncode == 0 and "FINAL SCORE" in end.stdout
    assert not SGR.search(end.stdout) and "\x1b" not in end.stdout   # stdout is a pipe
    move = run("--move", "3")
    assert f"move 3 of {len(record['moves'])}" in move.stdout
    assert f"last move (3): seat {record['moves'][2][0]}" in move.stdout
    bad = run("--move", "100000")
    assert bad.returncode == 2 and "the game has moves 0 to" in bad.stderr


# -- colour ------------------------------------------------------------------------------

def test_colour_on_a_terminal_and_plain_with_no_color(spawn, tmp_path):
    program = spawn("play", "--vs", "random", "--seed", 1, "--save", tmp_path / "c.jsonl",
                    colour=True)
    decision(program)
    assert SGR.search(program.text), "a terminal without NO_COLOR gets colour"
    program.line("quit")
    assert program.wait() == 0
    program = spawn("play", "--resume", tmp_path / "c.jsonl", "--color", "never", colour=True)
    decision(program)
    program.line("quit")
    assert program.wait() == 0
    assert not SGR.search(program.text)


def test_a_searching_bot_shows_that_it_thinks(spawn, tmp_path):
    """An ISMCTS opponent moving first: a live 'is thinking' line, then its
    moves, each on its own line, before the person's first decision."""
    save = tmp_path / "t.jsonl"
    program = spawn("play", "--seat", 1, "--time", 0.3, "--seed", 3, "--save", save)
    program.expect(r"seat 0 \(ismcts:turn_time=0\.3\) is thinking [|/\\-] 0\.\ds")
    decision(program)
    program.line("quit")
    assert program.wait() == 0
    (record,) = load(save)
    bot_moves = [m for seat, m in record["moves"] if seat == 0]
    assert bot_moves and record["bots"][0]["spec"] == "ismcts:turn_time=0.3"
    for move in bot_moves:
        assert f"seat 0 (ismcts:turn_time=0.3): {move}\n" in program.text
    assert "\x1b" not in program.text      # NO_COLOR: no control codes at all


# -- line editing, refusals that explain, the tie-break ----------------------------------

UP = "\x1b[A"


def test_history_and_line_editing_at_the_prompt(spawn, tmp_path):
    """readline at the prompt: the up arrow brings the previous line back
    (here a refused one, refused again), it can be edited (backspaces, new
    text), and Tab completes a move's word."""
    save = tmp_path / "rl.jsonl"
    program = spawn("play", "--vs", "greedy", "--seed", 3, "--save", save)
    moves, found = decision(program)
    assert {m.split()[0] for m in moves} & {"house", "hint"} == {"house"}
    program.send("hou\t")                        # Tab completes the word
    program.expect(r"house $")
    program.send("\x15")                          # Ctrl-U: clear the line
    program.line("xyzzy")
    program.expect("'xyzzy' is not a legal move or a command")
    program.expect(re.escape(found.group(0)))
    program.send(UP + "\r")                      # the same line again
    program.expect("'xyzzy' is not a legal move or a command")
    program.expect(re.escape(found.group(0)))
    program.send(UP + "\x7f" * 5 + "1\r")        # recalled, erased, replaced
    decision(program)
    program.send("\x04")                          # end of input
    program.expect("end of input: the game is saved to")
    assert program.wait() == 0
    (record,) = load(save)
    assert record["moves"][0] == [0, moves[0]]


def test_refusals_say_why_and_what_was_meant(spawn, tmp_path):
    """At a real prompt: a move that is not legal gets its reason, a near
    miss the move it resembles, with its number."""
    program = spawn("play", "--vs", "greedy", "--seed", 3, "--save", tmp_path / "r.jsonl")
    moves, found = decision(program)
    program.line("recruit S")
    program.expect(re.escape("'recruit S' is not a legal move now: S (Survival) is no "
                             "caretaker: recruit C, F, P or H"))
    program.expect(re.escape(found.group(0)))
    house = next(m for m in moves if m.startswith("house "))
    tail = house.split("-")[-1]
    typo = "hous " + tail[:-2] + tail[-1] + tail[-2]          # two letters swapped
    program.line(typo)
    program.expect(re.escape(f"did you mean {moves.index(house) + 1}. {house}?"))
    program.expect(re.escape(found.group(0)))
    program.line("center")
    program.expect(re.escape("'center' is not a legal move now: on a first turn only "
                             "Mission is open"))
    program.line("quit")
    assert program.wait() == 0


def _tied_game():
    """A 2-player random game whose totals tie and whose Survival tokens
    break the tie against seat 1, which makes the last move: (deal seed,
    moves in notation, totals, tracks)."""
    from coexist_ai import State
    for deal in range(1000):
        st, rng, moves = State.new(players=2, seed=deal), random.Random(deal), []
        while not st.is_over():
            action = rng.choice(st.legal_actions())
            moves.append([st.current_player, st.move_name(action)])
            st.apply(action)
        totals, tracks = st.scores(), [s.track for s in st.seats]
        if totals[0] == totals[1] and tracks[0] < tracks[1] and moves[-1][0] == 1:
            return deal, moves, totals, tracks
    raise AssertionError("no tied game in 1000 deals")


def test_the_final_table_explains_a_tie(spawn, tmp_path):
    """A saved game one move from its end, tied on points: the person's last
    move ends it, and the final table and the verdict say the tie was
    broken by Survival tokens."""
    from coexist_ai.cards import default_card_set
    from coexist_ai.play import gamefile
    cs = default_card_set()
    deal, moves, totals, tracks = _tied_game()
    record, _ = gamefile.new_record(cs, ["random", "human"], [1, None], deal, ["random", "human"])
    record["moves"], record["times"] = moves[:-1], [0.0] * (len(moves) - 1)
    gamefile.finish_record(record, gamefile.state_after(record, cs))
    save = tmp_path / "tie.jsonl"
    gamefile.save_game(str(save), [], 0, record)
    program = spawn("play", "--resume", save)
    decision(program)
    program.line(moves[-1][1])
    t = totals[0]
    program.expect(re.escape(f"tie: {t}-{t}, broken by Survival tokens: {tracks[0]} against "
                             f"{tracks[1]}, fewer first: seat 0 (random), then seat 1 (you)"))
    program.expect(re.escape(f"You finish 2nd of 2. ({t}-{t}, broken by Survival tokens: "
                             f"{tracks[0]} against {tracks[1]}"))
    assert program.wait() == 0
