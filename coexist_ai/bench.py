"""`coexist-ai bench`: how fast the rules engine is, measured on this machine.

Every figure comes from a loop long enough to swamp the timer; the engine
loops run in C without the GIL. Copy time is reported beside a plain memcpy of
the same number of bytes, because absolute nanoseconds depend on the machine
while the ratio does not.
"""
from __future__ import annotations

import random
import time
import timeit
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from coexist_ai import _engine, _search
from coexist_ai.bots import make_bot
from coexist_ai.bots.builtin import IsmctsBot
from coexist_ai.cards import CardSet, default_card_set
from coexist_ai.errors import MissingDependencyError

# (faunas, first player, deck order) of a game
Deal = tuple[list[str], int, list[int]]


@dataclass
class Figure:
    name: str
    value: float
    unit: str
    note: str = ""


def random_games(card_set: CardSet, players: int, games: int,
                 seed: int) -> tuple[float, float, float]:
    seconds, actions = _engine.bench_random_games(card_set, players, games, seed)
    return games / seconds, actions / seconds, actions / games


def copy_ns(state: _engine.State, iterations: int) -> tuple[float, float]:
    struct_s, memcpy_s = _engine.bench_copy(state, iterations)
    return struct_s / iterations * 1e9, memcpy_s / iterations * 1e9


def python_call_ns(statement: str, setup_globals: dict[str, Any], number: int) -> float:
    """Best of five: the least disturbed run on a shared machine."""
    timer = timeit.Timer(statement, globals=setup_globals)
    return min(timer.repeat(repeat=5, number=number)) / number * 1e9


def mid_game_state(card_set: CardSet, seed: int) -> _engine.State:
    state = _engine.State.new(card_set, players=2, seed=seed)
    state.playout_random(seed, max_actions=60)
    return state


def run_bench(games: int = 20000, seed: int = 1, card_set: CardSet | None = None,
              calls: int = 200000) -> list[Figure]:
    """All figures, in the order `coexist-ai bench` prints them."""
    card_set = card_set or default_card_set()
    figures = []
    for players in (2, 4):
        n = games if players == 2 else max(1, games // 2)
        per_s, actions_s, length = random_games(card_set, players, n, seed)
        figures.append(Figure(f"random games, {players} players (C, 1 core)",
                              per_s, "games/s", f"{length:.0f} actions a game"))
        figures.append(Figure(f"micro-actions, {players} players (C)",
                              actions_s / 1e6, "M actions/s",
                              "legal-move generation + apply"))
    state = mid_game_state(card_set, seed)
    struct_ns, memcpy_ns = copy_ns(state, 5_000_000)
    figures.append(Figure("state struct size", _engine.STATE_BYTES, "bytes"))
    figures.append(Figure("state copy (struct assignment)", struct_ns, "ns",
                          f"memcpy of the same bytes: {memcpy_ns:.1f} ns, "
                          f"ratio {struct_ns / memcpy_ns:.2f}"))
    env = {"s": state, "a": state.legal_actions()[0]}
    figures.append(Figure("Python API: s.is_over()",
                          python_call_ns("s.is_over()", env, calls), "ns",
                          "per-call overhead of the binding"))
    figures.append(Figure("Python API: s.current_player",
                          python_call_ns("s.current_player", env, calls), "ns"))
    figures.append(Figure("Python API: s.copy()",
                          python_call_ns("s.copy()", env, calls), "ns"))
    figures.append(Figure("Python API: s.legal_actions()",
                          python_call_ns("s.legal_actions()", env, calls), "ns"))
    figures.append(Figure("Python API: s.copy().apply(a) (checked)",
                          python_call_ns("s.copy().apply(a)", env, calls), "ns"))
    return figures


def format_figures(figures: Sequence[Figure]) -> str:
    width = max(len(f.name) for f in figures)
    lines = []
    for f in figures:
        value = f"{f.value:,.0f}" if f.value >= 100 else f"{f.value:,.2f}"
        note = f"  ({f.note})" if f.note else ""
        lines.append(f"{f.name:<{width}}  {value:>12} {f.unit}{note}")
    return "\n".join(lines)


# ---- the C engine against the pure-Python reference -------------------------

def random_deals(card_set: CardSet, players: int, games: int, seed: int) -> list[Deal]:
    """`games` deals (faunas, first player, deck order) drawn from the seed."""
    rng = random.Random(seed)
    deals: list[Deal] = []
    for _ in range(games):
        faunas = rng.sample(card_set.faunas(), players)
        deck = [c.index for c in card_set.cards if c.fauna in faunas]
        rng.shuffle(deck)
        deals.append((faunas, rng.randrange(players), deck))
    return deals


def _c_playouts(card_set: CardSet, players: int, deals: Iterable[Deal], seed: int) -> int:
    actions = 0
    for i, (faunas, first, deck) in enumerate(deals):
        state = _engine.State.new(card_set, players, faunas, first, deck=deck)
        actions += state.playout_random(seed + i)
    return actions


class _Playable(Protocol):
    """What a Python playout loop asks of a position (engine or reference)."""
    def is_over(self) -> bool: ...
    def legal_actions(self) -> list[int]: ...
    def apply(self, action: int) -> None: ...


# (card set, players, faunas, first player, deck) -> a new position
_NewState = Callable[[CardSet, int, list[str], int, list[int]], _Playable]
# (card set, players, deals, seed) -> actions played
_Loop = Callable[[CardSet, int, Sequence[Deal], int], int]


def _python_loop(new_state: _NewState) -> _Loop:
    """Random playouts driven from Python: legal_actions, choose, apply."""
    def play(card_set: CardSet, players: int, deals: Sequence[Deal], seed: int) -> int:
        rng, actions = random.Random(seed), 0
        for faunas, first, deck in deals:
            state = new_state(card_set, players, faunas, first, deck)
            while not state.is_over():
                state.apply(rng.choice(state.legal_actions()))
                actions += 1
        return actions
    return play


def _reference(explicit_chance: bool) -> _NewState:
    from coexist_ai.reference import ReferenceState
    return lambda card_set, players, faunas, first, deck: ReferenceState.new(
        card_set, players, faunas, first, deck, explicit_chance=explicit_chance)


PLAYOUT_LOOPS: tuple[tuple[str, _Loop], ...] = (
    ("C engine, State.playout_random", _c_playouts),
    ("C engine, Python loop", _python_loop(
        lambda card_set, players, faunas, first, deck: _engine.State.new(
            card_set, players, faunas, first, deck=deck))),
    ("reference, Python loop", _python_loop(_reference(False))),
    ("reference, explicit chance", _python_loop(_reference(True))),
)


def run_python_bench(card_set: CardSet | None = None, games: int = 200, seed: int = 1,
                     repeats: int = 3) -> list[Figure]:
    """Random playouts per second of the C engine and of the pure-Python
    reference (coexist_ai.reference) on the same deals, best of `repeats`.
    Python loops call legal_actions() and the checked apply() once a move;
    with explicit chance the refill's chance nodes count as moves."""
    card_set = card_set or default_card_set()
    figures = []
    for players in (2, 4):
        deals = random_deals(card_set, players, games, seed)
        rates: dict[str, float] = {}
        for name, loop in PLAYOUT_LOOPS:
            best, actions = 0.0, 0
            for _ in range(repeats):
                start = time.perf_counter()
                actions = loop(card_set, players, deals, seed)
                best = max(best, len(deals) / (time.perf_counter() - start))
            rates[name] = best
            figures.append(Figure(f"{name}, {players} players", best, "games/s",
                                  f"{best * actions / len(deals):,.0f} actions/s"))
        ratio = rates["C engine, Python loop"] / rates["reference, Python loop"]
        figures.append(Figure(f"C / reference, Python loops, {players} players",
                              ratio, "x"))
    return figures


# ---- search ---------------------------------------------------------------

def greedy_position(card_set: CardSet, players: int, seed: int,
                    actions: int) -> _engine.State:
    """A fixed mid-game position: `actions` moves of greedy self-play, then
    on to the first decision with a choice (a search of a forced move
    measures nothing: the tree is its root)."""
    state = _engine.State.new(card_set, players=players, seed=seed)
    played = 0
    while not state.is_over() and (played < actions or len(state.legal_actions()) < 2):
        state.apply(_search.greedy_choose(state.observation())[0])
        played += 1
    return state


# the search the `ismcts` bot ran by default before the learned evaluation,
# the prior on moves and the fitted rollouts became its defaults
HAND_SEARCH = "eval=hand,prior=0,policy=light"
# the default's rollouts before the fitted policy (coexist_ai/learn/policy.py)
LIGHT_ROLLOUTS = "policy=light"


def default_searcher(threads: int, max_nodes: int, seed: int,
                     settings: str = "", players: int = 2) -> _search.Searcher:
    """The search of the `ismcts` bot with its default settings (rollout
    depth, discount, reward, evaluation...) unless `settings` overrides
    some, set up for a game of `players`, so the figures are those of the
    bot users run; reuse is off so that every repeat starts from an empty
    tree."""
    spec = f"ismcts:threads={threads},max_nodes={max_nodes},reuse=false"
    spec += f",{settings}" if settings else ""
    bot = make_bot(spec, seed)
    assert isinstance(bot, IsmctsBot)
    bot.new_game(0, players)
    return bot.searcher


def search_rate(position: _engine.State, threads: int, iterations: int, seed: int = 1,
                repeats: int = 5, settings: str = "") -> tuple[float, float, float]:
    """Iterations per second of wall time and per second of CPU time (all
    threads), best of `repeats` fresh searches: on a shared machine the least
    disturbed run is the one closest to the truth."""
    best, best_cpu, per_node = 0.0, 0.0, 0.0
    for _ in range(repeats):
        searcher = default_searcher(threads, 4 * iterations, seed, settings,
                                    position.num_players)
        cpu = time.process_time()
        result = searcher.search(position.observation(), iterations=iterations)
        cpu = time.process_time() - cpu
        best = max(best, result["iterations"] / result["seconds"])
        best_cpu = max(best_cpu, result["iterations"] / max(cpu, 1e-9))
        per_node = result["bytes_per_node"]
    return best, per_node, best_cpu


def time_overshoot(position: _engine.State, budget: float, repeats: int) -> float:
    """Worst overshoot of a time budget, in seconds."""
    searcher = default_searcher(1, 200_000, 1)
    worst = 0.0
    for _ in range(repeats):
        result = searcher.search(position.observation(), seconds=budget)
        worst = max(worst, result["seconds"] - budget)
    return worst


def run_search_bench(card_set: CardSet | None = None, iterations: int = 20000,
                     seed: int = 7) -> list[Figure]:
    card_set = card_set or default_card_set()
    figures = []
    for players in (2, 4):
        position = greedy_position(card_set, players, seed, 40 * players)
        rates: dict[int, float] = {}
        per_cpu: dict[int, float] = {}
        for threads in (1, 2):
            rates[threads], per_node, per_cpu[threads] = search_rate(position, threads, iterations)
            figures.append(Figure(f"ISMCTS, {players} players, {threads} thread(s)",
                                  rates[threads], "iterations/s",
                                  f"round {position.rounds + 1}, {per_node:.0f} bytes/node"))
        figures.append(Figure(f"ISMCTS, {players} players, 2 threads / 1",
                              rates[2] / rates[1], "x", "wall clock"))
        # the learned evaluation at the cut-off (csrc/cx_learned.c) costs
        # its features and model at every leaf instead of the hand
        # estimate, and the prior an evaluation of every new move
        hand = search_rate(position, 1, iterations, settings=HAND_SEARCH)[0]
        figures.append(Figure(f"ISMCTS, {players} players, 1 thread, {HAND_SEARCH}",
                              hand, "iterations/s",
                              f"default: {rates[1] / hand:.2f}x of it"))
        # the fitted rollout policy computes features for every legal move
        # of every rollout decision, where the light one read a table
        light = search_rate(position, 1, iterations, settings=LIGHT_ROLLOUTS)[0]
        figures.append(Figure(f"ISMCTS, {players} players, 1 thread, {LIGHT_ROLLOUTS}",
                              light, "iterations/s",
                              f"default: {rates[1] / light:.2f}x of it"))
        # iterations per CPU-second say whether the threads slow each other
        # down, whatever else the machine runs: 2 x this ratio is the
        # speed-up two free cores give
        figures.append(Figure(f"ISMCTS, {players} players, per-CPU-second rate 2 threads / 1",
                              per_cpu[2] / per_cpu[1], "x",
                              f"2 free cores: {2 * per_cpu[2] / per_cpu[1]:.2f}x"))
    position = greedy_position(card_set, 2, seed, 80)
    for budget in (0.1, 0.5):
        worst = time_overshoot(position, budget, 5)
        figures.append(Figure(f"time budget {budget} s: worst overshoot of 5",
                              worst * 1000, "ms",
                              f"limit {budget * 50 + 5:.0f} ms (5% + 5 ms)"))
    return figures


# ---- seconds a turn -----------------------------------------------------------

def turn_seconds(card_set: CardSet, spec: str, games: int = 3,
                 seed: int = 1) -> list[Figure]:
    """Wall seconds `spec` takes per turn (all the decisions of its turn)
    in 2-player games against greedy, seat 0: what a person waits."""
    turns: list[float] = []
    choices: list[int] = []
    for g in range(games):
        state = _engine.State.new(card_set, players=2, seed=seed + g)
        bots = [make_bot(spec, seed + g), make_bot("greedy")]
        for seat, bot in enumerate(bots):
            bot.new_game(seat, 2)
        key = None
        while not state.is_over():
            seat = state.current_player
            obs = state.observation(seat)
            start = time.perf_counter()
            action = bots[seat].choose(obs)
            if seat == 0:
                if (state.rounds, seat) != key:
                    key = (state.rounds, seat)
                    turns.append(0.0)
                    choices.append(0)
                turns[-1] += time.perf_counter() - start
                choices[-1] += len(obs.legal_actions()) > 1
            state.apply(action)
        for bot in bots:
            bot.close()
    ordered = sorted(turns)
    note = f"{len(turns)} turns of {games} games against greedy"
    return [Figure(f"{spec}: seconds a turn, mean", sum(turns) / len(turns), "s", note),
            Figure(f"{spec}: seconds a turn, median", ordered[len(ordered) // 2], "s"),
            Figure(f"{spec}: seconds a turn, 90th percentile",
                   ordered[int(0.9 * len(ordered))], "s"),
            Figure(f"{spec}: seconds a turn, longest", ordered[-1], "s"),
            Figure(f"{spec}: decisions with a choice a turn", sum(choices) / len(choices),
                   "", f"most {max(choices)}")]


# ---- OpenSpiel's MCTS through the adapter ---------------------------------

OPENSPIEL_GAMES = (("C engine", "coexist"), ("reference", "coexist_reference"))


def _openspiel() -> tuple[Any, Any]:
    try:
        import pyspiel
        import coexist_ai.openspiel  # noqa: F401  (registers the games)
        from open_spiel.python.algorithms import mcts
    except ImportError as error:
        raise MissingDependencyError(
            f"bench --openspiel needs OpenSpiel ({error}); install it with "
            f"pip install 'coexist-ai[openspiel]'") from None
    return pyspiel, mcts


def openspiel_history(game: Any, moves: int, seed: int) -> list[int]:
    """`moves` seeded random actions from the start (chance included)."""
    import numpy as np
    rng, state = np.random.RandomState(seed), game.new_initial_state()
    for _ in range(moves):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    history: list[int] = state.history()
    return history


def mcts_rate(mcts: Any, game: Any, state: Any, simulations: int, seed: int,
              repeats: int) -> tuple[float, int | None]:
    """OpenSpiel's MCTSBot (random rollouts to the end): simulations per
    CPU-second (the search is one Python thread: CPU time is what a busy
    shared machine does not distort), best of `repeats`, and the move it
    chose (the same seeds make the same search on two implementations of
    the same rules)."""
    import numpy as np
    best, move = 0.0, None
    for _ in range(repeats):
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
        bot = mcts.MCTSBot(game, 2.0, simulations, evaluator,
                           random_state=np.random.RandomState(seed + 1))
        start = time.process_time()
        root = bot.mcts_search(state)
        best = max(best, simulations / max(time.process_time() - start, 1e-9))
        move = root.best_child().action
    return best, move


def run_openspiel_bench(cards_spec: str = "default", simulations: int = 200, seed: int = 1,
                        repeats: int = 3) -> list[Figure]:
    """MCTS simulations per second through `coexist_ai.openspiel`, over the
    C engine and over the pure-Python reference, from the same position."""
    pyspiel, mcts = _openspiel()
    figures = []
    for players in (2, 4):
        params = {"players": players, "seed": seed, "card_set": cards_spec}
        games = {name: pyspiel.load_game(short, params) for name, short in OPENSPIEL_GAMES}
        history = openspiel_history(games["C engine"], 40 * players, seed)
        rates: dict[str, float] = {}
        moves: dict[str, int | None] = {}
        for name, game in games.items():
            state = game.new_initial_state()
            for action in history:
                state.apply_action(action)
            rates[name], moves[name] = mcts_rate(mcts, game, state, simulations,
                                                 seed, repeats)
            figures.append(Figure(f"OpenSpiel MCTS, {players} players, {name}",
                                  rates[name], "simulations/CPU-s",
                                  f"{simulations} simulations, rollouts to the end, "
                                  f"after {len(history)} actions"))
        same = "same move" if moves["C engine"] == moves["reference"] else "different moves"
        figures.append(Figure(f"OpenSpiel MCTS, {players} players, C engine / reference",
                              rates["C engine"] / rates["reference"], "x", same))
    return figures
