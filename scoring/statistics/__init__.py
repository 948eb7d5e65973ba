"""The statistics of Passonneau 2009 §4.2 and §5.2 over the scores.

- `significance.py` — Pearson's r with its interval, the one-way ANOVA, Tukey's HSD and the
  ANOVA power test, thin pure functions over SciPy and statsmodels;
- `ranking.py` — systems ranked: their means, the ANOVA with the system (and the docset) as
  factor, Tukey's groups ("better than") (pure).
"""
