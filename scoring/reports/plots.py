"""Plots as inline SVG, drawn on the server from a report's plot data: no JavaScript, no CDN, and
readable without colour (values are labelled). Pure functions returning SVG text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

WIDTH, HEIGHT, LEFT, BOTTOM, TOP = 720, 260, 48, 40, 28
# Bars say their value over them: their plotted area starts this much lower, so that the label
# over the tallest bar lies under the title (it was drawn on it, found by a tester).
VALUE_ROOM = 16


def _frame(title: str, body: list[str], low: float, high: float, top: float = TOP) -> str:
    ticks = []
    for i in range(5):
        value = low + (high - low) * i / 4
        y = _y(value, low, high, top)
        ticks.append(
            f'<line x1="{LEFT}" x2="{WIDTH - 8}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>'
            f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{value:.3g}</text>'
        )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'class="plot" aria-label="{escape(title)}"><title>{escape(title)}</title>'
        f'<text x="{LEFT}" y="16" class="plot-title">{escape(title)}</text>'
        f"{''.join(ticks)}{''.join(body)}</svg>"
    )


def _y(value: float, low: float, high: float, top: float = TOP) -> float:
    """Where `value` lies on a plotted area from `top` down to the axis."""
    span = (high - low) or 1
    return HEIGHT - BOTTOM - (value - low) / span * (HEIGHT - BOTTOM - top)


def _slots(count: int) -> tuple[float, list[float]]:
    width = (WIDTH - LEFT - 16) / max(count, 1)
    return width, [LEFT + 8 + width * (i + 0.5) for i in range(count)]


def _label(x: float, text: object) -> str:
    return (
        f'<text x="{x:.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle" '
        f'class="label">{escape(str(text))}</text>'
    )


def bars(title: str, labels: Sequence[object], values: Sequence[float | None]) -> str:
    high = max([v for v in values if v is not None] or [1])
    width, xs = _slots(len(labels))
    body = []
    for x, label, value in zip(xs, labels, values):
        top = _y(value or 0, 0, high, TOP + VALUE_ROOM)
        body.append(
            f'<rect x="{x - width * 0.35:.1f}" y="{top:.1f}" width="{width * 0.7:.1f}" '
            f'height="{HEIGHT - BOTTOM - top:.1f}" class="bar"><title>{escape(str(label))}: '
            f'{value}</title></rect><text x="{x:.1f}" y="{top - 4:.1f}" '
            f'text-anchor="middle">{value}</text>{_label(x, label)}'
        )
    return _frame(title, body, 0, high, TOP + VALUE_ROOM)


def intervals(
    title: str,
    labels: Sequence[object],
    values: Sequence[float | None],
    low: Sequence[float | None],
    high: Sequence[float | None],
) -> str:
    known = [v for v in [*values, *low, *high] if v is not None]
    bottom, top = (min(known), max(known)) if known else (0, 1)
    width, xs = _slots(len(labels))
    body = []
    for x, label, value, lo, hi in zip(xs, labels, values, low, high):
        if lo is not None and hi is not None:
            body.append(
                f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{_y(lo, bottom, top):.1f}" '
                f'y2="{_y(hi, bottom, top):.1f}" class="whisker"/>'
            )
        if value is not None:
            body.append(
                f'<circle cx="{x:.1f}" cy="{_y(value, bottom, top):.1f}" r="3.5" class="point">'
                f"<title>{escape(str(label))}: {value} [{lo}, {hi}]</title></circle>"
            )
        body.append(_label(x, label))
    return _frame(title, body, bottom, top)


def boxes(title: str, labels: Sequence[object], five_numbers: Sequence[Sequence[float]]) -> str:
    known = [v for box in five_numbers for v in box if v is not None]
    bottom, top = (min(known), max(known)) if known else (0, 1)
    width, xs = _slots(len(labels))
    body = []
    for x, label, (least, q1, median, q3, most) in zip(xs, labels, five_numbers):
        y = [_y(v, bottom, top) for v in (least, q1, median, q3, most)]
        body.append(
            f"<g><title>{escape(str(label))}: min {least}, quartiles {q1} / {median} / {q3}, "
            f"max {most}</title>"
            f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{y[0]:.1f}" y2="{y[4]:.1f}" class="whisker"/>'
            f'<rect x="{x - width * 0.3:.1f}" y="{y[3]:.1f}" width="{width * 0.6:.1f}" '
            f'height="{max(y[1] - y[3], 1):.1f}" class="box"/>'
            f'<line x1="{x - width * 0.3:.1f}" x2="{x + width * 0.3:.1f}" y1="{y[2]:.1f}" '
            f'y2="{y[2]:.1f}" class="median"/></g>' + _label(x, label)
        )
    return _frame(title, body, bottom, top)


LEGEND_Y = HEIGHT - 6  # the legend's baseline: under the axis labels, outside the plotted area
CHARACTER = 7  # about how wide a character of the plots' 11px text is, to space legend entries
DASHES = [
    "",
    ' stroke-dasharray="6 3"',
    ' stroke-dasharray="2 3"',
]  # series told apart without colour


def lines(
    title: str, labels: Sequence[object], series: Mapping[str, Sequence[float | None]]
) -> str:
    """Each series as a line with its points; the legend under the axis labels, outside the
    plotted area, so that it never covers a point (it once sat in the top right corner, on the
    mean Spearman of the highest orders, which is near 1)."""
    known = [v for values in series.values() for v in values if v is not None]
    bottom, top = (min(known + [0]), max(known + [1])) if known else (0, 1)
    width, xs = _slots(len(labels))
    body = [_label(x, label) for x, label in zip(xs, labels)]
    legend, at = [], LEFT
    for i, (name, values) in enumerate(series.items()):
        dash = DASHES[i % len(DASHES)]
        points = [(x, _y(v, bottom, top)) for x, v in zip(xs, values) if v is not None]
        body.append(
            f'<polyline points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in points)}" class="series '
            f's{i}"{dash}/>'
        )
        body.extend(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" class="series s{i}"/>' for x, y in points
        )
        mid = LEGEND_Y - 4
        legend.append(
            f'<line x1="{at}" x2="{at + 24}" y1="{mid}" y2="{mid}" stroke-width="2" class="series '
            f's{i}"{dash}/><circle cx="{at + 12}" cy="{mid}" r="3" class="series s{i}"/><text '
            f'x="{at + 30}" y="{LEGEND_Y}" class="series-name s{i}">{escape(name)}</text>'
        )
        at += 30 + CHARACTER * len(name) + 24
    body.append(f'<g class="plot-legend">{"".join(legend)}</g>')
    return _frame(title, body, bottom, top)


def render(plot: Mapping[str, Any]) -> str:
    """The SVG of one plot of a report's result (JSON: its "type" says which keys it has)."""
    kind = plot["type"]
    if kind == "bars":
        return bars(plot["title"], plot["labels"], plot["values"])
    if kind == "intervals":
        return intervals(plot["title"], plot["labels"], plot["values"], plot["low"], plot["high"])
    if kind == "boxes":
        return boxes(plot["title"], plot["labels"], plot["boxes"])
    if kind == "lines":
        return lines(plot["title"], plot["labels"], plot["series"])
    raise ValueError(f"unknown plot type {kind!r}")
