"""Campaign pages: collections (`collections.py`), work (`work.py`), the home page (`home.py`)."""
