"""Scores against human judgments (DUC's content and linguistic quality tables, or a CSV).

- `correlation.py` — Pearson, Spearman and Kendall with p-values that mean something (pure);
- `records.py` — each peer's scores and judgments loaded in bulk, correlated at the summary and
  the system level, alpha of the power mean tuned on half the docsets.
"""
