"""The scoring app: scores, agreement and statistics, from the stored records.

One package per concept; in each, pure functions with the equation each implements and its source
(free of Django: tests/project/test_layers.py), and thin layers that load the records in bulk and
call them (`records.py`):

- `scores/` — the pyramid scores of peer annotations, their tables, exports, page and API;
- `agreement/` — Krippendorff's alpha over peer annotations and pyramids;
- `statistics/` — the tests the papers use (ANOVA, Tukey's HSD, power) and systems ranked;
- `judgments/` — scores against human judgments;
- `coverage/` — the scores of coverage judgments (SEE, unit presence) and their analyses;
- `stability/` — pyramid size and stability, optimal summaries, jackknife;
- `reports/` — the organizers' reports, one module per report, their plots and pages;
- `numbers.py` — numbers as the tables and reports print them;
- `models.py` — what scoring keeps: reports, stored scores and system means (caches of the
  records); `urls.py`, `admin.py`, `apps.py`; `management/commands/` — the commands.
"""
