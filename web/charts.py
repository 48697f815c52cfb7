"""Charts drawn on the box as inline SVG: horizontal bars and bars over time.

No chart library and no script: a chart is a few hundred bytes of SVG in the page, drawn in
the page's own colours (CSS classes, so light and dark mode both read), scaled to the phone's
width by its viewBox. Every bar carries `data-label` and `data-value`, the same numbers as the
table that follows each chart (the browser test compares them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

WIDTH = 360
ROW = 26  # height of one horizontal bar's row
LABEL = 132  # room for the labels left of the bars
VALUE = 58  # room for the value text right of the bars
PLOT = 190  # height of the plot area of a chart over time


@dataclass(frozen=True, slots=True)
class Part:
    """One segment of a bar: its value, CSS class (colour) and the name of what it counts."""

    value: float
    css: str
    name: str


@dataclass(frozen=True, slots=True)
class Bar:
    """One bar: its label, its segments (stacked), and the text written after it."""

    label: str
    parts: tuple[Part, ...]
    text: str

    @property
    def total(self) -> float:
        """The length of the whole bar."""
        return sum(part.value for part in self.parts)


def _number(value: float) -> str:
    return f"{value:g}"


def bars(title: str, rows: Sequence[Bar], scale: float | None = None) -> Markup:
    """Horizontal bars, one row each; `scale` is the value of a full-width bar (else the
    longest bar's)."""
    full = scale or max((row.total for row in rows), default=0) or 1
    width = WIDTH - LABEL - VALUE
    height = ROW * len(rows) + 4
    out = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" '
        f'aria-label="{escape(title)}">'
    ]
    for index, row in enumerate(rows):
        top = index * ROW + 4
        out.append(
            f'<text class="label" x="{LABEL - 6}" y="{top + 15}" text-anchor="end">'
            f"{escape(_clip(row.label))}</text>"
        )
        left = float(LABEL)
        for part in row.parts:
            size = width * part.value / full
            out.append(
                f'<rect class="{part.css}" x="{left:.1f}" y="{top + 2}" width="{size:.1f}" '
                f'height="{ROW - 8}" data-label="{escape(row.label)}" data-name="{part.name}" '
                f'data-value="{_number(part.value)}"><title>{escape(row.label)}: '
                f"{escape(part.name)} {_number(part.value)}</title></rect>"
            )
            left += size
        out.append(
            f'<text class="value" x="{left + 5:.1f}" y="{top + 15}">{escape(row.text)}</text>'
        )
    out.append("</svg>")
    return Markup("".join(out))


def bars_over_time(title: str, periods: Sequence[str], stacks: Sequence[Sequence[Part]]) -> Markup:
    """Vertical stacked bars, one per period, oldest on the left; the period names of the
    first and last bar are written under the axis, the highest total above the plot."""
    if not periods:
        return Markup("")
    top = max(sum(part.value for part in stack) for stack in stacks) or 1
    left, right, base = 44, WIDTH - 6, PLOT + 10
    step = (right - left) / len(periods)
    size = max(step * 0.72, 1.0)
    out = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {PLOT + 34}" role="img" '
        f'aria-label="{escape(title)}">',
        f'<line class="axis" x1="{left}" y1="{base}" x2="{right}" y2="{base}"/>',
        f'<text class="value" x="{left - 4}" y="18" text-anchor="end">{_number(top)}</text>',
        f'<text class="value" x="{left - 4}" y="{base}" text-anchor="end">0</text>',
    ]
    for index, (period, stack) in enumerate(zip(periods, stacks, strict=True)):
        x = left + index * step + (step - size) / 2
        y = float(base)
        for part in stack:
            height = (PLOT - 4) * part.value / top
            y -= height
            out.append(
                f'<rect class="{part.css}" x="{x:.1f}" y="{y:.1f}" width="{size:.1f}" '
                f'height="{height:.1f}" data-label="{escape(period)}" data-name="{part.name}" '
                f'data-value="{_number(part.value)}"><title>{escape(period)}: '
                f"{escape(part.name.replace('_', ' '))} {_number(part.value)}</title></rect>"
            )
    out.append(
        f'<text class="label" x="{left}" y="{base + 18}">{escape(periods[0])}</text>'
        f'<text class="label" x="{right}" y="{base + 18}" text-anchor="end">'
        f"{escape(periods[-1])}</text></svg>"
    )
    return Markup("".join(out))


def _clip(label: str, length: int = 16) -> str:
    """A label short enough for the label column (the table beside it has it whole)."""
    return label if len(label) <= length else label[: length - 1] + "…"
