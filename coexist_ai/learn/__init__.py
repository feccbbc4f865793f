"""The learned evaluation: features of a position (features.py, the
reference of csrc/cx_learned.c), self-play positions labelled with their
final results (selfplay.py), a model trained on them with numpy (train.py)
and the model file that ships in the package (model.py,
coexist_ai/data/learned-eval.npz). `coexist-ai train` trains it again.
The fitted rollout policy's features, weight file and fit are policy.py;
`coexist-ai fit-policy` fits it again."""
