"""tools/cardset_variant.py, run as a process: the balance screens' sets are
made by it, so its edits must land where they say and its design check must
refuse a set that breaks RULES.md's card-set rules."""
import subprocess
import sys

from cli_process import ROOT

from coexist_ai.cards import loads_card_set, resolve_card_set

SCRIPT = str(ROOT / "tools" / "cardset_variant.py")


def variant(*edits):
    return subprocess.run([sys.executable, SCRIPT, "reconstructed-v4", "x", "a test", *edits],
                          capture_output=True, text=True, timeout=60)


def animal(card_set, card_id):
    return next(card for card in card_set.animals() if card.id == card_id)


def test_an_effect_is_replaced_whole_and_the_rest_is_kept():
    made = variant("savannah-aardvark.effect=recruit_two,colour=F",
                   "forest-wildcat.needs=F1P1S1")
    assert made.returncode == 0, made.stderr
    card_set = loads_card_set(made.stdout, "<x>")
    aardvark = animal(card_set, "savannah-aardvark")
    assert (aardvark.effect.kind, aardvark.effect.colour) == ("recruit_two", "F")
    assert animal(card_set, "forest-wildcat").needs == (0, 1, 1, 0, 1)
    base = resolve_card_set("reconstructed-v4")
    changed = [card.id for card in card_set.animals() if card != animal(base, card.id)]
    assert sorted(changed) == ["forest-wildcat", "savannah-aardvark"]


def test_an_effect_can_be_removed():
    made = variant("sea-otter.effect=none")
    assert animal(loads_card_set(made.stdout, "<x>"), "sea-otter").effect is None


def test_a_set_that_breaks_the_design_rules_exits_1_and_says_why():
    # recruit_mission left on one fauna only: every kind needs two faunas
    made = variant("air-flying-fox.effect=none", "sea-otter.effect=none")
    assert made.returncode == 1
    assert "design: effect recruit_mission is on 1 animals of 1 faunas" in made.stderr


def test_a_caretaker_card_is_recoloured_and_renamed_and_the_weights_are_checked():
    made = variant("savannah-k10.colour=P")
    assert made.returncode == 0, made.stderr
    card = next(c for c in loads_card_set(made.stdout, "<x>").caretakers("savannah")
                if c.id == "savannah-k10")
    assert (card.colour, card.name) == ("P", "Protection caretaker")
    # two H cards recoloured C leave savannah no H: the supply's weighting is broken
    made = variant("savannah-k9.colour=C", "savannah-k10.colour=C")
    assert made.returncode == 1
    assert "savannah's caretaker colours C5 F3 P2 H0" in made.stderr


def test_a_caretaker_colour_that_is_not_one_is_refused():
    made = variant("savannah-k10.colour=S")
    assert made.returncode == 1
    assert "'S' is not one of C, F, P, H" in made.stderr
