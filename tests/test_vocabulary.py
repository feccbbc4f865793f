"""The game's vocabulary is the engine's: every Python enum names each code
of its C enum (csrc/cx_types.h) once, and nothing else; limits and tables
come from the binding, and the modules that speak of colours, faunas,
phases, effects and places use them."""
import re
from pathlib import Path

import pytest

from coexist_ai import _engine, cards, notation, vocabulary as v

HEADER = (Path(__file__).resolve().parent.parent / "csrc" / "cx_types.h").read_text()


def c_enum(tag):
    """(names, values) of `enum tag {...}` in cx_types.h, values counted as C does."""
    body = re.search(rf"enum {tag} \{{(.*?)\}};", HEADER, re.S).group(1)
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    names, values, value = [], [], -1
    for item in filter(None, (part.strip() for part in body.split(","))):
        name, _, given = item.partition("=")
        value = int(given) if given.strip() else value + 1
        names.append(name.strip())
        values.append(value)
    return names, values


@pytest.mark.parametrize("enum,tag,prefix", [
    (v.Colour, "cx_colour", "CX_"), (v.Fauna, "cx_fauna", "CX_"),
    (v.Phase, "cx_phase", "CX_PH_"), (v.EffectKind, "cx_effect_kind", "CX_EFF_"),
    (v.Location, "cx_location", "CX_LOC_"),
])
def test_each_named_enum_names_every_code_of_its_c_enum(enum, tag, prefix):
    names, values = c_enum(tag)
    counted = [(n, val) for n, val in zip(names, values) if not n.startswith("CX_NUM")]
    assert [m.name for m in enum] == [n.removeprefix(prefix) for n, _ in counted]
    assert [m.code for m in enum] == [val for _, val in counted]
    for member in enum:
        assert enum.of(member.code) is member
    with pytest.raises(ValueError):
        enum.of(max(m.code for m in enum) + 1)


def test_action_kinds_are_the_c_kinds():
    names, values = c_enum("cx_action_kind")
    counted = [(n, val) for n, val in zip(names, values) if n != "CX_NUM_ACTION_KINDS"]
    assert [(k.name, int(k)) for k in v.ActionKind] == \
        [(n.removeprefix("CX_A_"), val) for n, val in counted]


def test_every_action_kind_has_a_notation():
    assert set(notation._SHAPES) == set(v.ActionKind)


def test_names_are_the_words_of_files_and_json():
    assert v.Phase.CENTER == "center" and v.Colour.S == "S"
    assert v.EffectKind.HOUSE_ONE == "house_one" and v.Fauna.SAVANNAH == "savannah"
    assert cards.FAUNAS == ("forest", "air", "sea", "savannah")
    assert cards.TOKEN_COLOURS == ("C", "F", "P", "H", "S")
    assert notation.COLOURS == "CFPHS"


def test_limits_and_tables_come_from_the_header():
    for name in ("MAX_CARDS", "MAX_BOARD", "MISSION_SIZE", "TRACK_SIZE", "MAX_PLAYERS",
                 "MAX_SPACES", "MAX_ROUNDS", "MAX_START_RECRUIT", "MAX_ACTIONS"):
        assert re.search(rf"#define CX_{name} (\d+)", HEADER).group(1) == str(getattr(v, name))
    supply = re.search(r"CX_SUPPLY_START\[CX_NUM_TOKENS\] = \{([^}]*)\}", HEADER).group(1)
    assert list(v.SUPPLY_START.values()) == [int(x) for x in supply.split(",")]
    points = re.search(r"CX_TRACK_POINTS\[CX_TRACK_SIZE\] = \{([^}]*)\}", HEADER).group(1)
    assert list(v.TRACK_POINTS) == [int(x) for x in points.split(",")]


def test_effect_parameters_are_the_engines_table():
    assert v.EFFECT_PARAMETERS[v.EffectKind.TRAIN_ONE_TO_ONE] == ("from", "to")
    assert v.EFFECT_PARAMETERS[v.EffectKind.CAPTURE_BONUS] == ("amount",)
    assert v.EFFECT_PARAMETERS[v.EffectKind.HOUSE_ONE] == ()
    assert cards.EFFECT_KINDS == tuple(k for k in v.EffectKind if k != "none")
    assert v.IMMEDIATE_EFFECTS == {"discard_survival", "recruit_two", "house_one",
                                   "recruit_mission", "discard_survival_recruit"}


def test_no_module_restates_the_engines_numbers():
    # the hand copies the vocabulary replaced must not come back
    package = Path(cards.__file__).resolve().parent
    forbidden = [r"\(4, 0, 3, 0, 2, 0, 1, 0\)", r'"CFPHS"', r"range\(16\)",
                 r"LOC_\w+ = \d", r"\bPHASES = \(", r'FAUNAS = \("forest"']
    for path in package.rglob("*.py"):
        if "reference" in path.parts:      # the independent implementation keeps its own
            continue
        text = path.read_text()
        for pattern in forbidden:
            assert not re.search(pattern, text), (path.name, pattern)


def test_chance_player_is_openspiels():
    assert v.CHANCE_PLAYER == _engine.CHANCE_PLAYER == -1
