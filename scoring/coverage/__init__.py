"""The scores of coverage judgments (issue 21): SEE coverage (Harman & Over 2004) and unit presence
(Lite Pyramid, REALSumm), and their analyses.

- `scores.py` — a peer's presence, weighted presence and SEE coverage (pure);
- `analysis.py` — alpha over the judges, coverage differences between models and judges, the
  ANOVA with judge, system and docset (Harman & Over 2004 Figs. 3-10, Table 1);
- `records.py` — the judgment tasks that count, loaded in bulk and scored;
- `tables.py` — each system's means, rows and means sorted, task counts;
- `api.py` — `/api/coverage-scores/`.
"""
