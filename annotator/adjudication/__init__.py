"""Adjudication: comparing annotators' work on the same docset and merging it into a consensus.

- `alignment.py` — pure: the SCUs of two or more pyramids aligned by the words they cover.
- `aligned_pyramids.py` — the same, from the stored records (one query per pyramid set).
- `pyramid_consensus.py`, `annotation_consensus.py` — a consensus pyramid or peer annotation,
  decided group by group (or SCU by SCU), each decision an ordinary, undoable edit.
- `overlaps.py` — model words two SCUs of a consensus both cover (counted twice);
  `merge_words.py` — the words some annotators marked and others did not.
- `merging.py` — what the comparison and merge pages show (the groups, each side's SCUs, Undo
  and Redo).
- `queue.py` — what waits for an adjudicator.
- `api.py`, `serializers.py` — the consensus actions of the REST API's pyramids and peer
  annotations.
- `views/` — the comparison pages (`compare.py`) and the merge pages (`consensus.py`).
- `models.py` — the records of consensus work (issues 8 and 15)
"""
