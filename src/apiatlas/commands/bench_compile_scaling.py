"""``bench compile`` figures of several sizes side by side: time and peak memory per stage and pass, with
the ratio of each to the first size's (linear cost: the ratio follows the ratio of APIs)."""

from __future__ import annotations

from typing import Any

from rich.table import Table

# targets of the linear compile (``--embeddings none``): APIs -> (seconds, peak MiB)
TARGETS: dict[int, tuple[float, float]] = {31580: (30.0, 1024.0), 100000: (100.0, 2048.0)}


Row = tuple[str, float | None, float | None, float | None]  # step, wall s, CPU s, peak MiB


def step_rows(f: dict[str, Any]) -> list[Row]:
    """(step, wall s, CPU s, peak MiB) for each stage and pass of one size's figures, in the order they
    ran; CPU includes the parse workers' (a shared machine's wall time depends on what else runs)."""
    stages: dict[str, float] = f.get("compile_stages_s", {})
    passes: dict[str, float] = f.get("compile_passes_s", {})
    peaks: dict[str, float] = f.get("peak_mib_by_step", {})
    cpu: dict[str, float] = f.get("cpu_s_by_step", {})
    rows: list[Row] = [("imports", None, cpu.get("start"), peaks.get("start"))]
    for stage, seconds in stages.items():
        if stage == "passes":
            rows += [
                (f"pass {p}", s, cpu.get(f"pass {p}"), peaks.get(f"pass {p}"))
                for p, s in passes.items()
                if p != "index"
            ]
        elif stage == "index":
            rows.append(
                ("pass index", passes.get("index", seconds), cpu.get("pass index"), peaks.get("pass index"))
            )
        else:
            rows.append(
                (stage if stage != "overlays" else "overlay files", seconds, cpu.get(stage), peaks.get(stage))
            )
    rows.append(("compile (total)", f.get("compile_s"), f.get("compile_cpu_s"), f.get("peak_rss_mib")))
    return rows


def _ratio(value: float | None, first: float | None) -> str:
    if value is None or not first:
        return ""
    return f"{value / first:.1f}×"


def scaling_table(all_figures: list[dict[str, Any]]) -> Table:
    """One row per stage/pass; per size its seconds and peak MiB, and their ratio to the first size's."""
    first = all_figures[0]
    sizes = ", ".join(f"{f['apis']:,}" for f in all_figures)
    table = Table(
        title=f"bench compile per step, APIs {sizes} (embeddings: {first.get('embeddings') or 'config'})",
        show_edge=False,
    )
    table.add_column("step")
    for f in all_figures:
        ratio = f"{f['apis'] / first['apis']:.1f}× APIs" if f is not first else "base"
        table.add_column(f"{f['apis']:,} s ({ratio})", justify="right")
        table.add_column("CPU s", justify="right")
        table.add_column("peak MiB", justify="right")
    base = {row[0]: row[1:] for row in step_rows(first)}
    by_size = [{row[0]: row[1:] for row in step_rows(f)} for f in all_figures]
    for name, first_values in base.items():
        cells: list[str] = []
        for rows in by_size:
            for value, at_first, digits in zip(
                rows.get(name, (None, None, None)), first_values, (2, 2, 0), strict=True
            ):
                cells.append(
                    "" if value is None else f"{value:.{digits}f} {_ratio(value, at_first)}".rstrip()
                )
        table.add_row(name, *cells)
    _figure_row(table, all_figures, "graph edges", lambda f: float(f["edges"]), "{:,.0f}")
    _figure_row(table, all_figures, "snapshot MB", lambda f: f["snapshot_bytes"] / 1e6, "{:.0f}")
    _figure_row(
        table, all_figures, "parse workers' peak MiB", lambda f: f["parse_workers_peak_rss_mib"], "{:.0f}"
    )
    if all("tree_peak_pss_mib" in f for f in all_figures):
        _figure_row(
            table,
            all_figures,
            "whole compile's peak PSS MiB (with its children)",
            lambda f: f["tree_peak_pss_mib"],
            "{:.0f}",
        )
    table.add_row("target (wall s, MiB)", *[c for f in all_figures for c in _target(f)])
    table.add_row("load average (1, 5, 15 min)", *[c for f in all_figures for c in (_load(f), "", "")])
    return table


def _figure_row(table: Table, all_figures: list[dict[str, Any]], name: str, get: Any, fmt: str) -> None:
    base = get(all_figures[0])
    cells: list[str] = []
    for f in all_figures:
        value = get(f)
        cells += [f"{fmt.format(value)} {_ratio(value, base)}".rstrip(), "", ""]
    table.add_row(name, *cells)


def _target(f: dict[str, Any]) -> list[str]:
    target = TARGETS.get(f["apis"])
    if target is None:
        return ["", "", ""]
    seconds, mib = target
    ok_s = "[green]ok[/green]" if f["compile_s"] <= seconds else "[red]missed[/red]"
    ok_m = "[green]ok[/green]" if f["peak_rss_mib"] <= mib else "[red]missed[/red]"
    if "tree_peak_pss_mib" in f:  # the whole compile's memory, when measured
        ok_m += " / tree " + ("[green]ok[/green]" if f["tree_peak_pss_mib"] <= mib else "[red]missed[/red]")
    return [f"≤ {seconds:.0f} {ok_s}", "", f"≤ {mib:.0f} {ok_m}"]


def _load(f: dict[str, Any]) -> str:
    return " ".join(f"{x:.1f}" for x in f.get("load_average", []))
