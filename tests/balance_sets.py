"""Card sets constructed for the balance laboratory's tests.

`identical_faunas()`: the four faunas hold the same ten animals and ten
caretaker cards, card for card (only ids and names differ): the forest
deck of reconstructed-v1, copied. No fauna's cards favour anyone. The
specialties still differ, by their own scoring rules (forest counts
releases, air protections, sea the best animal left on a board, savannah
the fullest track), so such a set is not fair by construction; what a
symmetric test needs is a labelling that cannot matter (see
tests/test_balance.py).

`identical_faunas(protect_survival=2)`: the same, with two more Survival
tokens gained by every protection: tracks fill up, which is savannah's
specialty (the Survival tokens on the fullest track), a large bonus.
"""
import copy

from coexist_ai.cards import card_set_from_data, dumps_card_set, packaged_card_set

FAUNAS = ("forest", "air", "sea", "savannah")


def identical_faunas(protect_survival=0, name="identical-faunas"):
    template = packaged_card_set("reconstructed-v1")
    animals, caretakers = [], []
    for fauna in FAUNAS:
        for card in template.animals("forest"):
            data = copy.deepcopy(card.to_data())
            data["id"] = data["id"].replace("forest", fauna, 1)
            data["fauna"] = fauna
            data["protect"]["S"] += protect_survival
            if data["effect"] is None:
                del data["effect"]
            animals.append(data)
        for card in template.caretakers("forest"):
            caretakers.append({"id": card.id.replace("forest", fauna, 1), "fauna": fauna,
                               "colour": card.colour})
    return card_set_from_data({"name": name, "animal": animals, "caretaker": caretakers},
                              f"<{name}>")


def write(card_set, path):
    path.write_text(dumps_card_set(card_set))
    return path
