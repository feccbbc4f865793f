# _raw.pxi -- the C state as a plain dict of ints and lists, and back.
# (Cython's automatic struct conversion turns uint8_t arrays into bytes cut
# at the first zero, so the conversion is written out here.)

cdef list _bytes_list(const uint8_t *a, int n):
    return [a[i] for i in range(n)]


cdef object _byte_value(value, label):
    if type(value) is not int or not 0 <= value <= 255:
        raise StateFormatError(f"raw state: {label} = {value!r}: expected a "
                               "whole number 0..255")
    return value


def _raw_byte(d, key, path):
    """d[key] as a whole number 0..255, or StateFormatError naming it."""
    if not isinstance(d, dict) or key not in d:
        raise StateFormatError(f"raw state: {path}{key} is missing")
    return _byte_value(d[key], f"{path}{key}")


def _raw_list(d, key, int n, path):
    """d[key] as a list of n entries, or StateFormatError naming it."""
    if not isinstance(d, dict) or key not in d:
        raise StateFormatError(f"raw state: {path}{key} is missing")
    values = d[key]
    if not isinstance(values, list) or len(values) != n:
        raise StateFormatError(f"raw state: {path}{key}: expected a list of {n}")
    return values


cdef int _list_bytes(uint8_t *a, d, key, int n, path) except -1:
    values = _raw_list(d, key, n, path)
    for i in range(n):
        value = values[i]
        a[i] = value if type(value) is int and 0 <= value <= 255 else \
            _byte_value(value, f"{path}{key}[{i}]")
    return 0


cdef dict _slot_to_dict(const cx_slot *sl):
    return {"card": sl.card, "on": _bytes_list(sl.on, 5),
            "movable": _bytes_list(sl.movable, 4)}


cdef dict _player_to_dict(const cx_player *p):
    return {
        "board": [_slot_to_dict(&p.board[i]) for i in range(CX_MAX_BOARD)],
        "n_board": p.n_board, "pool": _bytes_list(p.pool, 4),
        "track": p.track, "fauna": p.fauna, "turns": p.turns,
        "n_released": p.n_released, "n_start_recruit": p.n_start_recruit,
        "start_recruit": _bytes_list(p.start_recruit, CX_MAX_START_RECRUIT),
        "extra_spaces": p.extra_spaces, "capture_bonus": p.capture_bonus,
        "skip_survival": p.skip_survival,
        "double_protect": _bytes_list(p.double_protect, 4),
        "one_to_one": _bytes_list(p.one_to_one, 4),
    }


cdef dict _state_to_dict(const cx_state *s):
    return {
        "n_players": s.n_players, "first_player": s.first_player,
        "current": s.current, "phase": s.phase,
        "end_triggered": s.end_triggered, "rounds": s.rounds,
        "supply": _bytes_list(s.supply, 5), "n_mission": s.n_mission,
        "mission": _bytes_list(s.mission, CX_MISSION_SIZE),
        "deck_len": s.deck_len, "deck_pos": s.deck_pos, "step": s.step,
        "capture_used": s.capture_used, "train_up": s.train_up,
        "train_down": s.train_down, "effect_card": s.effect_card,
        "deck": _bytes_list(s.deck, CX_MAX_CARDS),
        "loc": _bytes_list(s.loc, CX_MAX_CARDS),
        "players": [_player_to_dict(&s.players[p]) for p in range(CX_MAX_PLAYERS)],
    }


_PLAYER_BYTES = ("n_board", "track", "fauna", "turns", "n_released",
                 "n_start_recruit", "extra_spaces", "capture_bonus", "skip_survival")
_STATE_BYTES = ("n_players", "first_player", "current", "phase", "end_triggered",
                "rounds", "n_mission", "deck_len", "deck_pos", "step",
                "capture_used", "effect_card", "train_up", "train_down")


cdef int _dict_to_player(cx_player *p, d, path) except -1:
    board = _raw_list(d, "board", CX_MAX_BOARD, path)
    for i in range(CX_MAX_BOARD):
        where = f"{path}board[{i}]."
        p.board[i].card = _raw_byte(board[i], "card", where)
        _list_bytes(p.board[i].on, board[i], "on", 5, where)
        _list_bytes(p.board[i].movable, board[i], "movable", 4, where)
    values = {key: _raw_byte(d, key, path) for key in _PLAYER_BYTES}
    p.n_board, p.track, p.fauna = values["n_board"], values["track"], values["fauna"]
    p.turns, p.n_released = values["turns"], values["n_released"]
    p.n_start_recruit = values["n_start_recruit"]
    p.extra_spaces, p.capture_bonus = values["extra_spaces"], values["capture_bonus"]
    p.skip_survival = values["skip_survival"]
    _list_bytes(p.pool, d, "pool", 4, path)
    _list_bytes(p.start_recruit, d, "start_recruit", CX_MAX_START_RECRUIT, path)
    _list_bytes(p.double_protect, d, "double_protect", 4, path)
    _list_bytes(p.one_to_one, d, "one_to_one", 4, path)
    return 0


cdef int _dict_to_state(cx_state *s, d) except -1:
    """Fill the struct from a raw dict; every field must be there, every
    number a byte (StateFormatError naming the field otherwise)."""
    memset(s, 0, sizeof(cx_state))
    if not isinstance(d, dict):
        raise StateFormatError(f"raw state: expected a dict, got {type(d).__name__}")
    v = {key: _raw_byte(d, key, "") for key in _STATE_BYTES}
    s.n_players, s.first_player = v["n_players"], v["first_player"]
    s.current, s.phase = v["current"], v["phase"]
    s.end_triggered, s.rounds = v["end_triggered"], v["rounds"]
    s.n_mission = v["n_mission"]
    s.deck_len, s.deck_pos, s.step = v["deck_len"], v["deck_pos"], v["step"]
    s.capture_used, s.effect_card = v["capture_used"], v["effect_card"]
    s.train_up, s.train_down = v["train_up"], v["train_down"]
    _list_bytes(s.supply, d, "supply", 5, "")
    _list_bytes(s.mission, d, "mission", CX_MISSION_SIZE, "")
    _list_bytes(s.deck, d, "deck", CX_MAX_CARDS, "")
    _list_bytes(s.loc, d, "loc", CX_MAX_CARDS, "")
    players = _raw_list(d, "players", CX_MAX_PLAYERS, "")
    for p in range(CX_MAX_PLAYERS):
        _dict_to_player(&s.players[p], players[p], f"players[{p}].")
    return 0
