"""The simulation that chose the tuner's default learning rate
(coexist_ai/tune/spsa.py, docs/tuning.md): SPSA on a simulated match of
two parameters, theta+ beating theta- by the Elo model, a bot losing Q Elo
per unit of squared distance (in ranges) from the optimum; for each
iteration count N and each total rate K = rate * N, the mean Elo the
tuned bot still lacks at the end, over many seeded runs.

    python tests/spsa_gains.py --runs 200
"""
import argparse
import random

from coexist_ai.tune.spsa import Dimension, Spsa, default_step

START, OPTIMUM = (0.15, 0.8), (0.6, 0.3)


def loss(theta, q):
    return q * sum((t - o) ** 2 for t, o in zip(theta, OPTIMUM))


def final_loss(rate, iterations, q, seed, games=2):
    dims = [Dimension(name, False, 0, 1, default_step(0, 1, False), start)
            for name, start in zip("xy", START)]
    spsa, rng = Spsa(dims, iterations, seed, rate=rate), random.Random(seed)
    theta = spsa.start()
    for k in range(iterations):
        plus, minus = spsa.perturbed(theta, k)
        p_plus = 1 / (1 + 10 ** ((loss(plus, q) - loss(minus, q)) / 400))
        result = sum(1 if rng.random() < p_plus else -1 for _ in range(games)) / games
        theta = spsa.update(theta, k, result)
    return loss(theta, q)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--iterations", type=int, nargs="+", default=[300, 3000])
    parser.add_argument("--q", type=float, nargs="+", default=[100, 300, 1000])
    parser.add_argument("--k", type=float, nargs="+", default=[50, 100, 200, 400, 800, 1600])
    args = parser.parse_args()
    print("N      Q   start  " + "  ".join(f"K={k:<5g}" for k in args.k))
    for n in args.iterations:
        for q in args.q:
            means = [sum(final_loss(k / n, n, q, seed) for seed in range(args.runs)) / args.runs
                     for k in args.k]
            print(f"{n:<6} {q:<4g} {loss(START, q):5.0f}  " +
                  "  ".join(f"{m:7.1f}" for m in means), flush=True)


if __name__ == "__main__":
    main()
