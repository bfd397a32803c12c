"""Soak figures of a server process: resident memory and open file descriptors sampled over a run."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import anyio


def process_resources(pid: int) -> dict[str, int] | None:
    """RSS (KiB) and open file descriptors of ``pid`` (Linux /proc); None when it cannot be read."""
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="ascii", errors="replace")
        fds = len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None
    rss = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)
    return {"rss_kib": rss, "open_fds": fds}


async def sample_resources(pid: int, every_s: float, until: float, into: list[dict[str, Any]]) -> None:
    """Append ``{at_s, rss_kib, open_fds}`` to ``into`` now and every ``every_s`` until ``until``
    (a ``time.perf_counter()`` value)."""
    start = time.perf_counter()
    while True:
        found = process_resources(pid)
        if found is not None:
            into.append({"at_s": round(time.perf_counter() - start, 1), **found})
        if time.perf_counter() + every_s > until:
            break
        await anyio.sleep(every_s)
    last = process_resources(pid)
    if last is not None:
        into.append({"at_s": round(time.perf_counter() - start, 1), **last})


def growth(samples: list[dict[str, Any]], warm_up_s: float) -> dict[str, Any]:
    """Growth of RSS and open fds from the first sample after ``warm_up_s`` to the last, in percent."""
    warm = [s for s in samples if s["at_s"] >= warm_up_s]
    if len(warm) < 2:
        return {"warm_up_s": warm_up_s, "samples": samples, "rss_growth_pct": None, "fd_growth_pct": None}
    first, last = warm[0], warm[-1]

    def pct(key: str) -> float | None:
        return round(100 * (last[key] - first[key]) / first[key], 2) if first[key] else None

    return {
        "warm_up_s": warm_up_s,
        "samples": samples,
        "rss_growth_pct": pct("rss_kib"),
        "fd_growth_pct": pct("open_fds"),
        "rss_max_kib": max(s["rss_kib"] for s in samples),
        "fds_max": max(s["open_fds"] for s in samples),
    }
