"""Rewrite tournaments/results/README.md from the published records: every
table is the output of the `coexist-ai tournament ratings` command written
above it (no game is replayed). Run from the repository's root:

    python tournaments/results/regenerate_readme.py

tests/test_ratings.py checks that the README says what the commands print.
"""
import shlex
import subprocess

R = "tournaments/results"
PLAYED = {
    "quick.jsonl": "coexist-ai tournament run tournaments/quick.toml --out tournaments/results/quick.jsonl",
    "ladder.jsonl": "coexist-ai tournament run tournaments/ladder.toml --out tournaments/results/ladder.jsonl",
    "four.jsonl": "coexist-ai tournament run tournaments/four.toml --out tournaments/results/four.jsonl",
    "levels.jsonl": "coexist-ai tournament run tournaments/levels.toml --out tournaments/results/levels.jsonl",
    "duel-10k-greedy.jsonl": "coexist-ai duel ismcts:iterations=10000 greedy --games 200 --seed 1 --cards reconstructed-v1 --out tournaments/results/duel-10k-greedy.jsonl",
    "duel-100k-greedy.jsonl": "coexist-ai duel ismcts:iterations=100000,max_nodes=3000000 greedy --games 60 --seed 3 --cards reconstructed-v1 --out tournaments/results/duel-100k-greedy.jsonl",
    "duel-100k-random.jsonl": "coexist-ai duel ismcts:iterations=100000,max_nodes=3000000 random --games 10 --seed 3 --cards reconstructed-v1 --out tournaments/results/duel-100k-random.jsonl",
    "duel-100k-10k.jsonl": "coexist-ai duel ismcts:iterations=100000,max_nodes=3000000 ismcts:iterations=10000 --games 40 --seed 3 --cards reconstructed-v1 --out tournaments/results/duel-100k-10k.jsonl",
    "duel-10k-1k.jsonl": "coexist-ai duel ismcts:iterations=10000 ismcts:iterations=1000 --games 200 --seed 5 --jobs 1 --cards reconstructed-v2 --out tournaments/results/duel-10k-1k.jsonl",
    "duel-10k-1k-learned-noprior.jsonl": "coexist-ai duel ismcts:iterations=10000,prior=0 ismcts:iterations=1000,prior=0 --games 100 --seed 5 --jobs 1 --cards reconstructed-v2 --out tournaments/results/duel-10k-1k-learned-noprior.jsonl",
    "duel-10k-1k-hand-prior.jsonl": "coexist-ai duel ismcts:iterations=10000,eval=hand ismcts:iterations=1000,eval=hand --games 100 --seed 5 --jobs 1 --cards reconstructed-v2 --out tournaments/results/duel-10k-1k-hand-prior.jsonl",
    "duel-10k-1k-plain.jsonl": "coexist-ai duel ismcts:iterations=10000,eval=hand,prior=0 ismcts:iterations=1000,eval=hand,prior=0 --games 100 --seed 5 --jobs 1 --cards reconstructed-v2 --out tournaments/results/duel-10k-1k-plain.jsonl",
    "duel-10k-learned-hand.jsonl": "coexist-ai duel ismcts:iterations=10000 ismcts:iterations=10000,eval=hand --games 100 --seed 5 --jobs 1 --cards reconstructed-v2 --out tournaments/results/duel-10k-learned-hand.jsonl",
    "duel-learned-hand-0.1s.jsonl": "coexist-ai duel ismcts:time=0.1,eval=learned ismcts:time=0.1 --games 200 --players 2 --seed 1 --jobs 2 --cards reconstructed-v1 --out tournaments/results/duel-learned-hand-0.1s.jsonl",
    "duel-learned-hand-0.1s-4p.jsonl": "coexist-ai duel ismcts:time=0.1,eval=learned ismcts:time=0.1 --games 60 --players 4 --seed 2 --jobs 2 --cards reconstructed-v1 --out tournaments/results/duel-learned-hand-0.1s-4p.jsonl",
    "duel-learned-main-0.1s.jsonl": "coexist-ai duel ismcts:time=0.1,eval=learned \"cmd:move_time=0.125 /tmp/baseline-main/bin/coexist-ai serve ismcts:time=0.1\" --games 200 --players 2 --seed 11 --jobs 2 --cards reconstructed-v1 --out tournaments/results/duel-learned-main-0.1s.jsonl",
    "duel-learned-main-0.1s-4p.jsonl": "coexist-ai duel ismcts:time=0.1,eval=learned \"cmd:move_time=0.125 /tmp/baseline-main/bin/coexist-ai serve ismcts:time=0.1\" --games 60 --players 4 --seed 12 --jobs 2 --cards reconstructed-v1 --out tournaments/results/duel-learned-main-0.1s-4p.jsonl",
    "duel-prior-main-0.1s-4p.jsonl": "coexist-ai duel ismcts:time=0.1,eval=learned,prior=3 \"cmd:move_time=0.125 /tmp/baseline-main/bin/coexist-ai serve ismcts:time=0.1\" --games 60 --players 4 --seed 12 --jobs 1 --cards reconstructed-v2 --out tournaments/results/duel-prior-main-0.1s-4p.jsonl",
    "duel-default-main-0.1s.jsonl": "coexist-ai duel ismcts:time=0.1 \"cmd:move_time=0.125 /tmp/baseline-main/bin/coexist-ai serve ismcts:time=0.1\" --games 200 --players 2 --seed 11 --jobs 1 --cards reconstructed-v2 --out tournaments/results/duel-default-main-0.1s.jsonl",
    "duel-default-main-0.1s-4p.jsonl": "coexist-ai duel ismcts:time=0.1 \"cmd:move_time=0.125 /tmp/baseline-main/bin/coexist-ai serve ismcts:time=0.1\" --games 100 --players 4 --seed 12 --jobs 1 --cards reconstructed-v2 --out tournaments/results/duel-default-main-0.1s-4p.jsonl",
    "duel-tuned-main-0.1s.jsonl": "coexist-ai duel ismcts:time=0.1,c=0.261,prior=4.39,margin_weight=0.056,rollout_depth=6 \"cmd:move_time=0.125 /tmp/baseline-main/bin/coexist-ai serve ismcts:time=0.1\" --games 200 --players 2 --seed 11 --jobs 1 --cards reconstructed-v2 --out tournaments/results/duel-tuned-main-0.1s.jsonl",
    "duel-prior-main-0.1s.jsonl": "coexist-ai duel ismcts:time=0.1,eval=learned,prior=3 \"cmd:move_time=0.125 /tmp/baseline-main/bin/coexist-ai serve ismcts:time=0.1\" --games 200 --players 2 --seed 11 --jobs 1 --cards reconstructed-v2 --out tournaments/results/duel-prior-main-0.1s.jsonl",
    "duel-default-main-1s.jsonl": "coexist-ai duel ismcts:time=1 \"cmd:move_time=1.25 /tmp/baseline-main/bin/coexist-ai serve ismcts:time=1\" --games 200 --players 2 --seed 13 --jobs 1 --cards reconstructed-v2 --out tournaments/results/duel-default-main-1s.jsonl",
    "duel-default-main-1s-4p.jsonl": "coexist-ai duel ismcts:time=1 \"cmd:move_time=1.25 /tmp/baseline-main/bin/coexist-ai serve ismcts:time=1\" --games 100 --players 4 --seed 14 --jobs 1 --cards reconstructed-v2 --out tournaments/results/duel-default-main-1s-4p.jsonl",
    "duel-fitted-main-0.1s.jsonl": "coexist-ai duel ismcts:time=0.1,policy=fitted \"cmd:move_time=0.125 /tmp/baseline-main/bin/coexist-ai serve ismcts:time=0.1\" --games 200 --players 2 --seed 11 --jobs 1 --cards reconstructed-v2 --out tournaments/results/duel-fitted-main-0.1s.jsonl",
    "duel-fitted-main-0.1s-4p.jsonl": "coexist-ai duel ismcts:time=0.1,policy=fitted \"cmd:move_time=0.125 /tmp/baseline-main/bin/coexist-ai serve ismcts:time=0.1\" --games 100 --players 4 --seed 12 --jobs 1 --cards reconstructed-v2 --out tournaments/results/duel-fitted-main-0.1s-4p.jsonl",
    "duel-fitted-main-1s-4p.jsonl": "coexist-ai duel ismcts:time=1,policy=fitted \"cmd:move_time=1.25 /tmp/baseline-main/bin/coexist-ai serve ismcts:time=1\" --games 100 --players 4 --seed 14 --jobs 1 --cards reconstructed-v2 --out tournaments/results/duel-fitted-main-1s-4p.jsonl",
    "duel-10k-1k-fitted.jsonl": "coexist-ai duel ismcts:iterations=10000 ismcts:iterations=1000 --games 200 --seed 5 --jobs 1 --cards reconstructed-v2 --out tournaments/results/duel-10k-1k-fitted.jsonl",
    "duel-100k-10k-fitted.jsonl": "coexist-ai duel ismcts:iterations=100000,max_nodes=3000000,policy=fitted ismcts:iterations=10000,policy=fitted --games 100 --seed 3 --jobs 1 --cards reconstructed-v2 --out tournaments/results/duel-100k-10k-fitted.jsonl",
    "duel-10k-1k-v6.jsonl": "coexist-ai duel ismcts:iterations=10000 ismcts:iterations=1000 --games 200 --seed 5 --jobs 2 --out tournaments/results/duel-10k-1k-v6.jsonl",
    "duel-default-main-0.1s-v6.jsonl": "coexist-ai duel ismcts:time=0.1 \"cmd:move_time=0.125 /tmp/baseline-main/bin/coexist-ai serve --cards /work/main/coexist_ai/data/reconstructed-v6.toml ismcts:time=0.1\" --games 200 --players 2 --seed 11 --jobs 2 --out tournaments/results/duel-default-main-0.1s-v6.jsonl",
    "duel-default-main-0.1s-4p-v6.jsonl": "coexist-ai duel ismcts:time=0.1 \"cmd:move_time=0.125 /tmp/baseline-main/bin/coexist-ai serve --cards /work/main/coexist_ai/data/reconstructed-v6.toml ismcts:time=0.1\" --games 100 --players 4 --seed 12 --jobs 2 --out tournaments/results/duel-default-main-0.1s-4p-v6.jsonl",
    "duel-policy6-main-0.1s-v6.jsonl": "coexist-ai duel ismcts:time=0.1,policy_model=tournaments/results/screens/policy-v6.json \"cmd:move_time=0.125 /tmp/baseline-main/bin/coexist-ai serve --cards /work/main/coexist_ai/data/reconstructed-v6.toml ismcts:time=0.1\" --games 200 --players 2 --seed 21 --jobs 2 --out tournaments/results/duel-policy6-main-0.1s-v6.jsonl",
    "duel-policy6-main-0.1s-4p-v6.jsonl": "coexist-ai duel ismcts:time=0.1,policy_model=tournaments/results/screens/policy-v6.json \"cmd:move_time=0.125 /tmp/baseline-main/bin/coexist-ai serve --cards /work/main/coexist_ai/data/reconstructed-v6.toml ismcts:time=0.1\" --games 100 --players 4 --seed 22 --jobs 2 --out tournaments/results/duel-policy6-main-0.1s-4p-v6.jsonl",
    "duel-default-main-1s-4p-v6.jsonl": "coexist-ai duel ismcts:time=1 \"cmd:move_time=1.25 /tmp/baseline-main/bin/coexist-ai serve --cards /work/main/coexist_ai/data/reconstructed-v6.toml ismcts:time=1\" --games 100 --players 4 --seed 14 --jobs 2 --out tournaments/results/duel-default-main-1s-4p-v6.jsonl",
    "duel-depth16-main-1s-4p-v6.jsonl": "coexist-ai duel ismcts:time=1,rollout_depth=16 \"cmd:move_time=1.25 /tmp/baseline-main/bin/coexist-ai serve --cards /work/main/coexist_ai/data/reconstructed-v6.toml ismcts:time=1\" --games 100 --players 4 --seed 24 --jobs 2 --out tournaments/results/duel-depth16-main-1s-4p-v6.jsonl",
    "duel-depth16-main-0.1s-4p-v6.jsonl": "coexist-ai duel ismcts:time=0.1,rollout_depth=16 \"cmd:move_time=0.125 /tmp/baseline-main/bin/coexist-ai serve --cards /work/main/coexist_ai/data/reconstructed-v6.toml ismcts:time=0.1\" --games 100 --players 4 --seed 25 --jobs 2 --out tournaments/results/duel-depth16-main-0.1s-4p-v6.jsonl",
}
HEAD = """# Published results

Records (one JSON line per game, `docs/formats.md`) and the tables
`coexist-ai tournament ratings` prints from them, record by record, no game
replayed (`python tournaments/results/regenerate_readme.py` rewrites this
page). 2 players unless said, duplicate deals, the bots' defaults of the
commit that played them. The configs' tables (quick, ladder, four, levels)
are played on the default card set (reconstructed-v6) by this commit's bots
(`tests/test_published.py` replays their games). A duel's command names its
card set: those with `--cards reconstructed-v2` were played when v2 was the
default (until 2026-12-07), those with `--cards reconstructed-v1` when v1
was, by the bots of that time; on v1: there `ismcts` without `eval` or
`prior` is `eval=hand,prior=0` and `eval=learned` reads the v1 model
(`model=v1` today). The duels on v6 were played with the fitted
rollouts, those before `duel-policy6-*` with the weights fitted on v2
(`policy_model=v2` today). Every other duel but the `*-fitted*` ones was
played when the light rollouts were the default: there `ismcts` without
`policy` is `policy=light`. Played on a 2-core machine; `--jobs` changes nothing
in the games.

How to read a table (README, "Tournaments and Elo"): Elo is the
Bradley-Terry fit of the pairwise results with one virtual drawn game per
pair that met; intervals come from a bootstrap over deals (every game of a
round shares its deal, so a round robin of 20 rounds has 20 deals, and
files played with the same seed share their deals); `[+406, inf]` is a
one-sided bound: a bot that won every game against the anchor has no upper
bound, and what its record proves is the lower one. Random lost every game
in `quick` and `ladder`, so their tables anchored at random bound every
other bot only from below; the tables anchored at greedy measure the
differences between the others.
"""
PERFECT = ("10 wins in 10 games: the Elo of a perfect score is unbounded; +529 is what "
           "the fit's prior of one drawn game allows, and the interval is the lower bound "
           "that ten straight wins prove (the expected score is at least 0.025^(1/10) = "
           "69%, +140 Elo).\n\n")
MAIN = ("The second bot is the default `ismcts` of commit 1696165 served over the protocol, "
        "built by `tools/build-baseline.sh 1696165 /tmp/baseline-main` (README, "
        "\"Stronger at equal time\").\n\n")
V6_SERVED = ("Main's build knows no reconstructed-v6 by name, so it is served with the set's "
             "file (`serve --cards`), here at the path of the checkout that played.\n\n")
V2_WEIGHTS = ("Played when the rollout weights fitted on v2 were the default: today "
              "`policy_model=v2`.\n\n")
V6_WEIGHTS = ("Played before the weights fitted on v6 shipped, so the record names them by the "
              "screen's file, weight for weight today's default (`policy_model=default`).\n\n")
DEPTH16 = ("Played before `rollout_depth=-1` (four rounds: 16 turns at 4 players) became the "
           "default, so the record spells the depth; today `ismcts:time=T` plays the same "
           "search at 4 players.\n\n")
EIGHT_TURNS = ("Played when rollouts were cut off after 8 turns at every player count: at 4 "
               "players today that is `rollout_depth=8`.\n\n")
SECTIONS = [  # title, files, anchor, text before the command
    ("quick.toml → quick.jsonl", ["quick.jsonl"], None, ""),
    ("quick.jsonl, anchored at greedy", ["quick.jsonl"], "greedy", ""),
    ("ladder.toml → ladder.jsonl", ["ladder.jsonl"], None, ""),
    ("ladder.jsonl, anchored at greedy", ["ladder.jsonl"], "greedy", ""),
    ("four.toml → four.jsonl (4 players)", ["four.jsonl"], None, ""),
    ("levels.toml → levels.jsonl (the difficulty levels)", ["levels.jsonl"], None, ""),
    ("levels.jsonl, anchored at greedy", ["levels.jsonl"], "greedy", ""),
    ("duel-10k-1k.jsonl (the default search, reconstructed-v2)", ["duel-10k-1k.jsonl"],
     "ismcts:iterations=1000", ""),
    ("duel-10k-1k-learned-noprior.jsonl (the learned evaluation alone)",
     ["duel-10k-1k-learned-noprior.jsonl"], "ismcts:iterations=1000,prior=0", ""),
    ("duel-10k-1k-hand-prior.jsonl (the prior alone)", ["duel-10k-1k-hand-prior.jsonl"],
     "ismcts:iterations=1000,eval=hand", ""),
    ("duel-10k-1k-plain.jsonl (the plain search)", ["duel-10k-1k-plain.jsonl"],
     "ismcts:iterations=1000,eval=hand,prior=0", ""),
    ("duel-10k-learned-hand.jsonl (the two evaluations at 10k)", ["duel-10k-learned-hand.jsonl"],
     "ismcts:iterations=10000,eval=hand", ""),
    ("duel-10k-greedy.jsonl", ["duel-10k-greedy.jsonl"], "greedy", ""),
    ("duel-100k-greedy.jsonl", ["duel-100k-greedy.jsonl"], "greedy", ""),
    ("duel-100k-random.jsonl", ["duel-100k-random.jsonl"], "random", PERFECT),
    ("duel-100k-10k.jsonl", ["duel-100k-10k.jsonl"], "ismcts:iterations=10000", ""),
    ("duel-learned-hand-0.1s.jsonl", ["duel-learned-hand-0.1s.jsonl"], "ismcts:time=0.1", ""),
    ("duel-learned-hand-0.1s-4p.jsonl (4 players)", ["duel-learned-hand-0.1s-4p.jsonl"],
     "ismcts:time=0.1", ""),
    ("duel-learned-main-0.1s.jsonl", ["duel-learned-main-0.1s.jsonl"], "coexist-ai ismcts", MAIN),
    ("duel-learned-main-0.1s-4p.jsonl (4 players)", ["duel-learned-main-0.1s-4p.jsonl"],
     "coexist-ai ismcts", MAIN),
    ("duel-default-main-0.1s.jsonl (the default against main's, reconstructed-v2)",
     ["duel-default-main-0.1s.jsonl"], "coexist-ai ismcts", MAIN),
    ("duel-default-main-0.1s-4p.jsonl (4 players, the default against main's, reconstructed-v2)",
     ["duel-default-main-0.1s-4p.jsonl"], "coexist-ai ismcts", MAIN),
    ("duel-prior-main-0.1s.jsonl (reconstructed-v2, the v1 model)", ["duel-prior-main-0.1s.jsonl"],
     "coexist-ai ismcts", MAIN),
    ("duel-prior-main-0.1s-4p.jsonl (4 players, reconstructed-v2, the v1 model)",
     ["duel-prior-main-0.1s-4p.jsonl"], "coexist-ai ismcts", MAIN),
    ("duel-tuned-main-0.1s.jsonl (the SPSA run's values at 2 players against main's, reconstructed-v2)",
     ["duel-tuned-main-0.1s.jsonl"], "coexist-ai ismcts", MAIN),
    ("duel-default-main-1s.jsonl (1 s a move, the previous default against main's, reconstructed-v2)",
     ["duel-default-main-1s.jsonl"], "coexist-ai ismcts", MAIN),
    ("duel-default-main-1s-4p.jsonl (4 players, 1 s a move, the previous default against main's)",
     ["duel-default-main-1s-4p.jsonl"], "coexist-ai ismcts", MAIN),
    ("duel-fitted-main-0.1s.jsonl (the default, fitted rollouts, against main's, reconstructed-v2)",
     ["duel-fitted-main-0.1s.jsonl"], "coexist-ai ismcts", MAIN),
    ("duel-fitted-main-0.1s-4p.jsonl (4 players, the default, fitted rollouts, against main's)",
     ["duel-fitted-main-0.1s-4p.jsonl"], "coexist-ai ismcts", MAIN),
    ("duel-fitted-main-1s-4p.jsonl (4 players, 1 s a move, the default, fitted rollouts, against main's)",
     ["duel-fitted-main-1s-4p.jsonl"], "coexist-ai ismcts", MAIN),
    ("duel-10k-1k-fitted.jsonl (the default search with fitted rollouts)", ["duel-10k-1k-fitted.jsonl"],
     "ismcts:iterations=1000", ""),
    ("duel-100k-10k-fitted.jsonl (the default search, 100k against 10k)",
     ["duel-100k-10k-fitted.jsonl"], "ismcts:iterations=10000,policy=fitted", ""),
    ("duel-10k-1k-v6.jsonl (the default search with the v2 rollout weights, reconstructed-v6)", ["duel-10k-1k-v6.jsonl"],
     "ismcts:iterations=1000", ""),
    ("duel-default-main-0.1s-v6.jsonl (the default with the v2 rollout weights against main's, "
     "reconstructed-v6)", ["duel-default-main-0.1s-v6.jsonl"], "coexist-ai ismcts",
     MAIN + V6_SERVED + V2_WEIGHTS),
    ("duel-default-main-0.1s-4p-v6.jsonl (4 players, the default with the v2 rollout weights "
     "against main's, reconstructed-v6)", ["duel-default-main-0.1s-4p-v6.jsonl"],
     "coexist-ai ismcts", MAIN + V6_SERVED + V2_WEIGHTS),
    ("duel-policy6-main-0.1s-v6.jsonl (the default against main's, reconstructed-v6)",
     ["duel-policy6-main-0.1s-v6.jsonl"], "coexist-ai ismcts", MAIN + V6_SERVED + V6_WEIGHTS),
    ("duel-policy6-main-0.1s-4p-v6.jsonl (4 players, the default against main's, "
     "reconstructed-v6)", ["duel-policy6-main-0.1s-4p-v6.jsonl"], "coexist-ai ismcts",
     MAIN + V6_SERVED + V6_WEIGHTS),
    ("duel-default-main-1s-4p-v6.jsonl (4 players, 1 s a move, the default against main's, "
     "reconstructed-v6)", ["duel-default-main-1s-4p-v6.jsonl"], "coexist-ai ismcts",
     MAIN + V6_SERVED),
    ("duel-depth16-main-1s-4p-v6.jsonl (4 players, 1 s a move, rollouts of 16 turns against "
     "main's, reconstructed-v6)", ["duel-depth16-main-1s-4p-v6.jsonl"], "coexist-ai ismcts",
     MAIN + V6_SERVED + DEPTH16),
    ("duel-depth16-main-0.1s-4p-v6.jsonl (4 players, rollouts of 16 turns against main's, "
     "reconstructed-v6)", ["duel-depth16-main-0.1s-4p-v6.jsonl"], "coexist-ai ismcts",
     MAIN + V6_SERVED + DEPTH16),
    ("quick and ladder merged (one bot under its config name and its spec)",
     ["quick.jsonl", "ladder.jsonl"], "greedy", ""),
]


def section(title, files, anchor, text):
    # every 4-player duel but the depth16 ones was played with 8-turn rollouts
    if "-4p" in files[0] and "depth16" not in files[0]:
        text += EIGHT_TURNS
    args = ["tournament", "ratings", *[f"{R}/{f}" for f in files]]
    args += ["--anchor", anchor] if anchor else []
    table = subprocess.run(["coexist-ai", *args], capture_output=True, text=True,
                           check=True).stdout.rstrip("\n")
    played = f"`{PLAYED[files[0]]}`\n\n" if len(files) == 1 and "anchored" not in title else ""
    return f"## {title}\n\n{played}{text}`coexist-ai {shlex.join(args)}`\n\n```\n{table}\n```\n"


if __name__ == "__main__":
    with open(f"{R}/README.md", "w", encoding="utf-8") as f:
        f.write("\n".join([HEAD] + [section(*s) for s in SECTIONS]))
