"""``apiatlas eval chains``: plan each request from its text alone; exact match and correct path vs gold."""

from __future__ import annotations

import json
import tempfile
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from apiatlas.commands.eval_retrieval import _shared_data, eval_app
from apiatlas.errors import ApiatlasError, Location, ReasonCode, SnapshotError
from apiatlas.planning.evaluation import GoldCase, bank_cases, report, restbench_cases, run_cases
from apiatlas.planning.planner import Planner, reads_only

_EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
_BANK = _EXAMPLES / "bank"
_RESTBENCH_CONFIG = _EXAMPLES / "restbench" / "apiatlas.yaml"  # TMDB's vocabulary, as a user gives it


class ChainDataset(StrEnum):
    RESTBENCH = "restbench"
    BANK = "bank"
    OPENAPI = "openapi"  # SPEC CHAINS: any OpenAPI spec, chains in RestBench's format (extra keys ignored)
    NESTFUL = "nestful"  # SPEC DATA: NESTFUL's executable-spec.json and executable-data.json


def _compile(source: Path, out: Path, config: Path | None) -> Path:
    from apiatlas.build import compile_docs

    compile_docs(source, overlays_dir=None, config_path=config, out=out, write_report=False)
    return out


def _bank_snapshot(folder: Path, out: Path, config: Path | None) -> Path:
    from apiatlas.build import compile_docs, default_overlays_dir

    docs = folder / "docs"
    config = config or (folder / "apiatlas.yaml" if (folder / "apiatlas.yaml").is_file() else None)
    compile_docs(
        docs, overlays_dir=default_overlays_dir(docs), config_path=config, out=out, write_report=False
    )
    return out


def _spec_snapshot(spec: Path, work: Path, config: Path | None, compiled: Path | None) -> Path:
    """``compiled`` when given (it must have been compiled from a file named as ``spec``), else ``spec``
    compiled in ``work`` with ``config``."""
    if compiled is None:
        return _compile(spec, work / "openapi.atlas", config)
    from apiatlas.snapshot import Snapshot

    with Snapshot.open(compiled) as snap:
        source = str(snap.manifest().get("source_root") or "")
    if Path(source).name != Path(spec).name:
        raise SnapshotError(
            f"{compiled} was compiled from {source or 'an unknown source'}, not {spec}",
            code=ReasonCode.INVALID_ARGUMENT,
            location=Location(file=str(compiled)),
        )
    return compiled


def _openapi(
    files: list[Path], work: Path, config: Path | None, compiled: Path | None, writes: bool
) -> dict[str, Any]:
    from apiatlas.evals.chains import check_gold, writes_report
    from apiatlas.snapshot import Snapshot

    if len(files) != 2:
        raise typer.BadParameter(
            "openapi takes two files: SPEC CHAINS (e.g. SPEC examples/slack/eval/chains.json)"
        )
    spec, chains = files
    with Snapshot.open(_spec_snapshot(spec, work, config, compiled)) as snap:
        cases = restbench_cases(chains, set(snap.all_api_keys()))
        check_gold(cases, snap, chains)
        runs = run_cases(snap, cases, Planner(snap, allow=None if writes else reads_only))
        return {"dataset": f"openapi:{Path(spec).name}", **writes_report(runs, snap, writes)}


def _nestful(files: list[Path], work: Path, config: Path | None) -> dict[str, Any]:
    from apiatlas.evals.nestful import graph_recall, nestful_cases, nestful_report, run_nestful
    from apiatlas.snapshot import Snapshot

    root = _shared_data() / "nestful"
    if len(files) not in (0, 2):
        raise typer.BadParameter(
            "nestful takes two files: SPEC DATA (executable-spec.json executable-data.json)"
        )
    spec, data = files or [root / "executable-spec.json", root / "executable-data.json"]
    with Snapshot.open(_compile(spec, work / "nestful.atlas", config)) as snap:
        cases = nestful_cases(data, set(snap.all_api_keys()))
        runs = run_nestful(Planner(snap, allow=reads_only), cases)
        graph = graph_recall([c for c in cases if not c.held_out], snap)  # the misses listed: development
        every = {k: v for k, v in graph_recall(cases, snap).items() if k != "missed"}
    return {"dataset": "nestful", **nestful_report(runs), "graph": graph, "graph_all": every}


def evaluate(
    dataset: ChainDataset,
    files: list[Path],
    work: Path,
    config: Path | None = None,
    compiled: Path | None = None,
    writes: bool = False,
) -> dict[str, Any]:
    """Compile the dataset's catalog in ``work`` (with the build ``config``: RestBench's own files use
    ``examples/restbench/apiatlas.yaml``, a bank folder its ``apiatlas.yaml``; an OpenAPI spec may come
    ``compiled`` already), plan every request (reads only unless ``writes``) and return the figures."""
    from apiatlas.snapshot import Snapshot

    if dataset is ChainDataset.OPENAPI:
        return _openapi(files, work, config, compiled, writes)
    if dataset is ChainDataset.NESTFUL:
        return _nestful(files, work, config)
    if compiled is not None or writes:
        raise typer.BadParameter("--snapshot and --writes are for --dataset openapi")
    cases: list[GoldCase]
    if dataset is ChainDataset.RESTBENCH:
        root = _shared_data() / "restbench"
        spec, queries = files if len(files) == 2 else (root / "tmdb_oas.json", root / "tmdb_queries.json")
        config = config or (_RESTBENCH_CONFIG if len(files) != 2 else None)
        snapshot_path = _compile(spec, work / "restbench.atlas", config)
        with Snapshot.open(snapshot_path) as snap:
            cases = restbench_cases(queries, set(snap.all_api_keys()))
            runs = run_cases(snap, cases)
    else:
        folder = files[0] if files else _BANK
        snapshot_path = _bank_snapshot(folder, work / "bank.atlas", config)
        chains = files[1] if len(files) > 1 else folder / "eval" / "chains.yaml"
        with Snapshot.open(snapshot_path) as snap:
            runs = run_cases(snap, bank_cases(chains))
    return {"dataset": dataset.value, **report(runs)}


@eval_app.command("chains")
def eval_chains(
    files: Annotated[
        list[Path] | None,
        typer.Argument(
            help="RestBench: SPEC QUERIES; bank: the bank folder [and chains.yaml]; openapi: SPEC CHAINS; "
            "nestful: SPEC DATA."
        ),
    ] = None,
    dataset: Annotated[
        ChainDataset,
        typer.Option(
            "--dataset",
            help="restbench (TMDB spec + queries), bank, openapi (any spec + chains) or nestful.",
        ),
    ] = ChainDataset.RESTBENCH,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures and misses as JSON.")] = False,
    misses: Annotated[
        bool, typer.Option("--misses", help="Also print every development request planned wrong.")
    ] = False,
    config: Annotated[
        Path | None, typer.Option("--config", help="Build config of the catalog (its vocabulary).")
    ] = None,
    compiled: Annotated[
        Path | None,
        typer.Option(
            "--snapshot",
            help="openapi: a snapshot already compiled from SPEC (`apiatlas compile`) to plan on.",
        ),
    ] = None,
    writes: Annotated[
        bool, typer.Option("--writes", help="openapi: let chains use write APIs too (as `plan --writes`).")
    ] = False,
) -> None:
    """Plan every request of a dataset from its text alone and compare the top chain with the gold chain."""
    try:
        with tempfile.TemporaryDirectory(prefix="apiatlas-chains-") as tmp:
            result = evaluate(dataset, list(files or []), Path(tmp), config, compiled, writes)
    except ApiatlasError as exc:
        typer.secho(f"error: {exc}", fg="red", err=True)
        raise typer.Exit(1) from exc
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False, indent=2))
        return
    console = Console()
    console.print(figures_table(result))
    if "writes" in result:
        print_writes(result["writes"])
    if "graph" in result:
        graph = result["graph"]
        typer.echo(
            f"dependency graph vs gold bindings: {graph['linked']} of {graph['gold_pairs']} linked "
            f"(recall {graph['recall']:.3f}; {graph['recall_attainable']:.3f} of the "
            f"{graph['attainable_pairs']} whose field and input the spec lists)"
        )
    if misses:
        for miss in result["misses"]:
            console.print(f"\n{miss['id']}: {miss['query']}", highlight=False)
            console.print("  gold:    " + " → ".join(miss["gold"]), highlight=False)
            console.print("  planned: " + (" → ".join(miss["planned"]) or "(none)"), highlight=False)
            if miss.get("bindings"):
                console.print(f"  gold bindings planned: {miss['bindings']}", highlight=False)
            if miss.get("gold_writes"):
                console.print("  gold writes: " + ", ".join(miss["gold_writes"]), highlight=False)
        if result.get("held_out_misses"):
            console.print(f"\n(and {result['held_out_misses']} held-out misses, not shown)", highlight=False)


def print_writes(writes: dict[str, Any]) -> None:
    """The cases whose gold calls a write and the read-only ones, each with its figures."""
    for name in ("with_write", "reads_only"):
        part = writes[name]
        if not part.get("cases"):
            typer.echo(f"{name.replace('_', ' ')}: no case")
            continue
        typer.echo(
            f"{name.replace('_', ' ')}: {part['cases']} cases, exact {part['exact_match']:.3f}, "
            f"correct path {part['correct_path']:.3f}"
        )
    typer.echo(writes["note"])


def figures_table(result: dict[str, Any]) -> Table:
    table = Table(
        title=f"eval chains — {result['dataset']} (plan from the request text alone)", show_edge=False
    )
    table.add_column("figure")
    nestful = "sequence_match" in result["all"]
    for split in ("all", "development", "held_out"):
        table.add_column(split.replace("_", "-"), justify="right")
    rows: tuple[str, ...] = ("cases", "exact_match", "correct_path", "mean_extra_steps", "wrong_confident",
                             "right_held_back", "latency_p50_ms", "latency_p95_ms")  # fmt: skip
    if nestful:
        rows = ("cases", "sequence_match", "correct_path", "binding_accuracy", "gold_bindings")
    for row in rows:
        cells = []
        for split in ("all", "development", "held_out"):
            value = result[split].get(row, 0)
            cells.append(str(value) if row in ("cases", "gold_bindings") else f"{value:.3f}")
        table.add_row(row, *cells)
    return table


_CALIBRATED = Path(__file__).resolve().parents[1] / "planning" / "calibrated.py"


# the OpenAPI chain sets of the confidence fit: (catalog, spec, chains file, dataset, split); split "hash":
# the development half fitted, the held-out half measured (`fresh2`, `fresh3`: sealed once, development now,
# their held-out halves report only); "all": every case fitted (sets written to measure the planner on
# requests it was not tuned to); "never": every case measured, never fitted. Sealed sets (`fresh4`) and the
# report-only `chains_fresh.json` are never read here
_SLACK, _K8S, _STRIPE = "slack_web_openapi_v2.json", "kubernetes.swagger.json", "stripe-2023-09.spec3.yaml"
_CONFIDENCE_SETS = (
    ("slack", _SLACK, "slack/eval/chains.json", "slack", "hash"),
    ("slack", _SLACK, "slack/eval/chains_more.json", "slack-more", "all"),
    ("kubernetes", _K8S, "kubernetes/eval/chains.json", "kubernetes", "hash"),
    ("kubernetes", _K8S, "kubernetes/eval/chains_more.json", "kubernetes-more", "all"),
    ("stripe", _STRIPE, "stripe/eval/stripe_chains.json", "stripe", "hash"),
    ("stripe", _STRIPE, "stripe/eval/stripe_chains_more.json", "stripe-more", "never"),
    ("slack", _SLACK, "slack/eval/chains_third.json", "slack-third", "all"),
    ("slack", _SLACK, "slack/eval/chains_fourth.json", "slack-fourth", "all"),
    ("slack", _SLACK, "slack/eval/chains_fresh2.json", "slack-fresh2", "hash"),
    ("kubernetes", _K8S, "kubernetes/eval/chains_third.json", "kubernetes-third", "all"),
    ("kubernetes", _K8S, "kubernetes/eval/chains_fourth.json", "kubernetes-fourth", "all"),
    ("kubernetes", _K8S, "kubernetes/eval/chains_fresh2.json", "kubernetes-fresh2", "hash"),
    ("stripe", _STRIPE, "stripe/eval/stripe_chains_third.json", "stripe-third", "all"),
    ("stripe", _STRIPE, "stripe/eval/stripe_chains_fresh2.json", "stripe-fresh2", "hash"),
    ("slack", _SLACK, "slack/eval/chains_fresh3.json", "slack-fresh3", "hash"),
    ("kubernetes", _K8S, "kubernetes/eval/chains_fresh3.json", "kubernetes-fresh3", "hash"),
    ("stripe", _STRIPE, "stripe/eval/stripe_chains_fresh3.json", "stripe-fresh3", "hash"),
)


def _confidence_samples(work: Path) -> list[Any]:
    """Every case of the chain sets planned without a confidence model: TMDB (RestBench, reads), the
    sample bank (reads), NESTFUL (reads), and Slack, Kubernetes and Stripe (``_CONFIDENCE_SETS``, writes
    allowed as their figures are taken); the split of each set as its `eval chains` has it."""
    from apiatlas.evals.nestful import nestful_cases
    from apiatlas.evals.plan_confidence import PlanSample, plan_sample
    from apiatlas.snapshot import Snapshot

    data = _shared_data()
    samples: list[PlanSample] = []

    def gold_set(
        name: str, snapshot: Path, cases: Any, allow: Any, split: str = "hash", catalog: str = ""
    ) -> None:
        with Snapshot.open(snapshot) as snap:
            planner = Planner(snap, allow=allow, confidence=None)
            for case in cases(snap):
                right = (lambda c: lambda planned: planned in (c.gold, *c.also_ok))(case)
                held, fitted = case.held_out and split == "hash", split != "never"
                samples.append(plan_sample(planner, name, case.qid, case.text, held, right, catalog, fitted))

    tmdb = _compile(data / "restbench" / "tmdb_oas.json", work / "tmdb.atlas", _RESTBENCH_CONFIG)
    gold_set("tmdb", tmdb, lambda s: restbench_cases(data / "restbench" / "tmdb_queries.json",
                                                     set(s.all_api_keys())), reads_only)  # fmt: skip
    bank = _bank_snapshot(_BANK, work / "bank.atlas", None)
    gold_set("bank", bank, lambda s: bank_cases(_BANK / "eval" / "chains.yaml"), reads_only)
    snapshots: dict[str, Path] = {}
    for catalog, spec, chains, name, split in _CONFIDENCE_SETS:
        if catalog not in snapshots:
            snapshots[catalog] = _compile(data / "openapi" / spec, work / f"{catalog}.atlas", None)
        cases = (lambda f: lambda snap: _checked_cases(f, snap))(_EXAMPLES / chains)
        gold_set(name, snapshots[catalog], cases, None, split, catalog)
    root = data / "nestful"
    with Snapshot.open(_compile(root / "executable-spec.json", work / "nestful.atlas", None)) as snap:
        planner = Planner(snap, allow=reads_only, confidence=None)
        for c in nestful_cases(root / "executable-data.json", set(snap.all_api_keys())):
            right = (lambda gold: lambda planned: planned == gold)(c.gold)
            samples.append(plan_sample(planner, "nestful", c.qid, c.text, c.held_out, right))
    return samples


def _checked_cases(chains: Path, snap: Any) -> list[GoldCase]:
    """The chains of ``chains`` over ``snap``, their gold checked against its keys."""
    from apiatlas.evals.chains import check_gold

    found = restbench_cases(chains, set(snap.all_api_keys()))
    check_gold(found, snap, chains)
    return found


def _literal(value: Any) -> str:
    """A value as Python source, a list one item per line, a long text in pieces of at most 80 characters
    (the file stays within the line length)."""
    if isinstance(value, list):
        return "[\n" + "".join(f"        {json.dumps(x)},\n" for x in value) + "    ]"
    if isinstance(value, str) and len(value) > 80:
        pieces = [value[i : i + 80] for i in range(0, len(value), 80)]
        return "(\n" + "".join(f"        {json.dumps(x, ensure_ascii=False)}\n" for x in pieces) + "    )"
    return json.dumps(value, ensure_ascii=False)


def _write_calibrated(model: Any) -> None:
    fields = model.model_dump()
    body = ",\n".join(f"    {k}={_literal(v)}" for k, v in fields.items())
    text = _CALIBRATED.read_text(encoding="utf-8").split("SHIPPED_PLAN_CONFIDENCE =", 1)[0]
    _CALIBRATED.write_text(text + f"SHIPPED_PLAN_CONFIDENCE = PlanConfidenceModel(\n{body},\n)\n")


@eval_app.command("plan-confidence")
def eval_plan_confidence(
    as_json: Annotated[bool, typer.Option("--json", help="Print the model and figures as JSON.")] = False,
    write: Annotated[
        bool, typer.Option("--write", help="Write the fitted model to planning/calibrated.py (shipped).")
    ] = False,
) -> None:
    """Fit the plan-confidence model on the development halves of the chain sets (TMDB, bank, Slack,
    Kubernetes, Stripe, NESTFUL; the later sets of Slack, Kubernetes and Stripe whole or their development
    halves: `_CONFIDENCE_SETS`), its threshold on each
    catalog's plans scored by the model fitted without that catalog, and report per set how often a wrong
    top chain is confident and how many right ones NO_CONFIDENT_PLAN loses: on the fitted cases, left out
    (`leave-one-out`), never fitted (Stripe's `stripe_chains_more`) and held out."""
    from apiatlas.evals.plan_confidence import confidence_report, fit_plan_confidence

    try:
        with tempfile.TemporaryDirectory(prefix="apiatlas-confidence-") as tmp:
            samples = _confidence_samples(Path(tmp))
    except ApiatlasError as exc:
        typer.secho(f"error: {exc}", fg="red", err=True)
        raise typer.Exit(1) from exc
    sets = " + ".join(dict.fromkeys(s.dataset for s in samples if s.fitted))
    dev = sum(1 for s in samples if s.fitted and not s.held_out)
    fitted_on = f"development cases of {sets} ({dev} plans; threshold with each catalog left out)"
    model = fit_plan_confidence(samples, fitted_on)
    report = confidence_report(samples, model)
    if write:
        _write_calibrated(model)
    if as_json:
        typer.echo(json.dumps(report, indent=2))
        return
    Console().print(_confidence_table(report, model.threshold))


def _confidence_table(report: dict[str, Any], threshold: float) -> Table:
    table = Table(title=f"plan confidence — threshold {threshold:.3f}", show_edge=False)
    for column in ("set", "split", "cases", "right", "confident", "wrong_confident", "right_lost"):
        table.add_column(column, justify="right")
    for name, splits in report["sets"].items():
        for split in ("development", "leave_one_out", "held_out"):
            f = splits[split]
            if not f["cases"]:
                continue
            label = split.replace("_", "-") if splits["fitted"] or split != "development" else "never fitted"
            table.add_row(name, label, str(f["cases"]), str(f["right"]), f"{f['confident']:.3f}",
                          f"{f['wrong_confident']:.3f}", f"{f['right_lost']:.3f}")  # fmt: skip
    return table
