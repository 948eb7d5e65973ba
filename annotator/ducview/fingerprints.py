"""What makes two pyramids (or two peer annotations) the same content, as one hash.

The hash is computed from what would be stored — the model summaries as stored, the SCUs with
their parts in those summaries — so that a .pyr, the copies of it embedded in .pan files (which
may differ by encoding artefacts or by where the models start, see reconcile) and an export of
the records all give the same hash. Texts, labels and comments are folded (reconcile.fold).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence

from annotator.ducview.reconcile import fold

# (model index in the pyramid, start, end) in code points of that model summary's text
SpanRow = tuple[int, int, int]
# (comment, spans) of a contributor, in its order
ContributorRow = tuple[str, Sequence[SpanRow]]
# (uid, label, comment, contributors) of an SCU, in the pyramid's order
ScuRow = tuple[int, str, str, Sequence[ContributorRow]]


def _hash(content: object) -> str:
    return hashlib.sha256(_json(content)).hexdigest()


def pyramid_fingerprint(models: Sequence[tuple[str, str]], scus: Iterable[ScuRow]) -> str:
    """models: (author, text) in the pyramid's order.

    The hash of json.dumps([models, scus]) (folded as below), written an SCU at a time: a pyramid of
    40,000 SCUs is never held twice more, as lists and as one string (tests hold the two equal)."""
    digest = hashlib.sha256()
    digest.update(b"[")
    digest.update(_json([[author, fold(text)] for author, text in models]))
    digest.update(b", [")
    for n, (uid, label, comment, contributors) in enumerate(scus):
        if n:
            digest.update(b", ")
        digest.update(
            _json(
                [
                    uid,
                    fold(label),
                    fold(comment or ""),
                    [
                        [fold(c_comment or ""), [list(span) for span in spans]]
                        for c_comment, spans in contributors
                    ],
                ]
            )
        )
    digest.update(b"]]")
    return digest.hexdigest()


def _json(content: object) -> bytes:
    return json.dumps(content, ensure_ascii=False).encode("utf-8")


def annotation_fingerprint(
    pyramid: str,
    peer_text: str,
    pses: Iterable[tuple[int, str, Sequence[tuple[int, int]]]],
    comments: Iterable[tuple[int, str]],
) -> str:
    """pses: (SCU uid, 0 for none; comment; spans in the peer text). Their order does not matter
    (DUCView lists SCUs by weight, the records by insertion)."""
    return _hash(
        [
            pyramid,
            fold(peer_text),
            sorted(
                [uid, fold(comment or ""), [list(s) for s in spans]] for uid, comment, spans in pses
            ),
            sorted([uid, fold(comment)] for uid, comment in comments if comment),
        ]
    )
