"""DUCView files (.pyr pyramids, .pan peer annotations): reading, writing and their text layout.

Everything in this package is free of Django: it turns bytes into plain dataclasses and back.
Offsets inside these dataclasses are Python code points into the DUCView document text;
conversion from and to DUCView's UTF-16 code units happens only at the file boundary.

Modules:

- `anchoring.py` — checking a part's offsets against its label, and re-anchoring the few that
  disagree
- `errors.py` — the error a DUCView file is refused with, naming the file, line and field
- `fingerprints.py` — what makes two pyramids (or two peer annotations) the same content, as one
  hash
- `layout.py` — where the model summaries lie in a DUCView pyramid text
- `names.py` — what a DUCView file is about: docset, peer and annotator, from its name or its
  export note
- `offsets.py` — DUCView's UTF-16 offsets from and to Python's code points
- `reader.py` — parse DUCView .pyr and .pan files into plain dataclasses
- `reconcile.py` — two copies of one summary that differ only by artefacts of how they were
  saved, and the offsets of one copy translated into the other
- `writer.py` — write DUCView 1.4 files
"""

from annotator.ducview.errors import DucviewError

__all__ = ["DucviewError"]
