"""A line chart of a player's cumulative back score, laid out for inline SVG (no JavaScript)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
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


# --- the player page's charts: sized for a phone -------------------------------------------------
#
# At 390 px a chart is about 360 px wide; with a viewBox of that width its 12-unit text is drawn
# at about 12 px (the 640-unit chart above shrinks it to about 7).

PHONE_WIDTH, PHONE_HEIGHT, PHONE_PAD_LEFT, PHONE_PAD_RIGHT, PHONE_PAD_Y = 360, 200, 44, 12, 20


@dataclass(frozen=True)
class Point:
    """One value to draw: ``label`` names it (a date), ``low``/``high`` bound its band."""

    value: float
    label: str
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True)
class PlacedPoint:
    x: float
    y: float
    point: Point


@dataclass(frozen=True)
class Tick:
    y: float
    value: float


@dataclass(frozen=True)
class LineChart:
    """A line (and optionally a band around it) laid out for inline SVG, no JavaScript."""

    width: int
    height: int
    left: int
    right: int
    dots: tuple[PlacedPoint, ...]
    polyline: str
    band: str
    ticks: tuple[Tick, ...]

    @property
    def first(self) -> Point:
        return self.dots[0].point

    @property
    def last(self) -> Point:
        return self.dots[-1].point


def line_chart(points: Sequence[Point], *, with_zero: bool = True) -> LineChart | None:
    """Place the points left to right, evenly; the band (``low``..``high`` of each point) is a
    polygon behind the line. Ticks: the highest and lowest values drawn, and 0 when
    ``with_zero``. None with nothing to draw."""
    if not points:
        return None
    values = [p.value for p in points]
    values += [p.low for p in points if p.low is not None]
    values += [p.high for p in points if p.high is not None]
    if with_zero:
        values.append(0.0)
    top, bottom = max(values), min(values)
    span = (top - bottom) or 1.0
    inner_w = PHONE_WIDTH - PHONE_PAD_LEFT - PHONE_PAD_RIGHT
    inner_h = PHONE_HEIGHT - 2 * PHONE_PAD_Y
    step = inner_w / (len(points) - 1) if len(points) > 1 else 0.0

    def x_of(i: int) -> float:
        return round(PHONE_PAD_LEFT + (i * step if step else inner_w / 2), 1)

    def y_of(value: float) -> float:
        return round(PHONE_PAD_Y + (top - value) * inner_h / span, 1)

    dots = tuple(PlacedPoint(x_of(i), y_of(p.value), p) for i, p in enumerate(points))
    band = ""
    if all(p.low is not None and p.high is not None for p in points):
        upper = [f"{x_of(i)},{y_of(p.high)}" for i, p in enumerate(points) if p.high is not None]
        lower = [f"{x_of(i)},{y_of(p.low)}" for i, p in enumerate(points) if p.low is not None]
        band = " ".join(upper + lower[::-1])
    tick_values = _spaced_ticks([top, bottom, *([0.0] if with_zero else [])], y_of)
    return LineChart(
        width=PHONE_WIDTH,
        height=PHONE_HEIGHT,
        left=PHONE_PAD_LEFT,
        right=PHONE_WIDTH - PHONE_PAD_RIGHT,
        dots=dots,
        polyline=" ".join(f"{d.x},{d.y}" for d in dots),
        band=band,
        ticks=tuple(Tick(y_of(v), v) for v in tick_values),
    )


#: The least room between two tick labels (chart units: 12-unit text and a little space).
TICK_GAP = 14


def _spaced_ticks(values: Sequence[float], y_of: Callable[[float], float]) -> list[float]:
    """The tick values to label, highest first, none drawn into another: the top and the bottom
    always (when apart), 0 only with room on both sides."""
    kept: list[float] = []
    for value in dict.fromkeys(values):  # in order of priority: top, bottom, 0
        if all(abs(y_of(value) - y_of(other)) >= TICK_GAP for other in kept):
            kept.append(value)
    return sorted(kept, reverse=True)
