"""DUCView (Java) counts offsets in UTF-16 code units; Python strings count code points.

The two agree for text in the Basic Multilingual Plane; a character outside it (an emoji, say)
takes two UTF-16 units. These helpers convert in both directions for one text.
"""

import re
from bisect import bisect_right

ASTRAL = re.compile("[\U00010000-\U0010ffff]")


class OffsetMap:
    """Converts offsets into one text between UTF-16 code units and code points."""

    def __init__(self, text: str):
        # Code point positions of the characters that take two UTF-16 units.
        self._astral = [] if text.isascii() else [m.start() for m in ASTRAL.finditer(text)]
        self._length = len(text)
        # The UTF-16 position of each astral character: its code point index plus the astral
        # characters before it.
        self._astral_utf16 = [pos + n for n, pos in enumerate(self._astral)]

    def to_code_points(self, utf16_offset: int) -> int:
        """Code point offset of a UTF-16 offset (one inside a surrogate pair rounds up)."""
        if not self._astral:
            return utf16_offset
        # Every astral character that ends at or before the offset took one extra unit.
        return utf16_offset - bisect_right(self._astral_utf16, utf16_offset - 2)

    def to_utf16(self, code_point_offset: int) -> int:
        """UTF-16 offset of a code point offset."""
        if not self._astral:
            return code_point_offset
        return code_point_offset + bisect_right(self._astral, code_point_offset - 1)
