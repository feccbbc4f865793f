"""The design rules of a packaged card set (RULES.md "Card set").

A card-set file may hold any cards the engine can play; the sets the project
ships keep the published counts and the shape RULES.md asks of them. Those
rules live here once, so the tests of the packaged sets, ``coexist-ai cards
check --design`` and a designer screening a variant all apply the same ones.

``design_problems(card_set)`` returns one line per broken rule (empty: the
set keeps them all).
"""

from __future__ import annotations

from collections import Counter

from coexist_ai.cards import CARETAKER_COLOURS, EFFECT_KINDS, FAUNAS, TOKEN_COLOURS, CardSet

__all__ = ["design_problems", "spearman"]

S = TOKEN_COLOURS.index("S")
P, H = TOKEN_COLOURS.index("P"), TOKEN_COLOURS.index("H")
CARDS_PER_FAUNA = 10
# RULES.md: "some animals needing an S" -- between 15% and 35% of them
SURVIVAL_NEEDS_SHARE = (0.15, 0.35)
# conservation "rises with what an animal needs": rank correlation above this
VALUE_COST_CORRELATION = 0.85
OFTEN_ONE_SURVIVAL = 20   # "often 1 S" on protect: more than this many animals
# "conservation values 1-9 or so": the top value is 7, 8 or 9. Until v5 every
# packaged set had a 9; a 9 left unfinished on a board is worth 9 to the sea
# seat, and at 4 players that alone kept sea above its share (docs/balance.md,
# screens c1, c2), so a top of 7 is allowed.
TOP_CONSERVATION = 7


def design_problems(card_set: CardSet) -> list[str]:
    """Every RULES.md "Card set" rule the set breaks, one line each."""
    problems: list[str] = []
    for check in (_counts, _caretaker_weights, _effect_spread, _survival_needs,
                  _value_ranges, _values_rise_with_needs, _modest_protect_gains):
        problems.extend(check(card_set))
    return problems


def _counts(card_set: CardSet) -> list[str]:
    problems = []
    for fauna in FAUNAS:
        for kind, cards in (("animals", card_set.animals(fauna)),
                            ("caretaker cards", card_set.caretakers(fauna))):
            if len(cards) != CARDS_PER_FAUNA:
                problems.append(f"{fauna} has {len(cards)} {kind}, the published count "
                                f"is {CARDS_PER_FAUNA}")
    return problems


def _caretaker_weights(card_set: CardSet) -> list[str]:
    problems = []
    for fauna in FAUNAS:
        counts = Counter(card.colour for card in card_set.caretakers(fauna))
        c, f, p, h = (counts[colour] for colour in CARETAKER_COLOURS)
        if not (c >= f >= p >= h >= 1 and c > h):
            problems.append(f"{fauna}'s caretaker colours C{c} F{f} P{p} H{h} are not "
                            "weighted like the supply (C >= F >= P >= H >= 1, C > H)")
    return problems


def _effect_spread(card_set: CardSet) -> list[str]:
    faunas_of: dict[str, list[str]] = {kind: [] for kind in EFFECT_KINDS}
    for card in card_set.animals():
        if card.effect:
            faunas_of[card.effect.kind].append(card.fauna)
    return [f"effect {kind} is on {len(faunas)} animals of {len(set(faunas))} faunas; "
            "every kind needs two animals of different faunas"
            for kind, faunas in faunas_of.items() if len(set(faunas)) < 2]


def _survival_needs(card_set: CardSet) -> list[str]:
    animals = card_set.animals()
    needing = [card for card in animals if card.needs[S]]
    low, high = SURVIVAL_NEEDS_SHARE
    problems = []
    if animals and not low <= len(needing) / len(animals) <= high:
        problems.append(f"{len(needing)} of {len(animals)} animals need an S; "
                        f"between {low:.0%} and {high:.0%} should")
    missing = sorted(set(FAUNAS) - {card.fauna for card in needing})
    if missing:
        problems.append(f"no animal of {', '.join(missing)} needs an S")
    return problems


def _value_ranges(card_set: CardSet) -> list[str]:
    animals = card_set.animals()
    problems = [f"{card.id}: capture {card.capture} or conservation {card.conservation} "
                "outside 1-7 / 1-9" for card in animals
                if not (1 <= card.capture <= 7 and 1 <= card.conservation <= 9)]
    captures = {card.capture for card in animals}
    if animals and not captures >= {1, 7}:
        problems.append(f"no animal has capture {min({1, 7} - captures)}; the set should "
                        "span 1-7")
    conservation = {card.conservation for card in animals}
    if animals and not (1 in conservation and max(conservation) >= TOP_CONSERVATION):
        problems.append(f"conservation spans {min(conservation)}-{max(conservation)}; the "
                        f"set should span 1 to {TOP_CONSERVATION}-9 (\"1-9 or so\")")
    return problems


def _values_rise_with_needs(card_set: CardSet) -> list[str]:
    animals = card_set.animals()
    problems = []
    for card in animals:
        tokens = sum(card.needs)
        if tokens <= 2 and card.conservation > 3:
            problems.append(f"{card.id} needs {tokens} tokens and is worth "
                            f"{card.conservation}; at most 3")
        if tokens >= 5 and (card.needs[P] or card.needs[H]) and card.conservation < 7:
            problems.append(f"{card.id} needs {tokens} tokens with P or H and is worth "
                            f"{card.conservation}; at least 7")
    if len(animals) > 2:
        rho = spearman([sum(card.needs) for card in animals],
                       [card.conservation for card in animals])
        if not rho > VALUE_COST_CORRELATION:
            problems.append(f"conservation rises too little with needs: rank correlation "
                            f"{rho:.3f}, above {VALUE_COST_CORRELATION} wanted")
    return problems


def _modest_protect_gains(card_set: CardSet) -> list[str]:
    problems = []
    survival: Counter[int] = Counter()
    for card in card_set.animals():
        caretakers = sum(card.protect[:S])
        if not 1 <= caretakers <= 3:
            problems.append(f"{card.id} gives {caretakers} caretakers on protect; 1-3")
        survival[card.protect[S]] += 1
    if not set(survival) <= {0, 1, 2}:
        problems.append(f"protect gives {max(survival)} S somewhere; at most 2")
    if not (survival[1] > survival[2] > 0 and survival[1] > OFTEN_ONE_SURVIVAL):
        problems.append(f"protect gives 1 S on {survival[1]} animals and 2 S on "
                        f"{survival[2]}: \"often 1 S\" wants 1 S on more than "
                        f"{OFTEN_ONE_SURVIVAL}, more than 2 S, and 2 S on some")
    return problems


def spearman(xs: list[float], ys: list[float]) -> float:
    """Rank correlation of two equal-length lists, ties given their mean rank."""
    def ranks(values: list[float]) -> list[float]:
        order = sorted(values)
        return [(order.index(v) + len(order) - order[::-1].index(v) - 1) / 2
                for v in values]
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    var = (sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)) ** 0.5
    return cov / var if var else 0.0
