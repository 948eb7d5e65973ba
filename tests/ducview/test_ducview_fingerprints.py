"""annotator.ducview.fingerprints: the pyramid's hash is written an SCU at a time (a very large
pyramid is not held twice more in memory) and is the very hash of the whole content as one JSON
text, which the stored fingerprints (migration 0010) were made with."""

import hashlib
import json

import pytest

from annotator.ducview.fingerprints import pyramid_fingerprint
from annotator.ducview.reconcile import fold


def whole(models, scus) -> str:
    """The definition: the hash of json.dumps of everything at once."""
    return hashlib.sha256(
        json.dumps(
            [
                [[author, fold(text)] for author, text in models],
                [
                    [
                        uid,
                        fold(label),
                        fold(comment or ""),
                        [
                            [fold(c or ""), [list(span) for span in spans]]
                            for c, spans in contributors
                        ],
                    ]
                    for uid, label, comment, contributors in scus
                ],
            ],
            ensure_ascii=False,
        ).encode("utf-8")
    ).hexdigest()


MODELS = [
    ("A", "Visitors love the tower \U0001f600 and it is 330 metres tall."),
    ("B", "Été — « quoted »\nline two"),
]
SCUS = [
    (
        1,
        "The tower is 330 m tall",
        "",
        [("", [(0, 33, 54)]), ("note \u00e9", [(1, 0, 3), (1, 5, 9)])],
    ),
    (2, 'Label with "quotes" and \\ backslash', None, [("", [(0, 0, 8)])]),
    (3, "empty contributor list", "c", []),
]


@pytest.mark.parametrize("scus", [SCUS, SCUS[:1], []], ids=["three SCUs", "one SCU", "no SCU"])
def test_written_an_scu_at_a_time_it_is_the_hash_of_the_whole(scus):
    assert pyramid_fingerprint(MODELS, scus) == whole(MODELS, scus)
    assert pyramid_fingerprint(MODELS, iter(scus)) == whole(MODELS, scus)  # a generator will do


def test_any_difference_changes_it():
    changed = [SCUS[0], (2, "Another label", None, SCUS[1][3]), SCUS[2]]
    assert pyramid_fingerprint(MODELS, changed) != pyramid_fingerprint(MODELS, SCUS)
