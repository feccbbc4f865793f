"""The compact screen: the whole public position, the decision and its
moves, fitted to the terminal. A 2-player game fits 80x24 and a 4-player
one 120x45 in the positions games reach (tests/test_play_layout.py
measures), header first, so the round, the draw pile and the end trigger
are always on screen.

Top to bottom: the header (round, draw pile, discard pile, supply, the end
trigger), the Mission board, every seat (score, track, capture limit,
Center, pool, animals with what they carry and still need, released and
protected animals, permanent effects), the latest turns, the decision, the
moves, then notes (a refusal, a hint). When rows run short, the latest
turns go first, then moves beyond one row (the rest: `moves`). Cards are
named in moves by the shortest tail of their id that is unique
(`gazelle`), which is also what may be typed.

Drawn from an Observation only, like the detail view (render.py).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from coexist_ai.explain import effect_text, short_ids
from coexist_ai.play.render import (Names, _View, decision_text, owned_effects,
                                    seat_name, tokens_text)
from coexist_ai.play.style import Style
from coexist_ai.play.wrap import fold_line, visible_length
from coexist_ai.vocabulary import TRACK_POINTS, TRACK_SIZE

if TYPE_CHECKING:
    from coexist_ai._engine import Observation, Position
    from coexist_ai.cards import CardSet
    from coexist_ai.play.gamefile import TurnRun
    from coexist_ai.views import SeatView

WIDE = 100          # from this width on, tokens and tracks are spaced out
NAME_MAX = 18       # a seat's label (a bot spec) is cut to this


def compact_screen(obs: Observation, moves: Sequence[str], names: Names = None,
                   you: int | None = None, recent: Sequence[TurnRun] = (),
                   style: Style | None = None, width: int = 80, height: int | None = None,
                   notes: Sequence[str] = ()) -> list[str]:
    """The screen's lines: at most `width` columns each, and at most
    `height - 1` lines with the prompt's row left free (height None: no
    limit, every move listed). moves: the legal moves in notation;
    recent: [(seat, [move, ...], seconds)], oldest first; notes: lines
    shown under the moves."""
    style = style or Style(False)
    v = _View(obs)
    top = _top(v, names, you, style, width, brief=False)
    latest = [_latest(v.cs, run, names, you, style) for run in recent]
    decision = [] if obs.is_over() else [_decision(obs, names, you, style)]
    def fold(lines: Iterable[str]) -> list[str]:
        return [part for line in lines for part in fold_line(line, width)]
    top, latest, decision, notes = fold(top), fold(latest), fold(decision), fold(notes)
    listing = move_lines(v.cs, moves, width)
    if height is None:
        return top + latest + decision + listing + notes
    room = height - 1 - len(top) - len(decision) - len(notes)
    if room < 1:        # the last resort: two animals a row, without card text
        top = fold(_top(v, names, you, style, width, brief=True))
        room = height - 1 - len(top) - len(decision) - len(notes)
    keep_latest = 1 if latest and room >= 2 else 0
    move_rows = min(len(listing), max(1, room - keep_latest)) if moves else 0
    latest_rows = min(len(latest), max(0, room - move_rows))
    shown = latest[len(latest) - latest_rows:] if latest_rows else []
    return top + shown + decision + move_lines(v.cs, moves, width, move_rows) + notes


# -- pieces -----------------------------------------------------------------------

def _top(v: _View, names: Names, you: int | None, style: Style, width: int,
         brief: bool) -> list[str]:
    top = _header(v, style, width) + _mission(v, style, width)
    for p in range(v.n):
        top += _seat(v, p, names, you, style, width, brief)
    return top


def _tokens(counts: Iterable[int], style: Style, wide: bool, empty: str = "-") -> str:
    text = tokens_text(counts, style, empty)
    return text if wide else text.replace(" ", "")


def _track(track: int, wide: bool) -> str:
    cells = ["S" if i < track else (str(TRACK_POINTS[i]) if TRACK_POINTS[i] else "^")
             for i in range(TRACK_SIZE)]
    return "[" + (" " if wide else "").join(cells) + "]"


def _header(v: _View, style: Style, width: int) -> list[str]:
    obs = v.obs
    supply = " ".join(style.token(c, f"{c}{n}") for c, n in obs.supply._asdict().items())
    if obs.is_over():
        where = f"Game over after {obs.rounds} rounds"
    else:
        where = f"Round {obs.rounds + 1}"
    head = (f"{where} | draw pile {obs.draw_pile_size()} | discard "
            f"{len(obs.discard_pile)} | supply {supply}")
    if width >= WIDE:
        head = f"Coexist, {v.n} players | " + head
    if not obs.end_triggered or obs.is_over():
        return [style.bold(head)]
    last = (obs.first_player - 1) % v.n
    end = style.error(f"THE END IS TRIGGERED: the game ends after seat {last}'s turn")
    if visible_length(head) + 3 + visible_length(end) <= width:
        return [style.bold(head) + " | " + end]
    return [style.bold(head), end]


def _mission(v: _View, style: Style, width: int) -> list[str]:
    wide = width >= WIDE
    cards = v.obs.mission
    animals = [c for c in cards if c.is_animal]
    keepers = ", ".join(style.token(str(c.colour)) for c in cards if not c.is_animal)
    keepers = f"| caretaker cards: {keepers}" if keepers else ""
    title = style.bold("Mission board")
    if not animals:
        return [f"{title}: {'empty' if not cards else keepers[2:]}"]
    rows = [[title, "fauna" if wide else "", "cap", "cons", "needs", "protect", "effect"]]
    for card in animals:
        rows.append([card.name, card.fauna if wide else card.fauna[:3],
                     str(card.capture), str(card.conservation),
                     _tokens(card.needs, style, wide), _tokens(card.protect, style, wide),
                     effect_text(card.effect)])
    lines = _table(rows, "llrrlll", width)
    if keepers:         # the heading row is short: the caretaker cards join it
        joined = lines[0] + " " + keepers
        if visible_length(joined) <= width:
            lines[0] = joined
        else:
            lines.append(keepers[2:])
    return lines


def _seat(v: _View, p: int, names: Names, you: int | None, style: Style, width: int,
          brief: bool) -> list[str]:
    wide = width >= WIDE
    obs, seat = v.obs, v.seats[p]
    fauna, parts = v.faunas[p], seat.score
    mover = p == obs.current_player and not obs.is_over()
    label = seat_name(p, _cut_names(names), you, style)
    head = (f"{'>' if mover else ' '} {label} {fauna}: score {style.bold(parts.total)} = "
            f"{parts.conservation} released + {parts.reputation} reputation + "
            f"{parts.specialty} {fauna}")
    goal = v.cs.rules["release_goal"]
    short = short_ids(v.cs)
    released = f"released {len(seat.released)}/{goal}"
    if seat.released:
        released += ": " + ", ".join(short[c.id] for c in seat.released)
    facts = [f"track {_track(seat.track, wide)} capture limit {seat.capture_limit}",
             f"Center {seat.spaces_used}/{seat.capacity}",
             f"pool {_tokens(seat.pool, style, wide, empty='none')}", released]
    if seat.protected:
        facts.append("protected: " + ", ".join(short[c.id] for c in seat.protected))
    effects = owned_effects(seat)
    if effects:
        facts.append("effects: " + "; ".join(effects))
    animals = _brief_animals(seat, style, width) if brief else _animals(seat, style, width)
    return [head] + _packed(facts, width, "  ") + animals


def _packed(parts: Sequence[str], width: int, indent: str) -> list[str]:
    """Parts joined by ' | ' on as few lines as fit `width`."""
    lines = [indent + parts[0]]
    for part in parts[1:]:
        if visible_length(lines[-1]) + 3 + visible_length(part) <= width:
            lines[-1] += " | " + part
        else:
            lines.append(indent + part)
    return lines


def _decision(obs: Position, names: Names, you: int | None, style: Style) -> str:
    seat = obs.current_player
    who = "You" if seat == you else seat_name(seat, _cut_names(names), you, style)
    return f"{who} to play: {decision_text(obs, style)}"


def _cut_names(names: Names) -> Names:
    if not names:
        return names
    return [n if len(n) <= NAME_MAX else n[:NAME_MAX - 1] + "~" for n in names]


def _animals(seat: SeatView, style: Style, width: int) -> list[str]:
    wide = width >= WIDE
    rows = []
    for animal in seat.board:
        card = animal.card
        status = (style.paint("READY", "green", "bold") if animal.complete
                  else "needs " + _tokens(animal.needs, style, wide))
        rows.append(["  " + card.name, f"cons {card.conservation}",
                     "on " + _tokens(animal.on, style, wide), status,
                     ("protect " if wide else "prot ") + _tokens(card.protect, style, wide),
                     effect_text(card.effect)])
    return _table(rows, "llllll", width)


def _brief_animals(seat: SeatView, style: Style, width: int) -> list[str]:
    """What each animal carries and still needs, as many a row as fit."""
    parts = [f"{a.card.name} {a.card.conservation}: on {_tokens(a.on, style, False)} "
             + (style.paint("READY", "green", "bold") if a.complete
                else "needs " + _tokens(a.needs, style, False)) for a in seat.board]
    return _packed(parts, width, "  ") if parts else []


def _latest(card_set: CardSet, run: TurnRun, names: Names, you: int | None,
            style: Style) -> str:
    seat, moves, seconds = run
    shown = [short_move(card_set, m) for m in moves]
    timing = f"  ({seconds:.1f} s)" if seconds is not None and seat != you else ""
    return f"  {seat_name(seat, _cut_names(names), you, style)}: {', '.join(shown)}{timing}"


# -- moves ------------------------------------------------------------------------

def short_move(card_set: CardSet, move: str) -> str:
    """A move with its card ids cut to their unique tails ('house gazelle')."""
    short = short_ids(card_set)
    return " ".join(short.get(w, w) for w in move.split())


def move_lines(card_set: CardSet, moves: Sequence[str], width: int,
               rows: int | None = None) -> list[str]:
    """The numbered moves: in columns when they fit in `rows` (None: any
    number); else grouped by what they share ('assign C: [4] zebra [5]
    owl'), which takes about a third of the room; cut to `rows` if even
    that is too long, the last row saying how many more there are."""
    items = [f"{i:>2}. {short_move(card_set, m)}" for i, m in enumerate(moves, 1)]
    columns = _columns(items, width)
    if rows is None or len(columns) <= rows:
        return columns
    return _grouped(card_set, moves, width, rows)


def _columns(items: Sequence[str], width: int) -> list[str]:
    """Items in columns, numbered down each column."""
    if not items:
        return []
    cell = max(len(i) for i in items) + 2
    per_row = max(1, (width - 1) // cell)
    rows = -(-len(items) // per_row)
    return [" " + "".join(items[i].ljust(cell) for i in range(r, len(items), rows)).rstrip()
            for r in range(rows)]


def _grouped(card_set: CardSet, moves: Sequence[str], width: int, rows: int) -> list[str]:
    words: list[tuple[str, int]] = []     # (text, moves it lists)
    last = None
    for i, move in enumerate(moves, 1):
        parts = short_move(card_set, move).split()
        head, tail = " ".join(parts[:-1]), parts[-1]
        if head != last:
            if last is not None:
                words.append(("|", 0))
            if head:
                words.append((head + ":", 0))
            last = head
        words.append((f"[{i}] {tail}", 1))
    lines: list[list[str]] = []
    line: list[str] = []
    listed = 0
    for text, count in words:
        if line and len(" ".join(line + [text])) + 1 > width:
            lines.append(line)
            line = []
        line.append(text)
        listed += count
    lines.append(line)
    if len(lines) > rows:
        lines = lines[:rows]
        listed = sum(1 for row in lines for text in row if text.startswith("["))

        def more() -> str:
            return f"+{len(moves) - listed} more: type moves"
        while len(" ".join(lines[-1] + [more()])) + 1 > width and lines[-1]:
            listed -= lines[-1].pop().startswith("[")
        lines[-1].append(more())
    return [" " + " ".join(row) for row in lines]


def _table(rows: Sequence[Sequence[str]], aligns: str, width: int) -> list[str]:
    """Rows of cells in columns as wide as their widest cell (colour codes
    take no room; empty columns vanish). When that is wider than `width`,
    the columns from the right lose their alignment, one by one, until
    the rows fit."""
    if not rows:
        return []
    n = max(len(r) for r in rows)
    widths = [max((visible_length(r[i]) for r in rows if i < len(r)), default=0)
              for i in range(n)]
    for aligned in range(n, -1, -1):
        lines = [_row(row, widths, aligns, aligned) for row in rows]
        if max(visible_length(line) for line in lines) <= width:
            break
    return lines


def _row(row: Sequence[str], widths: Sequence[int], aligns: str, aligned: int) -> str:
    cells = []
    for i, text in enumerate(row):
        if not widths[i]:
            continue
        pad = " " * (widths[i] - visible_length(text)) if i < aligned else ""
        if text or pad:
            cells.append(pad + text if aligns[i] == "r" else text + pad)
    return " ".join(cells).rstrip()
