"""Adjudication pages: comparing pyramids and annotations (`compare.py`), merging them
(`consensus.py`)."""
