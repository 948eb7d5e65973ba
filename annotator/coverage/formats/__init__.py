"""Reading and writing unit sets in the formats the community uses (issue 21): REALSumm's CSV files
(realsumm) and Lite²/Lite³Pyramid's folder (lite_pyramid). Pure Python, no Django: the readers
give the plain records of records.py, which annotator.coverage.importing stores.

Modules:

- `lite_pyramid.py` — lite²/Lite³Pyramid's folder (Zhang & Bansal 2021
- `realsumm.py` — rEALSumm's files (Bhandari et al
- `records.py` — what a unit file holds, as plain records
"""
