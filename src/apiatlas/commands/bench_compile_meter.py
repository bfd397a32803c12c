"""What ``bench compile`` measures inside a fresh compile process: time and peak memory per stage and pass.

``measure_compile`` runs in a child process (``python -c ... child_main``) so each size's peak memory is
its own: the parent only generates the documentation and reads the figures the child prints as JSON.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SAMPLE_S = 0.005  # how often the sampler thread reads the resident set size
TREE_SAMPLE_S = 0.5  # how often ``--tree-memory`` reads the process tree's proportional set size
MIB = 1024 * 1024
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def rss_bytes() -> int:
    """This process's resident set size now (Linux ``/proc``), else its peak so far (``getrusage``)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, IndexError, ValueError):
        return peak_rss_bytes()


def cpu_seconds() -> float:
    """CPU time (user + system) of this process and of its children that have finished."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def peak_rss_bytes(who: int = resource.RUSAGE_SELF) -> int:
    """Peak resident set size of this process (or its largest child) since it started."""
    peak = resource.getrusage(who).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def descendants(pid: int) -> list[int]:
    """The live processes under ``pid`` (Linux ``/proc/PID/task/TID/children``), children first."""
    found: list[int] = []
    todo = [pid]
    while todo:
        for task in Path(f"/proc/{todo.pop()}/task").glob("*"):
            try:
                kids = [int(k) for k in (task / "children").read_text().split()]
            except (OSError, ValueError):
                continue
            found += kids
            todo += kids
    return found


def pss_bytes(pid: int) -> int:
    """A process's proportional set size (``/proc/PID/smaps_rollup``): its private pages plus its share of
    the pages it shares, so the sum over a forked family counts each copy-on-write page once. 0 when gone."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as rollup:
            for line in rollup:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


class SamplerThread:
    """``sample`` called every ``every`` seconds on a daemon thread until ``stop()``."""

    def __init__(self, sample: Callable[[], None], every: float, name: str) -> None:
        self._sample, self._every, self._stop = sample, every, threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self._every):
            self._sample()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


@dataclass
class TreeMemory:
    """``--tree-memory``: the peak, over the compile, of this process's PSS plus its children's (the parse
    workers, the forked children beside the passes and the writer), sampled every ``TREE_SAMPLE_S`` by its own
    thread. Reading ``smaps_rollup`` walks a process's page tables (~10 ms per 100 MiB resident): too slow
    for the 5 ms sampler, and it takes CPU from the compile, hence an option."""

    meter: StepMeter
    peaks: dict[str, int] = field(default_factory=dict)  # per step
    peak: int = 0
    processes_at_peak: int = 0
    _sampler: SamplerThread | None = None

    def _sample(self) -> None:
        pids = [os.getpid(), *descendants(os.getpid())]
        total = sum(pss_bytes(p) for p in pids)
        step = self.meter.current
        self.peaks[step] = max(self.peaks.get(step, 0), total)
        if total > self.peak:
            self.peak, self.processes_at_peak = total, len(pids)

    def __enter__(self) -> TreeMemory:
        self._sample()
        self._sampler = SamplerThread(self._sample, TREE_SAMPLE_S, "pss-sampler")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._sampler is not None:
            self._sampler.stop()
        self._sample()

    def figures(self) -> dict[str, Any]:
        return {
            "tree_peak_pss_mib": round(self.peak / MIB, 1),
            "tree_processes_at_peak": self.processes_at_peak,
            "tree_peak_pss_mib_by_step": {k: round(v / MIB, 1) for k, v in self.peaks.items()},
        }


@dataclass
class StepMeter:
    """Peak resident memory per step (the step is whatever ``step(name)`` said last), sampled by a thread."""

    peaks: dict[str, int] = field(default_factory=dict)
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds per step (a shared machine's
    # wall time depends on the other work running; the CPU time much less)
    current: str = "start"
    _cpu_at: float = 0.0
    _sampler: SamplerThread | None = None

    def step(self, name: str) -> None:
        self._sample()
        now = cpu_seconds()
        self.cpu[self.current] = self.cpu.get(self.current, 0.0) + now - self._cpu_at
        self._cpu_at = now
        self.current = name
        self._sample()

    def _sample(self) -> None:
        now = rss_bytes()
        if now > self.peaks.get(self.current, 0):
            self.peaks[self.current] = now

    def __enter__(self) -> StepMeter:
        self._cpu_at = cpu_seconds()
        self._sampler = SamplerThread(self._sample, SAMPLE_S, "rss-sampler")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._sampler is not None:
            self._sampler.stop()
        self.step("end")


def measure_compile(
    docs: Path,
    overlays: Path,
    snap: Path,
    embeddings: str | None,
    tree_memory: bool = False,
    low_memory: bool = False,
) -> dict[str, Any]:
    """Compile ``docs`` into ``snap`` once, metered (with ``tree_memory``, the process tree's PSS too; with
    ``low_memory``, no child beside: ``compile --low-memory``); then the figures and a rewrite check."""
    from apiatlas.forked import one_process

    start_rss = rss_bytes()
    with StepMeter() as meter, contextlib.ExitStack() as stack, one_process(low_memory):
        tree = stack.enter_context(TreeMemory(meter)) if tree_memory else None
        from apiatlas.build import compile_docs  # imported inside the meter: imports cost memory too

        start = time.perf_counter()
        result = compile_docs(
            docs, overlays_dir=overlays, config_path=None, out=snap, embeddings=embeddings, on_step=meter.step
        )
        compile_s = time.perf_counter() - start
    peak = peak_rss_bytes()
    children = peak_rss_bytes(resource.RUSAGE_CHILDREN)
    deterministic = _rewrite_is_identical(result, snap)
    counts = result.manifest.counts
    graph = result.manifest.graph
    pass_graph: dict[str, Any] = result.manifest.pass_stats.get("graph", {})
    return {
        "compile_s": round(compile_s, 3),
        "compile_stages_s": {k: round(v, 3) for k, v in result.timings.items()},
        "compile_passes_s": {k: round(v, 3) for k, v in result.pass_timings.items()},
        "peak_mib_by_step": {k: round(v / MIB, 1) for k, v in meter.peaks.items()},
        "cpu_s_by_step": {k: round(v, 3) for k, v in meter.cpu.items()},
        "compile_cpu_s": round(sum(meter.cpu.values()), 3),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "peak_rss_mib": round(peak / MIB, 1),
        "start_rss_mib": round(start_rss / MIB, 1),
        "parse_workers_peak_rss_mib": round(children / MIB, 1),
        "snapshot_bytes": snap.stat().st_size,
        "deterministic": deterministic,
        "kept_apis": counts.get("kept_apis", 0),
        "objects": counts.get("objects", 0),
        "tables": counts.get("tables", 0),
        "edges": counts.get("edges", 0),
        "entry_points": counts.get("entry_points", 0),
        "diagnostics_error": counts.get("diagnostics_error", 0),
        "diagnostics_warning": counts.get("diagnostics_warning", 0),
        "funnel": [(s["stage"], s["count"]) for s in result.manifest.funnel.get("stages", [])],
        "edges_by_level": graph.get("by_level", {}),
        "graph_capped": pass_graph.get("capped_fields", {}),
        "graph_capped_candidates": pass_graph.get("capped_candidates", {}),
        "graph_cap_per_field": pass_graph.get("cap_per_field", {}),
        "low_memory": low_memory,
        **(tree.figures() if tree is not None else {}),
    }


def _rewrite_is_identical(result: Any, snap: Path) -> bool:
    """Writing the same catalog again gives the same bytes (the snapshot is deterministic)."""
    from apiatlas.snapshot.writer import write_snapshot

    again = snap.with_name(snap.stem + ".again.atlas")
    write_snapshot(
        result.catalog,
        again,
        options=result.manifest.options,
        vectors=result.vectors,
        search_index=result.search_index,
    )
    same = again.read_bytes() == snap.read_bytes()
    again.unlink()
    return same


def child_main() -> None:
    """``python -c 'from apiatlas.commands.bench_compile_meter import child_main; child_main()' DOCS
    OVERLAYS SNAP EMBEDDINGS TREE LOW``: print ``measure_compile``'s figures as one JSON line."""
    docs, overlays, snap, embeddings, tree, low = sys.argv[1:7]
    figures = measure_compile(
        Path(docs), Path(overlays), Path(snap), embeddings or None, tree == "tree", low == "low"
    )
    sys.stdout.write(json.dumps(figures, ensure_ascii=False) + "\n")


CHILD_CODE = "from apiatlas.commands.bench_compile_meter import child_main; child_main()"
