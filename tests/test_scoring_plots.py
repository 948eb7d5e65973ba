"""scoring.plots: SVG drawn on the server, with labels escaped."""

import pytest

from scoring.plots import render


def test_every_kind_draws_labelled_svg():
    drawn = [
        render({"type": "bars", "title": "Tiers", "labels": ["1", "2"], "values": [10, 3]}),
        render({"type": "intervals", "title": "Means", "labels": ["a"], "values": [0.2], "low": [0.1], "high": [0.3]}),
        render({"type": "boxes", "title": "Spread", "labels": ["a"], "boxes": [[0.1, 0.2, 0.25, 0.3, 0.5]]}),
        render({"type": "lines", "title": "Stability", "labels": [1, 2], "series": {"r": [0.4, 0.9], "p": [None, 0.1]}}),
    ]
    for svg, title in zip(drawn, ["Tiers", "Means", "Spread", "Stability"]):
        assert svg.startswith("<svg") and f"<title>{title}</title>" in svg


def test_labels_are_escaped():
    svg = render({"type": "bars", "title": "<b>", "labels": ["<script>"], "values": [1]})
    assert "<script>" not in svg and "&lt;script&gt;" in svg


def test_unknown_plots_are_refused():
    with pytest.raises(ValueError):
        render({"type": "pie"})
