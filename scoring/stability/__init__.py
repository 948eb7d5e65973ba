"""Pyramid size and stability (Nenkova & Passonneau 2004 §3.3).

- `analysis.py` — sub-pyramids of every subset of models, scores by pyramid order, error
  probabilities, optimal summaries, jackknifed scores (pure);
- `records.py` — a pyramid and its peer annotations loaded in bulk for it.
"""
