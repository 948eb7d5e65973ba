"""The scoring app: scores, agreement and statistics.

Pure functions with the equation each implements and its source (`pyramid.py`, `variants.py`,
`agreement.py`, `agreement_units.py`, `statistics.py`, `correlation.py`, `ranking.py`,
`stability.py`, `numbers.py`, `tables.py`, `formats.py`, `plots.py`), and thin layers that load
the records in bulk and call them (`records.py`, `agreement_records.py`, `judgment_records.py`,
`stability_records.py`, `reports.py`); the score pages, reports and API (`views.py`,
`report_views.py`, `api.py`).
"""
