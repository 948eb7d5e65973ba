"""The organizers' reports of a collection, computed in the background and kept until the records
change, each on a page with its tables and plots.

- `compute.py` — the reports by kind, their fingerprint, the background task that computes one;
- `results.py` — the building blocks of a result (tables, numbers, sentences);
- one module per report: `peer_agreement.py`, `pyramid_agreement.py`, `ranking.py`,
  `correlation.py`, `stability.py`, `pyramids.py`, `work_time.py`, `suggestions_taken.py`,
  `proposals.py`, `coverage.py`;
- `plots.py` — the plots, as SVG drawn on the server (pure);
- `views.py` — the reports' pages and downloads.
"""
