"""A line chart of a player's cumulative back score, laid out for inline SVG (no JavaScript)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .queries import HistoryPoint

WIDTH, HEIGHT, PAD_X, PAD_Y = 640, 240, 48, 24


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    point: HistoryPoint


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    dots: tuple[Dot, ...]
    polyline: str
    zero_y: float
    top: int
    bottom: int
    top_y: float
    bottom_y: float
    left: int
    right: int

    @property
    def first(self) -> HistoryPoint:
        return self.dots[0].point

    @property
    def last(self) -> HistoryPoint:
        return self.dots[-1].point


def cumulative_chart(points: Sequence[HistoryPoint]) -> Chart | None:
    """Place each session's cumulative hundreds on the chart; None with nothing to draw."""
    if not points:
        return None
    values = [p.cumulative for p in points]
    top, bottom = max(0, *values), min(0, *values)
    span = (top - bottom) or 1
    inner_w, inner_h = WIDTH - 2 * PAD_X, HEIGHT - 2 * PAD_Y
    step = inner_w / (len(points) - 1) if len(points) > 1 else 0

    def y_of(value: int) -> float:
        return round(PAD_Y + (top - value) * inner_h / span, 1)

    dots = tuple(
        Dot(round(PAD_X + (i * step if step else inner_w / 2), 1), y_of(p.cumulative), p)
        for i, p in enumerate(points)
    )
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        dots=dots,
        polyline=" ".join(f"{d.x},{d.y}" for d in dots),
        zero_y=y_of(0),
        top=top,
        bottom=bottom,
        top_y=y_of(top),
        bottom_y=y_of(bottom),
        left=PAD_X,
        right=WIDTH - PAD_X,
    )
