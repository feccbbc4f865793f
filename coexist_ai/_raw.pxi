# _raw.pxi -- the C state as a plain dict of ints and lists, and back.
# (Cython's automatic struct conversion turns uint8_t arrays into bytes cut
# at the first zero, so the conversion is written out here.)

cdef list _bytes_list(const uint8_t *a, int n):
    return [a[i] for i in range(n)]


cdef void _list_bytes(uint8_t *a, values, int n) except *:
    for i in range(n):
        a[i] = values[i]


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


cdef void _dict_to_player(cx_player *p, dict d) except *:
    for i in range(CX_MAX_BOARD):
        sl = d["board"][i]
        p.board[i].card = sl["card"]
        _list_bytes(p.board[i].on, sl["on"], 5)
        _list_bytes(p.board[i].movable, sl["movable"], 4)
    p.n_board, p.track, p.fauna = d["n_board"], d["track"], d["fauna"]
    p.turns, p.n_released = d["turns"], d["n_released"]
    p.n_start_recruit = d["n_start_recruit"]
    _list_bytes(p.pool, d["pool"], 4)
    _list_bytes(p.start_recruit, d["start_recruit"], CX_MAX_START_RECRUIT)
    p.extra_spaces, p.capture_bonus = d["extra_spaces"], d["capture_bonus"]
    p.skip_survival = d["skip_survival"]
    _list_bytes(p.double_protect, d["double_protect"], 4)
    _list_bytes(p.one_to_one, d["one_to_one"], 4)


cdef void _dict_to_state(cx_state *s, dict d) except *:
    memset(s, 0, sizeof(cx_state))
    s.n_players, s.first_player = d["n_players"], d["first_player"]
    s.current, s.phase = d["current"], d["phase"]
    s.end_triggered, s.rounds = d["end_triggered"], d["rounds"]
    _list_bytes(s.supply, d["supply"], 5)
    s.n_mission = d["n_mission"]
    _list_bytes(s.mission, d["mission"], CX_MISSION_SIZE)
    s.deck_len, s.deck_pos, s.step = d["deck_len"], d["deck_pos"], d["step"]
    s.capture_used, s.effect_card = d["capture_used"], d["effect_card"]
    s.train_up, s.train_down = d["train_up"], d["train_down"]
    _list_bytes(s.deck, d["deck"], CX_MAX_CARDS)
    _list_bytes(s.loc, d["loc"], CX_MAX_CARDS)
    for p in range(CX_MAX_PLAYERS):
        _dict_to_player(&s.players[p], d["players"][p])
