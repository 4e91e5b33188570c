"""The scaling table's CPU clock reads sub-millisecond work while the cap's profiling timer is armed (the process's
CPU clock, on Linux, may then move in ticks of 4 ms, and a fast cell read "0 us")."""

from __future__ import annotations

import signal
from collections.abc import Callable
from types import ModuleType


def _work() -> int:
    return sum(i * i for i in range(30_000))  # about a millisecond on this machine, well under a 4 ms tick


def test_the_cpu_clock_reads_work_under_a_tick_with_the_cap_armed(load_tool: Callable[[str], ModuleType]) -> None:
    bench = load_tool("bench_scaling")
    clock = bench.CLOCKS["cpu"]
    previous = signal.signal(signal.SIGPROF, lambda *_: None)
    signal.setitimer(signal.ITIMER_PROF, 30.0)
    try:
        readings = []
        for _ in range(5):
            start = clock()
            _work()
            readings.append(clock() - start)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
    assert all(reading > 0 for reading in readings), readings
