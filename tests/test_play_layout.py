"""The terminal game's screen fits the terminal: a 2-player game in 80x24,
a 4-player one in 120x45, the header (round, draw pile, end trigger) always
among the visible rows. Checked on the real program through a
pseudo-terminal, its output fed to a terminal emulator (pyte) that keeps
exactly the rows a person would see, and in process over every position
of whole games."""
import re

import pyte
import pytest
from test_play_pty import PROMPT, decision, load, spawn  # noqa: F401 (a fixture)

from coexist_ai import State
from coexist_ai.bots import make_bot
from coexist_ai.play.compact import compact_screen
from coexist_ai.play.wrap import visible_length

HEADER = re.compile(r"^(Coexist, \d players \| )?(Round \d+|Game over after \d+ rounds) \| "
                    r"draw pile (\d+) \| discard \d+ \| supply C\d+ F\d+ P\d+ H\d+ S\d+")


class Terminal:
    """What a terminal of the program's size shows of its output."""

    def __init__(self, program, cols, rows):
        self.program, self.fed = program, 0
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.Stream(self.screen)

    def rows(self):
        raw = self.program.raw
        self.stream.feed(raw[self.fed:])
        self.fed = len(raw)
        return [row.rstrip() for row in self.screen.display]


def check_screen(rows, players, end_triggered=None):
    """The header, the Mission board, every seat and the prompt are on the
    screen; returns the header's match."""
    shown = "\n".join(rows)
    headers = [HEADER.match(r) for r in rows if HEADER.match(r)]
    assert headers, f"no header on screen:\n{shown}"
    assert "Mission board" in shown, shown
    for seat in range(players):
        assert re.search(rf"^[> ] seat {seat} \(", shown, re.M), f"seat {seat} missing:\n{shown}"
    prompt_rows = [i for i, r in enumerate(rows) if PROMPT.search(r + " ")]
    assert prompt_rows, shown
    if end_triggered is not None:
        assert ("THE END IS TRIGGERED" in shown) == end_triggered, shown
    return headers[-1]


@pytest.mark.parametrize("players, cols, rows, seed", [(2, 80, 24, 27), (4, 120, 45, 22)])
def test_every_screen_of_a_game_fits_the_terminal(spawn, tmp_path, players, cols, rows, seed):
    """A whole game against greedy, without clearing the screen (no
    colour): at every prompt the last `rows` rows of output hold the whole
    screen, header first; the round and the draw pile shown are the
    position's, and the end trigger shows from the move that triggers it."""
    from coexist_ai.cards import packaged_card_set
    from coexist_ai.play.gamefile import replay_states
    save = tmp_path / "fit.jsonl"
    # the seeds are games of reconstructed-v1 long enough (over 20 prompts)
    # to reach every kind of screen; the layout does not depend on the set
    cards = "reconstructed-v1"
    # the last seat: it plays after a trigger by any other seat in the round
    you = players - 1
    program = spawn("play", "--players", players, "--vs", "greedy", "--seed", seed,
                    "--seat", you, "--save", save, "--cards", cards, cols=cols, rows=rows)
    terminal = Terminal(program, cols, rows)
    seen = []
    while True:
        moves, found = decision(program)
        if moves is None:
            break
        header = check_screen(terminal.rows(), players)
        seen.append((header.group(2), int(header.group(3)),
                     "THE END IS TRIGGERED" in "\n".join(terminal.rows())))
        program.line("1")
    assert program.wait() == 0
    assert "FINAL SCORE" in "\n".join(terminal.rows())
    # what the headers said, against the positions of the record
    (record,) = load(save)
    states = replay_states(record, packaged_card_set(cards))
    asked = [states[i] for i, (seat, _) in enumerate(record["moves"]) if seat == you]
    assert len(asked) == len(seen) > 20
    for st, (round_text, pile, end) in zip(asked, seen):
        assert round_text == f"Round {st.rounds + 1}"
        assert pile == st.draw_pile_size()
        assert end == st.end_triggered
    assert any(end for _, _, end in seen), "the game's last round was seen"


def test_a_refusal_or_a_hint_never_scrolls_the_header_away(spawn, tmp_path):
    """Refusals and hints one after another at 80x24: the header stays on
    screen (the screen is drawn again with the message at its foot)."""
    program = spawn("play", "--vs", "greedy", "--seed", 21, "--save", tmp_path / "m.jsonl",
                    "--hint-bot", "greedy", cols=80, rows=24)
    terminal = Terminal(program, 80, 24)
    for _ in range(6):
        decision(program)
        program.line("1")
    decision(program)
    for text in ["xyzzy", "hint", "recruit S", "hint", "hous zebar", "moves", "help", "hint"]:
        start = program.pos
        program.line(text)
        program.expect(PROMPT)
        if text in ("moves", "help"):
            continue        # listings on request scroll, as a person asked
        rows = terminal.rows()
        check_screen(rows, 2)
        assert program.text[start:].strip()
    program.line("quit")
    assert program.wait() == 0


# -- in process: every position of whole games ---------------------------------------

def _positions(players, seeds):
    for seed in seeds:
        for spec in ("greedy", "random"):
            st = State.new(players=players, seed=seed)
            bots = [make_bot(spec, seed + p) for p in range(players)]
            for p, bot in enumerate(bots):
                bot.new_game(p, players)
            while not st.is_over():
                if st.current_player == players - 1:    # sees every trigger
                    yield st
                st.apply(bots[st.current_player].choose(st.observation()))


@pytest.mark.parametrize("players, cols, rows", [(2, 80, 24), (3, 100, 35), (4, 120, 45)])
def test_the_compact_screen_fits_every_position(players, cols, rows):
    """At every decision of the last seat in whole games: at most rows-1 lines
    (the prompt's row free) of at most `cols` columns, the header first,
    every animal on every board named, and at least one row of moves."""
    you = players - 1
    names = ["ismcts:time=1"] * (players - 1) + ["you"]
    recent = [(p, ["house forest-red-fox", "end"], 1.0) for p in range(players)]
    count = triggered = 0
    for st in _positions(players, range(3)):
        obs = st.observation(you)
        moves = obs.legal_moves()
        lines = compact_screen(obs, moves, names, you, recent, width=cols, height=rows)
        text = "\n".join(lines)
        assert len(lines) <= rows - 1 and max(map(visible_length, lines)) <= cols, text
        assert HEADER.match(lines[0]), text
        for seat in obs.seats:
            for animal in seat.board:
                assert animal.card.name in text
        assert re.search(r"(^ +1\. |\[1\] )", text, re.M), text
        assert ("THE END IS TRIGGERED" in "\n".join(lines[:2])) == obs.end_triggered
        count += 1
        triggered += obs.end_triggered
    assert count > 100 and triggered
