"""`coexist-ai tune`: a bot's numeric parameters tuned by SPSA over
duplicate deals (spsa.py: the algorithm; settings.py: what a run is;
plan.py: the games of an iteration; store.py: the run's folder; run.py:
the run, resumable from its records)."""
from coexist_ai.tune.run import Outcome, tune
from coexist_ai.tune.settings import Settings, TuneError

__all__ = ["Outcome", "Settings", "TuneError", "tune"]
