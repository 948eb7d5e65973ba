"""Text helpers every part uses, free of Django: words (`words.py`, the unit pages and agreement
count in), selections snapped to words (`selection.py`), runs of text under the same spans for
shading (`textmarks.py`), names sorted as people read them (`ordering.py`) and counts in words
(`plurals.py`).

Also:

- `sentences.py` — where the sentences of a summary start
"""
