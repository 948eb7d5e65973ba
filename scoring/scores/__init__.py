"""The pyramid scores of peer annotations (Passonneau 2009 eqs. 1-2, DUCView's quality, coverage
and comprehensive scores, power means and the TAC 2008 F-measure), and where they are shown.

- `pyramid.py` — the equations (pure);
- `variants.py` — power-mean scores and the TAC 2008 F-measure (Maskey & Rosenberg; pure);
- `tables.py` — score rows sorted, system means over docsets (pure);
- `formats.py` — CSV, JSON and NIST's table layout (pure);
- `records.py` — the annotations that count, loaded in bulk and scored;
- `score_table.py` — the scores page's table: ordered in SQL, a page scored, stored scores;
- `system_means.py` — each system's means, kept until the collection changes;
- `exports.py` — downloads streamed as the rows are scored;
- `views.py` — the scores page; `api.py` — `/api/scores/`.
"""
