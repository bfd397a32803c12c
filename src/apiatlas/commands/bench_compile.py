"""``apiatlas bench compile``: time doc generation, compile by stage, snapshot size and snapshot open/info."""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from apiatlas.cli_app import bench_app

COMPILE_TARGET_S = 60.0  # for --apis 3158 on a 2-core machine
INFO_TARGET_S = 0.5
OPEN_RUNS = 20
SUBPROCESS_RUNS = 3
# `apiatlas info --json SNAP` with only the info command imported (what info itself costs)
_INFO_ONLY = (
    "import sys; from apiatlas.cli_app import app; import apiatlas.commands.info; "
    "app(['info', sys.argv[1], '--json'])"
)


def run_bench(apis: int, seed: int, work: Path, runs: int = SUBPROCESS_RUNS) -> dict[str, Any]:
    """Generate, compile and measure in ``work``; return the figures."""
    from apiatlas.build import compile_docs
    from apiatlas.samples.overlays import write_overlays
    from apiatlas.samples.render import write_doc_set
    from apiatlas.samples.scale import generate_doc_set
    from apiatlas.snapshot.reader import Snapshot
    from apiatlas.snapshot.writer import write_snapshot

    docs, overlays, snap = work / "docs", work / "overlays", work / "bench.atlas"
    shutil.rmtree(docs, ignore_errors=True)
    start = time.perf_counter()
    doc = generate_doc_set(apis, seed=seed)
    stats = write_doc_set(doc, docs)
    write_overlays(overlays, {a.name for a in doc.apis})
    gen_s = time.perf_counter() - start

    start = time.perf_counter()
    result = compile_docs(docs, overlays_dir=overlays, config_path=None, out=snap)
    compile_s = time.perf_counter() - start

    again = work / "bench.again.atlas"
    write_snapshot(
        result.catalog,
        again,
        options=result.manifest.options,
        vectors=result.vectors,
        search_index=result.search_index,
    )
    deterministic = again.read_bytes() == snap.read_bytes()
    again.unlink()

    open_ms = []
    for _ in range(OPEN_RUNS):
        t = time.perf_counter()
        with Snapshot.open(snap) as s:
            s.manifest()
        open_ms.append((time.perf_counter() - t) * 1000)

    counts = result.manifest.counts
    return {
        "apis": apis,
        "seed": seed,
        "pages": stats.objects + stats.apis + stats.tables + stats.type_pages,
        "gen_s": round(gen_s, 3),
        "compile_s": round(compile_s, 3),
        "compile_stages_s": {k: round(v, 3) for k, v in result.timings.items()},
        "compile_target_s": COMPILE_TARGET_S if apis <= 3158 else None,
        "snapshot_bytes": snap.stat().st_size,
        "deterministic": deterministic,
        "open_manifest_ms": round(statistics.median(open_ms), 3),
        "info_subprocess_s": round(_wall([_apiatlas(), "info", str(snap), "--json"], runs), 3),
        "cli_import_subprocess_s": round(_wall([sys.executable, "-c", "import apiatlas.cli"], runs), 3),
        "info_own_imports_subprocess_s": round(_wall([sys.executable, "-c", _INFO_ONLY, str(snap)], runs), 3),
        "info_target_s": INFO_TARGET_S,
        "kept_apis": counts.get("kept_apis", 0),
        "objects": counts.get("objects", 0),
        "tables": counts.get("tables", 0),
        "edges": counts.get("edges", 0),
        "entry_points": counts.get("entry_points", 0),
        "diagnostics_error": counts.get("diagnostics_error", 0),
        "diagnostics_warning": counts.get("diagnostics_warning", 0),
        "funnel": [(s["stage"], s["count"]) for s in result.manifest.funnel.get("stages", [])],
        "edges_by_level": result.manifest.graph.get("by_level", {}),
    }


def _apiatlas() -> str:
    script = Path(sys.executable).with_name("apiatlas")
    return str(script) if script.exists() else shutil.which("apiatlas") or "apiatlas"


def _wall(argv: list[str], runs: int) -> float:
    """Best wall time of a fresh process over ``runs`` runs (the first warms the file cache)."""
    times = []
    for _ in range(max(runs, 1)):
        t = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
    return min(times)


@bench_app.command("compile")
def bench_compile(
    apis: Annotated[int, typer.Option("--apis", help="Size of the generated documentation set.")] = 3158,
    seed: Annotated[int, typer.Option("--seed", help="Generator seed.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    keep: Annotated[Path | None, typer.Option("--keep", help="Work in DIR and keep docs + snapshot.")] = None,
    runs: Annotated[int, typer.Option("--runs", help="Fresh-process runs per timing (best is kept).")] = 3,
) -> None:
    """Time compile end to end on a generated bank documentation set, and snapshot open/info."""
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        figures = run_bench(apis, seed, keep, runs)
    else:
        with tempfile.TemporaryDirectory(prefix="apiatlas-bench-") as tmp:
            figures = run_bench(apis, seed, Path(tmp), runs)
    if as_json:
        typer.echo(json.dumps(figures, ensure_ascii=False, indent=2, sort_keys=True))
        return
    Console().print(figures_table(figures))


def figures_table(f: dict[str, Any]) -> Table:
    table = Table(title=f"bench compile --apis {f['apis']} (seed {f['seed']})", show_edge=False)
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_column("target")

    def verdict(value: float, target: float | None) -> str:
        if target is None:
            return ""
        return f"< {target} s " + ("[green]ok[/green]" if value < target else "[red]missed[/red]")

    table.add_row("generate docs", f"{f['gen_s']:.2f} s ({f['pages']} pages)", "")
    stages = f["compile_stages_s"]
    index_s = stages.get("index", 0.0)
    table.add_row("compile (total)", f"{f['compile_s']:.2f} s", "")
    table.add_row(
        "compile without the embedding (index) stage",
        f"{f['compile_s'] - index_s:.2f} s",
        verdict(f["compile_s"] - index_s, f["compile_target_s"]),
    )
    for stage, seconds in stages.items():
        note = "card embeddings (cached: a recompile embeds changed cards only)" if stage == "index" else ""
        table.add_row(f"  {stage}", f"{seconds:.2f} s", note)
    table.add_row("snapshot size", f"{f['snapshot_bytes'] / 1048576:.1f} MB", "")
    table.add_row("byte-identical rewrite", "yes" if f["deterministic"] else "[red]no[/red]", "")
    table.add_row("Snapshot.open + manifest (in-process)", f"{f['open_manifest_ms']:.2f} ms", "")
    table.add_row(
        "apiatlas info (fresh process)",
        f"{f['info_subprocess_s']:.3f} s",
        verdict(f["info_subprocess_s"], INFO_TARGET_S),
    )
    table.add_row("  import apiatlas.cli alone", f"{f['cli_import_subprocess_s']:.3f} s", "")
    table.add_row("  info with only its own imports", f"{f['info_own_imports_subprocess_s']:.3f} s", "")
    table.add_row("APIs kept / parsed", f"{f['kept_apis']} / {f['apis']}", "")
    table.add_row("business objects / tables", f"{f['objects']} / {f['tables']}", "")
    table.add_row("edges / entry points", f"{f['edges']} / {f['entry_points']}", "")
    table.add_row("diagnostics error / warning", f"{f['diagnostics_error']} / {f['diagnostics_warning']}", "")
    table.add_row("funnel", " → ".join(str(n) for _, n in f["funnel"]), "")
    return table
