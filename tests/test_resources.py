"""Resources stay flat however many games or card sets a process sees."""
from coexist_ai import _engine, _search
from coexist_ai.cards import dumps_card_set, default_card_set, load_card_set


def test_equal_card_sets_share_one_packed_copy(tmp_path):
    path = tmp_path / "copy.toml"
    path.write_text(dumps_card_set(default_card_set()))
    first = _engine.State.new(load_card_set(path), seed=1)
    for seed in range(200):   # a worker that loads --cards FILE every game
        again = _engine.State.new(load_card_set(path), seed=seed)
    assert _engine.core_card_set(load_card_set(path)) is _engine.core_card_set(default_card_set())
    assert len(_engine._core_cache) <= _engine._CORE_CACHE_SIZE
    assert again.card_set == first.card_set


def test_the_packed_card_set_cache_is_bounded(tmp_path):
    default = default_card_set()
    text = dumps_card_set(default)
    assert f'name = "{default.name}"' in text
    for k in range(3 * _engine._CORE_CACHE_SIZE):
        path = tmp_path / f"set{k}.toml"
        path.write_text(text.replace(f'name = "{default.name}"', f'name = "set-{k}"', 1))
        _engine.State.new(load_card_set(path), seed=k)
    assert len(_engine._core_cache) == _engine._CORE_CACHE_SIZE


def test_positions_of_equal_card_sets_compare_equal(tmp_path):
    path = tmp_path / "copy.toml"
    path.write_text(dumps_card_set(default_card_set()))
    a = _engine.State.new(default_card_set(), seed=5)
    b = _engine.State.new(load_card_set(path), seed=5)
    assert a == b
    b.push(b.legal_moves()[0])
    assert a != b
