"""The public position as text: what a person at the table can see.

`render_position` takes an Observation, never a State: an observation has
the draw pile's order erased, so nothing drawn here can give it away (only
the pile's size is shown). Everything else is public and is shown: the
Mission board, every Conservation Center (animals, what is on them, what
they still need, the caretaker pool, spaces used of capacity), every
Reputation track (capture limit, points it still gives), the supply, each
seat's score so far and specialty, the decision in front of the seat to move.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from coexist_ai import _engine
from coexist_ai.explain import SPECIALTY, effect_text, tie_breaks
from coexist_ai.play.style import Style
from coexist_ai.vocabulary import TOKENS, TRACK_POINTS, TRACK_SIZE

if TYPE_CHECKING:
    from coexist_ai.cards import Card, CardSet
    from coexist_ai.views import AnimalView, SeatView, TurnView

Names = Sequence[str] | None          # a label per seat, or none
Recent = Sequence[tuple[int, str]]    # (seat, move in notation), oldest first

# permanent effects other than start_recruit (shown in release order apart)
PERMANENT = ("capture_bonus", "extra_space", "double_protect", "skip_survival",
             "train_one_to_one")


PHASE_HELP = {
    "start": "start of turn",
    "choose": "choose an option: recruit, house, center or train",
    "recruit": "Mission A: recruit more caretaker cards, or end",
    "house": "Mission B: house more animals, or end",
    "center": "Center: protect, assign, move, unassign, release, or end",
    "train": "Training: trade pool caretakers (train X Y), then end",
    "effect": "the effect of a released animal",
    "discard": "end of turn, over capacity: discard until within capacity",
    "over": "the game is over",
}


def tokens_text(counts: Iterable[int], style: Style, empty: str = "-") -> str:
    """`C2 F1 S1` from counts in the order C F P H S (zeros left out)."""
    parts = [style.token(TOKENS[i], f"{TOKENS[i]}{v}") for i, v in enumerate(counts) if v]
    return " ".join(parts) if parts else empty


def track_text(track: int, style: Style) -> str:
    """The spaces, left to right: S covered, a digit (points) or ^ (capture)."""
    cells = []
    for i in range(TRACK_SIZE):
        if i < track:
            cells.append(style.token("S", "S"))
        else:
            cells.append(str(TRACK_POINTS[i]) if TRACK_POINTS[i] else "^")
    return "[" + " ".join(cells) + "]"


def card_label(card: Card, style: Style) -> str:
    return f"{style.bold(card.name)} [{card.id}]"


def animal_facts(card: Card, style: Style) -> str:
    facts = [f"needs {tokens_text(card.needs, style)}",
             f"protect {tokens_text(card.protect, style)}"]
    if card.effect:
        facts.append(f"effect: {effect_text(card.effect)}")
    return " | ".join(facts)


class _View:
    """The pieces of an Observation the drawing needs, read once."""

    def __init__(self, obs: _engine.Observation) -> None:
        if not isinstance(obs, _engine.Observation):
            # a State holds the draw pile's real order: never draw from one
            raise TypeError(f"render_position needs an Observation, not "
                            f"{type(obs).__name__} (use state.observation(seat))")
        self.obs, self.cs = obs, obs.card_set
        self.seats = obs.seats
        self.turn = obs.turn
        self.n = obs.num_players
        self.faunas = [str(seat.fauna) for seat in self.seats]


def seat_name(seat: int, names: Names, you: int | None, style: Style) -> str:
    label = names[seat] if names else f"seat {seat}"
    text = f"seat {seat} ({'you' if seat == you else label})"
    return style.seat(seat, text)


def render_position(obs: _engine.Observation, names: Names = None, you: int | None = None,
                    recent: Recent = (), style: Style | None = None,
                    title: str | None = None) -> str:
    """The whole public position as text.

    obs: an Observation. names: a label per seat (bot spec...). you: the
    person's seat (marked "you"), or None. recent: [(seat, move)] shown as
    the latest moves. title: a first line (the default names the card set).
    """
    style = style or Style(False)
    v = _View(obs)
    lines = [_header(v, style, title), ""]
    lines += _mission(v, style)
    lines.append("")
    for p in range(v.n):
        lines += _seat(v, p, names, you, style)
        lines.append("")
    if recent:
        lines += _recent(recent, v, names, you, style)
        lines.append("")
    lines += _decision(v, names, you, style)
    return "\n".join(lines)


def _header(v: _View, style: Style, title: str | None) -> str:
    obs = v.obs
    first = title or f"Coexist - card set {v.cs.display_name}"
    supply = "  ".join(style.token(colour, f"{colour} {count}")
                       for colour, count in obs.supply._asdict().items())
    discards = len(obs.discard_pile)
    status = (f"{v.n} players | round {obs.rounds + 1} | draw pile "
              f"{obs.draw_pile_size()} cards | discard pile {discards} cards")
    if obs.is_over():
        status = f"{v.n} players | {obs.rounds} rounds played | game over"
    lines = [style.bold(first), status, f"Supply: {supply}"]
    if obs.end_triggered and not obs.is_over():
        last = (obs.first_player - 1) % v.n
        lines.append(style.error(f"The end is triggered: the game ends after seat {last}'s turn."))
    return "\n".join(lines)


def _mission(v: _View, style: Style) -> list[str]:
    lines = [style.bold("MISSION BOARD")]
    mission = v.obs.mission
    if not mission:
        lines.append("  (empty)")
    for i, card in enumerate(mission, 1):
        if card.is_animal:
            lines.append(f"  {i}. {card_label(card, style)} {card.fauna} animal, "
                         f"capture {card.capture}, conservation {card.conservation}")
            lines.append(f"       {animal_facts(card, style)}")
        else:
            lines.append(f"  {i}. caretaker card {style.token(str(card.colour))} "
                         f"[{card.id}]")
    return lines


def owned_effects(seat: SeatView) -> list[str]:
    """The permanent effects a seat owns, in words."""
    owned = [c.effect for c in seat.released if c.effect and c.effect.kind in PERMANENT]
    starts = [f"+1 {colour} each turn start" for colour in seat.effects.start_recruit]
    return starts + [effect_text(e) for e in owned]


def _seat(v: _View, p: int, names: Names, you: int | None, style: Style) -> list[str]:
    obs, seat = v.obs, v.seats[p]
    fauna, parts = v.faunas[p], seat.score
    mover = style.bold("  <- to play") if p == obs.current_player and not obs.is_over() else ""
    head = f"{seat_name(p, names, you, style)} | {fauna} specialty: {SPECIALTY[fauna]}{mover}"
    score = (f"  score so far {style.bold(parts.total)} = released "
             f"{parts.conservation} + reputation {parts.reputation} + "
             f"{fauna} {parts.specialty}")
    track = seat.track
    rep = (f"  reputation {track_text(track, style)} {track}/{TRACK_SIZE} S | capture "
           f"limit {seat.capture_limit} | still gives {parts.reputation} points")
    pool = tokens_text(seat.pool, style, empty="none")
    center = (f"  Conservation Center {seat.spaces_used}/{seat.capacity} spaces | "
              f"pool: {pool}")
    lines = [head, score, rep, center]
    for animal in seat.board:
        lines.append("    " + _board_animal(animal, style))
    if not seat.board:
        lines.append(style.dim("    (no animals)"))
    released, protected = seat.released, seat.protected
    goal = v.cs.rules["release_goal"]
    lines.append(f"  released {len(released)} of {goal}: "
                 f"{', '.join(c.name for c in released) or '-'}")
    if protected:
        lines.append(f"  protected {len(protected)}: {', '.join(c.name for c in protected)}")
    effects = owned_effects(seat)
    if effects:
        lines.append(f"  effects: {'; '.join(effects)}")
    return lines


def _board_animal(animal: AnimalView, style: Style) -> str:
    card = animal.card
    status = (style.paint("READY to release", "green", "bold") if animal.complete
              else f"still needs {tokens_text(animal.needs, style)}")
    effect = f" | effect: {effect_text(card.effect)}" if card.effect else ""
    return (f"{card_label(card, style)} cons {card.conservation} | on it "
            f"{tokens_text(animal.on, style)} | {status}{effect}")


def group_runs(moves: Iterable[tuple[int, str]]) -> list[tuple[int, list[str]]]:
    """[(seat, [move, ...])] for consecutive moves of the same seat."""
    runs: list[tuple[int, list[str]]] = []
    for seat, move in moves:
        if runs and runs[-1][0] == seat:
            runs[-1][1].append(move)
        else:
            runs.append((seat, [move]))
    return runs


def _recent(recent: Recent, v: _View, names: Names, you: int | None,
            style: Style) -> list[str]:
    lines = [style.bold("LATEST MOVES")]
    for seat, moves in group_runs(recent):
        lines.append(f"  {seat_name(seat, names, you, style)}: {', '.join(moves)}")
    return lines


def _decision(v: _View, names: Names, you: int | None, style: Style) -> list[str]:
    obs = v.obs
    if obs.is_over():
        return [style.bold("The game is over.")]
    if obs.is_chance_node():   # explicit chance: no seat decides a reveal
        return [f"Chance: a card of the draw pile ({obs.draw_pile_size()} left) "
                f"is revealed onto the Mission"]
    seat = obs.current_player
    return [f"{seat_name(seat, names, you, style)} to play: {decision_text(obs, style)}"]


def decision_text(obs: _engine.Position, style: Style) -> str:
    """The decision in front of the seat to move, in words: what it is
    and what to type."""
    turn, phase = obs.turn, obs.phase
    mover = obs.seat(obs.current_player)
    text = PHASE_HELP[phase]
    if phase == "house":
        text += f" (capture used {turn.capture_used} of {mover.capture_limit})"
    elif phase == "choose" and mover.turns == 0:
        text = "a first turn: Mission only (recruit or house)"
    elif phase == "start":
        starts = mover.effects.start_recruit
        if turn.step < len(starts):
            text += f": gain 1 {style.token(starts[turn.step])} (apply) or not (skip)"
    elif phase == "effect":
        text = _effect_decision(turn)
    elif phase == "train":
        crossed = ", ".join([b + " up" for b in turn.trained_up] +
                            [b + " down" for b in turn.trained_down])
        if crossed:
            text += f" (crossed this turn: {crossed})"
    return text


def _effect_decision(turn: TurnView) -> str:
    """What the effect prompt asks; `apply` names the usual way to use an
    effect that is used by choosing (house, recruit)."""
    card = turn.effect_card
    assert card is not None and card.effect is not None   # the effect phase has one
    kind = card.effect.kind
    if kind == "house_one":
        how = "house one Mission animal of any capture value (apply or house <animal>) or skip"
    elif kind == "recruit_mission":
        how = ("recruit Mission caretaker cards (recruit X, then end)" if turn.step
               else "recruit Mission caretaker cards (apply or recruit X) or skip")
    else:
        how = f"{effect_text(card.effect)} (apply / skip)"
    return f"effect of {card.name}: {how}"


def move_gloss(card_set: CardSet, move: str) -> str:
    """A few words after a move that names an animal: its name."""
    words = move.split()
    cards = [card_set.by_id[w] for w in words[1:] if w in card_set.by_id]
    if not cards:
        return ""
    if words[0] in ("house", "protect"):
        c = cards[0]
        return f"{c.name}, capture {c.capture}" if words[0] == "house" else c.name
    return " -> ".join(c.name for c in cards)


def render_moves(card_set: CardSet, moves: Sequence[str], style: Style | None = None) -> str:
    """The legal moves, numbered from 1, in notation (with a short gloss)."""
    style = style or Style(False)
    width = max((len(m) for m in moves), default=0)
    lines = []
    for i, move in enumerate(moves, 1):
        gloss = move_gloss(card_set, move)
        gloss = style.dim(f"  {gloss}") if gloss else ""
        lines.append(f"  {i:>2}. {move.ljust(width)}{gloss}".rstrip())
    return "\n".join(lines)


def render_final(obs: _engine.Observation, names: Names = None, you: int | None = None,
                 style: Style | None = None, ranks: Sequence[int] | None = None,
                 forfeits: Iterable[Mapping[str, Any]] = ()) -> str:
    """The final score breakdown, one line per seat, best place first, with
    the Survival tokens that break ties and a line per tie saying how it
    was broken. `ranks` (default: the position's) may come from a record
    (forfeits)."""
    style = style or Style(False)
    v = _View(obs)
    breakdown = [seat.score for seat in v.seats]
    ranks = list(ranks) if ranks else obs.ranks()
    forfeited = {f["seat"]: f for f in forfeits}
    lines = [style.bold("FINAL SCORE"),
             "  place  seat                            released  reputation  specialty"
             "  survival  total"]
    labels = []
    for p in range(v.n):
        label = "you" if p == you else (names[p] if names else v.faunas[p])
        labels.append(f"seat {p} ({label if len(label) <= 22 else label[:21] + '~'})")
    for p in sorted(range(v.n), key=lambda s: (ranks[s], s)):
        b = breakdown[p]
        note = f"  forfeit: {forfeited[p]['kind']}" if p in forfeited else ""
        line = (f"  {ranks[p]:>5}  {labels[p]:<30}  {b.conservation:>8}  "
                f"{b.reputation:>10}  {b.specialty:>9}  {v.seats[p].track:>8}  {b.total:>5}")
        lines.append(style.seat(p, line) + f"  {v.faunas[p]}{note}")
    ties = tie_breaks([b.total for b in breakdown], [s.track for s in v.seats], labels,
                      exclude=set(forfeited))
    lines += [f"  tie: {t}" for t in ties]
    return "\n".join(lines)
