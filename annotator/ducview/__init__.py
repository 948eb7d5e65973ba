"""DUCView files (.pyr pyramids, .pan peer annotations): reading, writing and their text layout.

Everything in this package is free of Django: it turns bytes into plain dataclasses and back.
Offsets inside these dataclasses are Python code points into the DUCView document text;
conversion from and to DUCView's UTF-16 code units happens only at the file boundary.
"""

from annotator.ducview.errors import DucviewError

__all__ = ["DucviewError"]
