"""Benchmark: SEE's units of the DUC model summaries (annotator.coverage.splitting.units), their
density and the units a cut at an abbreviation makes (issue 33), with pySBD's sentences against
the plain cut after every full stop.

    .venv/bin/python bench/see_units.py

Every model summary of the DUC .pyr files (PYRAMID_FULL_DATA for a full package, else the shared
subset). Printed: models, words, units, units per 50 words (SEE judged ~4), and the units that
begin with a lower-case word or a digit right after a full stop ("…on Jan" / "1, 1999 were up"),
with a few of them. Needs no database.
"""

import os
import re
import sys
from unittest import mock

from benchdata import ROOT, describe, package_files

sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

BROKEN = re.compile(r"\.[ \t]*\Z")  # the line before a unit ends with a full stop


def main() -> None:
    from annotator.ducview.layout import split_models
    from annotator.ducview.reader import read_pyramid
    from annotator.text import sentences
    from annotator.text.words import words

    files = [
        p
        for p in package_files(["duc2006-nist", "duc2007-main-nist", "duc2007-update-nist"])
        if p.suffix == ".pyr"
    ]
    print(describe(files))
    models = []
    for path in files:
        document = read_pyramid(path.read_bytes())
        models += [
            m.text for m in split_models(document.text, document.start_document_regex).models
        ]

    def measure(label: str) -> None:
        from annotator.coverage.splitting import units

        count, broken, examples = 0, 0, []
        for text in models:
            for start, end in units(text):
                count += 1
                first = text[start]
                if (first.islower() or first.isdigit()) and BROKEN.search(text[:start]):
                    broken += 1
                    examples.append(text[max(0, start - 25) : end][:70])
        total = sum(len(words(t)) for t in models)
        print(
            f"{label}: {len(models)} models, {total} words, {count} units, "
            f"{50 * count / total:.2f} units per 50 words; {broken} begin with a lower-case word "
            "or a digit after a full stop"
        )
        for example in examples[:5]:
            print(f"    …{example!r}")

    measure("pySBD sentences (now)")
    # The cut before: after every full stop (what annotator.text.sentences falls back on).
    with mock.patch.object(sentences._segmenter(), "segment", sentences._plain):
        sentences.sentence_starts.cache_clear()
        measure("a cut after every full stop (before)")


if __name__ == "__main__":
    import django

    django.setup()
    main()
