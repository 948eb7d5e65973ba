"""How every benchmark times and reports: the median and the min–max of repeated runs.

A best-of figure hides the runs that were slow, and two sides timed differently cannot be compared:
every benchmark times its calls with `measure` (or reports times it took otherwise with `Timing`)
and prints them as "median X ms (min A – max B, N runs)".
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


def runs(default: int) -> int:
    """How many runs a measure takes: BENCH_RUNS if set, else the benchmark's default."""
    return int(os.environ.get("BENCH_RUNS", default))


@dataclass(frozen=True)
class Timing:
    """Seconds of repeated runs (wall clock), the process's CPU seconds where measured, and the
    last run's result."""

    seconds: tuple[float, ...]
    cpu_seconds: tuple[float, ...] = ()
    value: Any = None

    @classmethod
    def from_milliseconds(cls, milliseconds: list[float]) -> Timing:
        """Times measured elsewhere (a browser's), in milliseconds."""
        return cls(tuple(m / 1000 for m in milliseconds))

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def low(self) -> float:
        return min(self.seconds)

    @property
    def high(self) -> float:
        return max(self.seconds)

    @property
    def runs(self) -> int:
        return len(self.seconds)

    @property
    def cpu(self) -> Timing:
        return Timing(self.cpu_seconds)

    def __str__(self) -> str:
        return self.format()

    def format(self, unit: str = "") -> str:
        """ "median X ms (min A – max B, N runs)"; in s from a second up, unless `unit` says."""
        unit = unit or ("s" if self.median >= 1 else "ms")
        scale = 1 if unit == "s" else 1000
        return (
            f"median {number(self.median * scale)} {unit} (min {number(self.low * scale)} – max "
            f"{number(self.high * scale)}, {self.runs} run{'s' if self.runs != 1 else ''})"
        )


def number(value: float) -> str:
    """Three significant digits or so: 0.0612, 6.12, 61.2, 612."""
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    if value >= 0.1:
        return f"{value:.2f}"
    return f"{value:.3g}"


def measure(call: Callable[[], Any], runs: int) -> Timing:
    """Call `call` `runs` times; the wall and CPU seconds (time.process_time) of each call."""
    seconds, cpu_seconds, value = [], [], None
    for _ in range(runs):
        started, started_cpu = time.perf_counter(), time.process_time()
        value = call()
        seconds.append(time.perf_counter() - started)
        cpu_seconds.append(time.process_time() - started_cpu)
    return Timing(tuple(seconds), tuple(cpu_seconds), value)


def ratio(slow: Timing, fast: Timing) -> str:
    """How many times faster `fast` is, from the medians, and the range the runs allow."""
    return (
        f"{slow.median / fast.median:.1f}x (from {slow.low / fast.high:.1f}x to "
        f"{slow.high / fast.low:.1f}x)"
    )
