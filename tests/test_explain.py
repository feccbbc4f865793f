"""coexist_ai.explain: why a move is illegal (each rule from a constructed
position, and every action of whole games against the engine), near
misses, effects and moves in words, and the final ranking's tie-breaks."""
import pytest
from positions import CS, position, random_positions

from coexist_ai import State, action_of_id, explain, num_distinct_actions
from coexist_ai.cards import Effect
from coexist_ai.explain.nearby import nearest_moves, typo_distance
from coexist_ai.notation import make_action
from coexist_ai.vocabulary import IMMEDIATE_EFFECTS, ActionKind, EffectKind

FULL = {"C": 15}                      # 5 spaces of C: a full Center
FIVE = ["forest-hazel-dormouse", "forest-fire-salamander", "forest-pine-marten",
        "forest-eurasian-badger", "forest-wildcat"]


def me(**seat):
    return [dict(seat)]


# (what the rule is, position kwargs, move, words the reason must hold)
RULES = [
    # Mission A
    ("recruit, full Center", dict(mission=["forest-k9"], seats=me(pool=FULL)),
     "recruit H", "no free space for an H token: your Conservation Center uses 5 of 5 spaces"),
    ("recruit, colour not on the Mission", dict(mission=["forest-k1", "forest-k4"]),
     "recruit H", "the Mission board has no H caretaker card (it has C, F)"),
    ("recruit, supply empty", dict(mission=["forest-k9"], seats=[{}, dict(pool={"H": 20})]),
     "recruit H", "the supply has no H token left"),
    ("recruit S", dict(mission=["forest-k9"]), "recruit S", "S (Survival) is no caretaker"),
    ("house while recruiting", dict(phase="recruit", mission=["forest-red-fox", "forest-k1"]),
     "house forest-red-fox", "this turn's option is Mission A (recruit)"),
    # Mission B
    ("house over the capture limit", dict(mission=["forest-brown-bear"], seats=me(track=8)),
     "house forest-brown-bear", "capture value 7 is over your capture limit 6"),
    ("house over the turn's capture total",
     dict(phase="house", turn=dict(capture_used=8), mission=["forest-red-deer"]),
     "house forest-red-deer", "would bring this turn's total to 11, over your capture limit 10"),
    ("house, not on the Mission", dict(mission=["forest-k1"]),
     "house forest-red-fox", "Red Fox is not on the Mission board: it is in the draw pile"),
    ("house, fauna not dealt", dict(mission=["forest-k1"]),
     "house sea-otter", "it is not in this game"),
    ("house, on another seat's board", dict(mission=["forest-k1"],
                                            seats=[{}, dict(board=["forest-red-fox"])]),
     "house forest-red-fox", "it is on seat 1's Conservation Center"),
    ("house a caretaker card", dict(mission=["forest-k1"]),
     "house forest-k1", "forest-k1 is a caretaker card: caretakers are recruited by colour (recruit C)"),
    ("house, full Center", dict(mission=["forest-red-fox"], seats=me(board=FIVE)),
     "house forest-red-fox", "no free space for an animal"),
    ("recruit while housing", dict(phase="house", mission=["forest-k1"]),
     "recruit C", "this turn's option is Mission B (house)"),
    # a first turn
    ("center on a first turn", dict(seats=me(turns=0)), "center",
     "on a first turn only Mission is open"),
    ("train on a first turn", dict(seats=me(turns=0, pool={"C": 2})), "train",
     "on a first turn only Mission is open"),
    ("assign on a first turn", dict(seats=me(turns=0, pool={"C": 1},
                                             board=["forest-red-fox"])),
     "assign C forest-red-fox", "the Center opens from your 2nd turn"),
    ("assign before choosing center", dict(seats=me(pool={"C": 1}, board=["forest-red-fox"])),
     "assign C forest-red-fox", "choose center first"),
    ("pass with moves left", dict(), "pass", "pass is only for a seat that has no other legal move"),
    ("end before choosing", dict(), "end", "choose this turn's option first"),
    # the Conservation Center
    ("assign a colour not needed", dict(phase="center", seats=me(pool={"P": 1},
                                                                 board=["forest-red-fox"])),
     "assign P forest-red-fox", "Red Fox needs no P"),
    ("assign a colour already there", dict(phase="center", seats=me(
        pool={"C": 1}, board=[("forest-red-fox", {"C": 1})])),
     "assign C forest-red-fox", "Red Fox already carries the 1 C it needs"),
    ("assign from an empty pool", dict(phase="center", seats=me(board=["forest-red-fox"])),
     "assign F forest-red-fox", "your pool has no F"),
    ("assign S, empty track", dict(phase="center", seats=me(board=["forest-red-fox"])),
     "assign S forest-red-fox", "your Reputation track has no Survival token to assign"),
    ("assign to another seat's animal", dict(phase="center", seats=[
        dict(pool={"C": 1}), dict(board=["forest-red-fox"])]),
     "assign C forest-red-fox", "Red Fox is not on your Conservation Center: it is on seat 1's"),
    ("move a token that arrived this turn", dict(phase="center", seats=me(board=[
        ("forest-red-fox", {"F": 1}, {"F": 0}), "forest-hazel-dormouse"])),
     "move F forest-red-fox forest-hazel-dormouse",
     "the F on Red Fox arrived this turn or has moved already"),
    ("move to an animal that does not need it", dict(phase="center", seats=me(board=[
        ("forest-red-fox", {"F": 1}), "forest-fire-salamander"])),
     "move F forest-red-fox forest-fire-salamander", "Fire Salamander needs no F"),
    ("move a token that is not there", dict(phase="center", seats=me(board=[
        "forest-red-fox", "forest-hazel-dormouse"])),
     "move C forest-red-fox forest-hazel-dormouse", "Red Fox carries no C"),
    ("move S", dict(phase="center", seats=me(track=1, board=[
        ("forest-red-fox", {"S": 1}), "forest-wild-boar"])),
     "move S forest-red-fox forest-wild-boar", "Survival tokens never move"),
    ("move onto the same animal", dict(phase="center", seats=me(board=[
        ("forest-red-fox", {"C": 1})])),
     "move C forest-red-fox forest-red-fox", "name two animals"),
    ("unassign a token that arrived this turn", dict(phase="center", seats=me(board=[
        ("forest-red-fox", {"C": 1}, {"C": 0})])),
     "unassign C forest-red-fox", "the C on Red Fox arrived this turn"),
    ("unassign into a full Center", dict(phase="center", seats=me(board=[
        ("forest-red-fox", {"C": 1})] + FIVE[:4])),
     "unassign C forest-red-fox", "no free space in your pool for a C"),
    ("unassign S", dict(phase="center", seats=me(track=0, board=[
        ("forest-red-fox", {"S": 1})])),
     "unassign S forest-red-fox", "Survival tokens never leave an animal"),
    ("protect an animal with tokens", dict(phase="center", seats=me(board=[
        ("forest-red-fox", {"C": 1})])),
     "protect forest-red-fox", "Red Fox carries C1: only an animal with no token on it"),
    ("protect with a full track", dict(phase="center", seats=me(track=8,
                                                                board=["forest-red-fox"])),
     "protect forest-red-fox", "your Reputation track is full (8 Survival tokens)"),
    ("release an animal not complete", dict(phase="center", seats=me(board=[
        ("forest-red-fox", {"C": 1})])),
     "release forest-red-fox", "Red Fox still needs F1 S1"),
    ("release a card not on the board", dict(phase="center", mission=["forest-red-fox"]),
     "release forest-red-fox", "it is on the Mission board"),
    ("recruit in the Center", dict(phase="center", mission=["forest-k1"]),
     "recruit C", "this turn's option is the Conservation Center"),
    ("center twice", dict(phase="center"), "center", "you are in the Conservation Center already"),
    # Training
    ("train across a boundary both ways", dict(phase="train", turn=dict(
        step=1, trained_up=["C|F"]), seats=me(pool={"F": 1})),
     "train F C", "the C|F boundary was crossed upwards this turn"),
    ("train up two tiers", dict(phase="train", seats=me(pool={"C": 4})),
     "train C P", "C trains up one tier at a time"),
    ("train without enough", dict(phase="train", turn=dict(step=1), seats=me(pool={"C": 1})),
     "train C F", "the trade C -> F costs 2 C; your pool has 1"),
    ("train from an empty colour", dict(phase="train", turn=dict(step=1),
                                        seats=me(pool={"C": 1})),
     "train H F", "your pool has no H"),
    ("train into a full Center", dict(phase="train", seats=me(
        pool={"C": 3, "F": 3, "P": 1}, board=FIVE[:2])),
     "train C F", "no free space for an F token: after the trade your Center would use 6 of 5"),
    ("train into an empty supply", dict(phase="train", turn=dict(step=1), seats=[
        dict(pool={"C": 2}), dict(pool={"F": 24})]),
     "train C F", "the supply has no F token left"),
    ("train S", dict(phase="train", seats=me(pool={"C": 2})), "train C S",
     "Survival tokens do not train"),
    ("end Training before a trade", dict(phase="train", seats=me(pool={"C": 2})), "end",
     "make a first trade"),
    ("choose train with an empty pool", dict(), "train", "your pool has no caretaker to train"),
    ("choose train with no trade", dict(seats=me(pool={"C": 1})), "train",
     "no trade is possible with your pool (C1): the trade C -> F costs 2 C"),
    # effects
    ("apply a house_one effect", dict(
        phase="effect", turn=dict(effect_card="forest-pine-marten"),
        mission=["forest-red-fox"], seats=me(released=["forest-pine-marten"])),
     "apply", "used by housing: house <animal>, or skip"),
    ("end a recruit_mission effect before recruiting", dict(
        phase="effect", turn=dict(effect_card="forest-wildcat"),
        mission=["forest-k1"], seats=me(released=["forest-wildcat"])),
     "end", "end comes after a first recruit: skip to recruit none"),
    ("skip a recruit_mission effect after recruiting", dict(
        phase="effect", turn=dict(effect_card="forest-wildcat", step=1),
        mission=["forest-k1"], seats=me(released=["forest-wildcat"])),
     "skip", "end to stop"),
    ("another move at an effect", dict(
        phase="effect", turn=dict(effect_card="forest-red-fox"),
        seats=me(released=["forest-red-fox"])),
     "center", "first the effect of Red Fox (gain 2 F): apply or skip"),
    ("apply with no effect", dict(phase="center"), "apply", "there is no effect to apply or skip now"),
    ("the start of the turn", dict(seats=me(released=["forest-fire-salamander"])),
     "center", "first the start of your turn: gain 1 C (apply) or not (skip)"),
    # end of turn
    ("discard S", dict(phase="discard", seats=me(pool={"C": 18})), "discard S",
     "Survival tokens are not discarded"),
    ("discard a colour not in the pool", dict(phase="discard", seats=me(pool={"C": 18})),
     "discard F", "your pool has no F"),
    ("end while over capacity", dict(phase="discard", seats=me(pool={"C": 18})), "end",
     "the turn is over and your Conservation Center uses 6 of 5 spaces"),
    ("discard outside the end of a turn", dict(phase="center", seats=me(pool={"C": 1})),
     "discard C", "discards come only at the end of a turn over capacity"),
]


@pytest.mark.parametrize("rule, where, move, reason", RULES, ids=[r[0] for r in RULES])
def test_each_rule_says_why(rule, where, move, reason):
    st = position(**where)
    (action,) = [a for a in explain_parse(st, move)]
    assert not st.is_legal(action), f"{move!r} is legal here: the position misses the rule"
    said = explain.why_illegal(st, action)
    assert reason in said, said
    assert explain.rule_against(st, action) == said
    assert explain.why_not(st, move) == said
    assert explain.why_illegal(st.observation(1), action) == said   # a seat's view suffices


def explain_parse(st, move):
    from coexist_ai.notation import parse_move
    return parse_move(st.card_set, move)


def test_a_legal_move_has_no_reason():
    st = position(mission=["forest-k9"])
    assert explain.why_not(st, "recruit H") is None
    assert explain.rule_against(st, st.parse_move("recruit H")) is None


def test_not_your_turn_game_over_chance_and_bad_integers():
    st = position(mission=["forest-k9"])
    recruit = st.parse_move("recruit H")
    assert explain.why_illegal(st, recruit, seat=1) == "it is not your turn: seat 0 is to play"
    assert explain.why_illegal(st, recruit, seat=0) is None
    assert "not an action integer" in explain.why_illegal(st, 2**27)
    assert "reveal is chance's move" in explain.why_illegal(
        st, make_action(ActionKind.REVEAL, a=0))
    over = State.new(CS, seed=4)
    over.playout_random(1)
    assert explain.why_illegal(over, recruit) == "the game is over"
    chance = State.new(CS, seed=4, explicit_chance=True)
    assert chance.is_chance_node()
    assert "a card is being revealed" in explain.why_illegal(chance, recruit)
    assert "a card is being revealed" in explain.why_illegal(chance, chance.legal_actions()[0],
                                                              seat=0)
    assert explain.why_illegal(chance, chance.legal_actions()[0]) is None


def test_text_that_is_no_move_gets_the_notations_reason():
    st = position()
    assert "unknown word 'hous'" in explain.why_not(st, "hous gazele")
    assert "is not a colour" in explain.why_not(st, "recruit Q")


def _game_actions(st):
    """The actions of the card set that name only cards of this game; of
    the many `move X A B`, those touching the mover's board (the others
    all fail on the same first rule)."""
    dealt = {c.index for c in CS.cards if c.fauna in {str(s.fauna) for s in st.seats}}
    mine = {a.card.index for a in st.seat(st.current_player).board} if not st.is_over() else set()
    for dense in range(num_distinct_actions(CS)):
        action = action_of_id(CS, dense)
        a, b = action & 255, (action >> 8) & 255
        if a not in dealt or b not in dealt:
            continue
        if action >> 22 == ActionKind.MOVE and not {a, b} & mine:
            continue
        yield action


def test_the_rules_agree_with_the_engine_on_every_action():
    """Along whole games, for every action of the game's cards: no rule
    forbids exactly the legal moves, and every illegal one gets its own
    reason (never the generic fallback)."""
    checked = {}
    for players, seed in ((2, 11), (2, 14), (3, 12), (4, 13)):
        last = {}
        for k, st in enumerate(random_positions(players, seed, eager=0.7)):
            # a few positions of each decision, spread over the game
            if checked.get(st.phase, 0) >= 2 * players or k - last.get(st.phase, -99) < 12:
                continue
            checked[st.phase] = checked.get(st.phase, 0) + 1
            last[st.phase] = k
            legal = set(st.legal_actions())
            for action in _game_actions(st):
                said = explain.rule_against(st, action)
                assert (said is None) == (action in legal), (st.phase, st.move_name(action), said)
    assert {"choose", "center", "recruit", "house", "train", "effect", "discard"} <= set(checked)


# -- near misses --------------------------------------------------------------

def test_did_you_mean_a_legal_move():
    st = position(faunas=("savannah", "forest"), mission=["savannah-thomsons-gazelle",
                                                          "savannah-plains-zebra"])
    assert explain.did_you_mean(st, "hous gazele") == ["house savannah-thomsons-gazelle"]
    assert explain.did_you_mean(st, "huose zerba") == ["house savannah-plains-zebra"]
    # a word of the name, not of the id
    assert explain.did_you_mean(st, "house thomson") == ["house savannah-thomsons-gazelle"]


def test_did_you_mean_a_move_that_is_not_legal_now():
    st = position(mission=["forest-k1"])
    (guess,) = explain.did_you_mean(st, "hous red-fx")
    assert guess == "house forest-red-fox"
    assert "not on the Mission board" in explain.why_not(st, guess)


def test_nothing_near_means_no_guess():
    st = position()
    assert explain.did_you_mean(st, "xyzzy") == []
    assert explain.did_you_mean(st, "house nothing-at-all") == []
    assert nearest_moves(CS, "") == []


def test_typo_distance_and_closest_words():
    assert typo_distance("hous", "house") == 0          # a start of the word
    assert typo_distance("hosue", "house") == 1         # two letters swapped
    assert typo_distance("gazele", "gazelle") == 1
    assert typo_distance("zbra", "zebra") == 1
    assert explain.closest("hlep", ["help", "hint", "undo"]) == ["help"]
    assert explain.closest("ud", ["help", "hint", "undo"]) == []   # 2 letters: exact only


def test_short_ids_name_one_card_each():
    short = explain.short_ids(CS)
    assert short["savannah-thomsons-gazelle"] == "gazelle"
    assert short["forest-red-fox"] == "red-fox" and short["air-flying-fox"] == "flying-fox"
    assert set(short) == {c.id for c in CS.animals()}   # caretakers go by colour
    for card in CS.animals():
        named = [c.id for c in CS.animals() if explain.names_card(short[card.id], c)]
        assert named == [card.id], (card.id, short[card.id], named)


# -- words ----------------------------------------------------------------------------

EFFECTS = [Effect("start_recruit", colour="C"), Effect("capture_bonus", amount=2),
           Effect("discard_survival", amount=1), Effect("recruit_two", colour="F"),
           Effect("house_one"), Effect("recruit_mission"),
           Effect("discard_survival_recruit", colour="H"), Effect("extra_space"),
           Effect("double_protect", colour="P"), Effect("skip_survival"),
           Effect("train_one_to_one", from_colour="F", to_colour="P")]


def test_every_effect_kind_in_words():
    assert {e.kind for e in EFFECTS} == {k.value for k in EffectKind} - {"none"}
    for effect in EFFECTS:
        short, sentence = explain.effect_text(effect), explain.effect_sentence(effect)
        assert 0 < len(short) <= 21 and sentence.endswith(".")   # fits a card's line
        when = "Once, when released" if EffectKind(effect.kind) in IMMEDIATE_EFFECTS \
            else "From its release on"
        assert sentence.startswith(when)
    assert explain.effect_sentence(Effect("discard_survival", amount=1)) == (
        "Once, when released: remove up to 1 Survival token from your Reputation "
        "track, right to left.")
    assert explain.effect_text(None) == explain.effect_sentence(None) == ""


def test_every_move_kind_in_words():
    seen = set()
    for players, seed in ((2, 1), (3, 2)):
        for st in random_positions(players, seed, eager=0.7):
            for action in st.legal_actions():
                text = explain.move_text(CS, action)
                kind = ActionKind(action >> 22)
                seen.add(kind)
                if kind in (ActionKind.HOUSE, ActionKind.MOVE, ActionKind.RELEASE):
                    assert CS.cards[action & 255].name in text
                if kind is ActionKind.MOVE:
                    assert CS.cards[(action >> 8) & 255].name in text
    assert {ActionKind.ASSIGN, ActionKind.MOVE, ActionKind.RELEASE, ActionKind.TRAIN,
            ActionKind.HOUSE, ActionKind.RECRUIT} <= seen
    assert explain.move_text(CS, make_action(ActionKind.ASSIGN, x=0, a=2)) == \
        "put a C from your pool on Red Fox"


# -- the ranking ------------------------------------------------------------------------

def test_a_tie_broken_by_survival_tokens():
    assert explain.tie_breaks([29, 29], [4, 0]) == [
        "29-29, broken by Survival tokens: 0 against 4, fewer first: seat 1, then seat 0"]
    assert explain.seat_tie_break(0, [29, 29], [4, 0], ["you", "greedy"]) == (
        "29-29, broken by Survival tokens: 0 against 4, fewer first: greedy, then you")


def test_a_tie_still_tied_shares_the_place():
    assert explain.tie_breaks([29, 29, 30], [4, 4, 0]) == [
        "29-29 with 4 Survival tokens each: seat 0 and seat 1 share 2nd place"]
    assert explain.tie_breaks([29, 29, 29, 10], [4, 0, 4, 2]) == [
        "29-29-29, broken by Survival tokens: 0, 4 and 4, fewer first: seat 1, "
        "then seat 0 and seat 2 sharing 2nd"]
    assert explain.tie_breaks([30, 29], [4, 0]) == []
    assert explain.seat_tie_break(0, [30, 29], [4, 0]) is None


def test_a_forfeit_is_left_out_of_the_tie_breaks():
    assert explain.tie_breaks([29, 29, 29], [1, 0, 3], exclude={1}) == [
        "29-29, broken by Survival tokens: 1 against 3, fewer first: seat 0, then seat 2"]
    assert explain.ranking([29, 29, 29], [1, 0, 3], exclude={1}) == [1, None, 2]


def test_ranking_is_the_engines():
    for seed in range(12):
        st = State.new(CS, players=2 + seed % 3, seed=seed)
        st.playout_random(seed)
        tracks = [s.track for s in st.seats]
        assert explain.ranking(st.scores(), tracks) == st.ranks()
        assert explain.position_tie_breaks(st) == explain.tie_breaks(st.scores(), tracks)
