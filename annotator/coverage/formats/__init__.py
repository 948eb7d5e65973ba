"""Reading and writing unit sets in the formats the community uses (issue 21): REALSumm's CSV files
(realsumm) and Lite²/Lite³Pyramid's folder (lite_pyramid). Pure Python, no Django: the readers
give the plain records of records.py, which annotator.coverage.importing stores."""
