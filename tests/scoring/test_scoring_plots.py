"""scoring.reports.plots: SVG drawn on the server, with labels escaped."""

import pytest

from scoring.reports.plots import render


def test_every_kind_draws_labelled_svg():
    drawn = [
        render({"type": "bars", "title": "Tiers", "labels": ["1", "2"], "values": [10, 3]}),
        render(
            {
                "type": "intervals",
                "title": "Means",
                "labels": ["a"],
                "values": [0.2],
                "low": [0.1],
                "high": [0.3],
            }
        ),
        render(
            {
                "type": "boxes",
                "title": "Spread",
                "labels": ["a"],
                "boxes": [[0.1, 0.2, 0.25, 0.3, 0.5]],
            }
        ),
        render(
            {
                "type": "lines",
                "title": "Stability",
                "labels": [1, 2],
                "series": {"r": [0.4, 0.9], "p": [None, 0.1]},
            }
        ),
    ]
    for svg, title in zip(drawn, ["Tiers", "Means", "Spread", "Stability"]):
        assert svg.startswith("<svg")
        assert f"<title>{title}</title>" in svg


def test_labels_are_escaped():
    svg = render({"type": "bars", "title": "<b>", "labels": ["<script>"], "values": [1]})
    assert "<script>" not in svg
    assert "&lt;script&gt;" in svg


def test_unknown_plots_are_refused():
    with pytest.raises(ValueError, match="unknown plot type 'pie'"):
        render({"type": "pie"})


def _boxes(element, font=11):
    """(left, top, right, bottom) of each line, circle, polyline and text under `element`, in the
    SVG's units; text as wide as 7 units a character, from its baseline up a font size and down
    3."""
    tag = lambda e: e.tag.rsplit("}", 1)[-1]  # noqa: E731
    found = []
    for e in element.iter():
        a = {
            k: float(v)
            for k, v in e.attrib.items()
            if k in ("x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "r")
        }
        if tag(e) == "circle":
            found.append((a["cx"] - a["r"], a["cy"] - a["r"], a["cx"] + a["r"], a["cy"] + a["r"]))
        elif tag(e) == "line":
            found.append(
                (
                    min(a["x1"], a["x2"]),
                    min(a["y1"], a["y2"]) - 1,
                    max(a["x1"], a["x2"]),
                    max(a["y1"], a["y2"]) + 1,
                )
            )
        elif tag(e) == "polyline" and e.get("points"):
            points = [tuple(map(float, p.split(","))) for p in e.get("points").split()]
            found.append(
                (
                    min(x for x, _ in points),
                    min(y for _, y in points),
                    max(x for x, _ in points),
                    max(y for _, y in points),
                )
            )
        elif tag(e) == "text":
            found.append((a["x"], a["y"] - font, a["x"] + 7 * len(e.text or ""), a["y"] + 3))
    return found


def _around(boxes):
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _meet(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("orders", [2, 5, 12])
def test_the_stability_plots_legend_never_covers_the_data(orders):
    """Issue 17: the legend sat in the top right corner, on the mean Spearman of the highest orders
    (near 1 there). It is now under the axis labels: its box meets no point, line or label, and
    it stays inside the picture."""
    import xml.etree.ElementTree as ET

    from scoring.reports.plots import BOTTOM, HEIGHT, WIDTH

    spearman = [0.2 + 0.8 * i / (orders - 1) for i in range(orders)]  # up to 1, at the top right
    error = [0.5 * (1 - i / (orders - 1)) for i in range(orders - 1)] + [
        None
    ]  # down to 0, at the bottom
    svg = render(
        {
            "type": "lines",
            "title": "Ranking stability by pyramid order",
            "labels": list(range(1, orders + 1)),
            "series": {"mean Spearman": spearman, "p (error)": error},
        }
    )
    root = ET.fromstring(svg)
    (legend,) = [
        g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "plot-legend"
    ]
    in_legend = set(legend.iter())
    names = [e.text for e in legend.iter("{http://www.w3.org/2000/svg}text")]
    assert names == ["mean Spearman", "p (error)"]
    drawn = [
        e for e in root if e not in in_legend and e is not legend
    ]  # the axes' grid, ticks, labels, the data
    data = [b for e in drawn if e.get("class", "").startswith("series") for b in _boxes(e)]
    assert len(data) == 2 + orders + orders - 1  # two lines and their points
    box = _around(_boxes(legend))
    assert not any(
        _meet(box, b) for e in drawn for b in _boxes(e) if e.get("class") != "plot-title"
    )
    assert not _meet(box, _around(data))
    assert HEIGHT - BOTTOM < box[1]
    assert box[3] <= HEIGHT
    assert 0 <= box[0]
    assert box[2] <= WIDTH
    # Told apart without colour too: the second series is dashed, here and in the legend.
    assert [
        e.get("stroke-dasharray") for e in root.iter("{http://www.w3.org/2000/svg}polyline")
    ] == [None, "6 3"]


@pytest.mark.parametrize("values", [[2, 1, 0, 0, 1, 0, 0, 0, 0, 0], [1], [0, 0], [3.5, 120000]])
def test_the_bars_value_labels_lie_below_the_title(values):
    """Found by a tester on "Suggestions taken": the label over the tallest bar was drawn on the
    chart's title. Each bar's value label is now under the title's box, and over its bar."""
    import xml.etree.ElementTree as ET

    svg = render(
        {
            "type": "bars",
            "title": "Suggestions taken, by rank",
            "labels": [str(i) for i in range(1, len(values) + 1)],
            "values": values,
        }
    )
    root = ET.fromstring(svg)
    texts = list(root.iter("{http://www.w3.org/2000/svg}text"))
    (title,) = [e for e in texts if e.get("class") == "plot-title"]
    title_box = _boxes(title, font=12)[0]  # the title is 12px (static/css/app.css)
    rects = list(root.iter("{http://www.w3.org/2000/svg}rect"))
    # A value label: the text that says a bar's value, centred on it (the axis labels are class
    # "label", the ticks are anchored at their end).
    labels = [e for e in texts if e.get("text-anchor") == "middle" and e.get("class") != "label"]
    assert [e.text for e in labels] == [str(v) for v in values]
    for label, rect in zip(labels, rects):
        box = _boxes(label)[0]
        assert box[1] >= title_box[3], (label.text, box, title_box)
        assert not _meet(box, title_box)
        assert float(label.get("y")) <= float(rect.get("y"))  # over its bar, not in it
        assert box[1] >= 0
