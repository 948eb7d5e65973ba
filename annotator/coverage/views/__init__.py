"""The coverage pages (issue 21): making and editing unit sets (`unit_sets`); the judging page
and judgment tasks (`judging`).

Modules:

- `judging.py` — the judging page (issue 21)
- `unit_sets.py` — a docset's unit sets (issue 21)
"""
