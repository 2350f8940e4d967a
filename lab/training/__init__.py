"""Training woodpecker's own claim-vs-evidence verifier (a MiniLM cross-encoder) on CPU.

- `pairs`: the labelled pair type.
- `data`: training (test halves) and validation (dev halves) sets from the licensed benchmarks.
- `synthetic`, `perturb`, `paraphrase`: pairs made from real text by editing it (figures, dates,
  units, entities, negation, quantifiers, roles; meaning-keeping edits; other windows).
- `train`, `metrics`, `report`: the training loop, calibration, validation measures and the report.
- `command`: `woodpecker train-verifier` / `make train-verifier`; `tune`: threshold choice on FaithBench dev.
"""
