"""``apiatlas plan``: the ranked call chains that answer a request, with where every input comes from."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from apiatlas.cli_app import app, bench_app
from apiatlas.errors import SnapshotError
from apiatlas.planning.model import CandidateChain, InputSource, PlanResult
from apiatlas.planning.planner import Planner, reads_only
from apiatlas.snapshot.reader import Snapshot


def parse_known(pairs: list[str]) -> dict[str, Any]:
    """``["LastName=Smith", "OnlyOpen=1"]`` -> ``{"LastName": "Smith", "OnlyOpen": "1"}``."""
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise typer.BadParameter(f"--known takes NAME=VALUE, got {pair!r}")
        out[name.strip()] = value
    return out


@app.command("plan")
def plan_command(
    snapshot: Annotated[Path, typer.Argument(help="The snapshot file (*.atlas).")],
    request: Annotated[str, typer.Argument(help="The request in the user's own words (Russian or English).")],
    known: Annotated[
        list[str] | None, typer.Option("--known", help="A value you know, NAME=VALUE (repeatable).")
    ] = None,
    target: Annotated[str | None, typer.Option("--target", help="The API whose result you want.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the plan as JSON.")] = False,
    writes: Annotated[
        bool,
        typer.Option(
            "--writes", help="Let chains use write APIs too (a server without roles runs reads only)."
        ),
    ] = False,
) -> None:
    """Plan the calls that answer a request: chains best first, each input's source, what is missing."""
    values = parse_known(list(known or []))
    try:
        with Snapshot.open(snapshot) as snap:
            planner = Planner(snap, allow=None if writes else reads_only)
            result = planner.plan(request, target=target, known=values)
    except SnapshotError as exc:
        typer.secho(f"error: {exc}", fg="red", err=True)
        raise typer.Exit(1) from exc
    if as_json:
        data = result.model_dump(mode="json")
        if result.chains:
            data["execute_chain_steps"] = [
                s.model_dump(mode="json", exclude_defaults=True) for s in result.chains[0].chain_steps(values)
            ]
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        print_plan(Console(), result)
    if result.status == "error":
        raise typer.Exit(1)


def describe_input(source: InputSource) -> str:
    """One line: ``AuthorKey (Filter) ← step 0 Authors.Key [alias 0.75]`` (field, table, origin)."""
    name = f"{source.name} ({source.table})" if source.table else source.name
    if source.origin == "step":
        return (
            f"{name} ← step {source.from_step} {source.from_table}.{source.from_field} "
            f"[{source.level} {source.confidence:.2f}]"
        )
    if source.origin == "user":
        return f"{name} ← ASK THE USER"
    return f"{name} = {source.value!r} ({'from the request' if source.origin == 'request' else 'known'})"


def print_plan(console: Console, result: PlanResult) -> None:
    """The plan as text: values found, then each candidate chain with its steps and inputs."""
    console.print(
        f"[bold]{result.status}[/] {result.reason.value}: {result.message} ({result.elapsed_ms:.1f} ms)"
    )
    for line in result.unclear:  # below the confidence threshold: what the plan is unsure of
        console.print(f"unclear: {escape(line)}", highlight=False)
    if result.values:
        console.print("values in the request: " + ", ".join(f"{v.kind}={v.value!r}" for v in result.values))
    for rank, chain in enumerate(result.chains, 1):
        print_chain(console, rank, chain)


def print_chain(console: Console, rank: int, chain: CandidateChain) -> None:
    console.print(
        f"\n[bold]#{rank}[/] score {chain.score:.2f}, confidence {chain.confidence:.2f}: "
        + " → ".join(chain.api_keys)
    )
    for index, step in enumerate(chain.steps):
        console.print(f"  {index}. {step.api}" + (f" — {step.title}" if step.title else ""), highlight=False)
        for source in step.inputs:
            console.print(f"       {escape(describe_input(source))}", highlight=False)
    if chain.missing:
        console.print("  missing: " + ", ".join(chain.missing))


@bench_app.command("plan")
def bench_plan(
    snapshot: Annotated[
        Path, typer.Argument(help="The snapshot file (*.atlas), e.g. a 3,158-API generated one.")
    ],
    requests: Annotated[
        Path | None,
        typer.Option("--requests", help="chains.yaml whose requests are planned (default: the bank's)."),
    ] = None,
    rounds: Annotated[int, typer.Option("--rounds", min=1, help="Times every request is planned.")] = 3,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Time the planner: each request of a chain set planned from its text; p50, p95, max in milliseconds."""
    from apiatlas.gc_phases import settle_heap
    from apiatlas.planning.evaluation import bank_cases

    source = requests or Path(__file__).resolve().parents[3] / "examples" / "bank" / "eval" / "chains.yaml"
    texts = [case.text for case in bank_cases(source)]
    try:
        with Snapshot.open(snapshot) as snap:
            planner = Planner(snap, allow=reads_only)  # as the server plans
            started = time.perf_counter()
            planner.plan(texts[0])  # first call reads the title statistics once
            first = (time.perf_counter() - started) * 1000
            settle_heap()  # as the server does once warm: no full collection walks the snapshot's objects
            times = sorted(planner.plan(text).elapsed_ms for _ in range(rounds) for text in texts)
            apis = snap.counts().get("kept_apis", 0)
    except SnapshotError as exc:
        typer.secho(f"error: {exc}", fg="red", err=True)
        raise typer.Exit(1) from exc
    figures = {
        "snapshot": str(snapshot), "kept_apis": apis, "plans": len(times), "first_plan_ms": round(first, 3),
        "p50_ms": times[len(times) // 2], "p95_ms": times[min(len(times) - 1, int(len(times) * 0.95))],
        "max_ms": times[-1],
    }  # fmt: skip
    if as_json:
        typer.echo(json.dumps(figures, indent=2))
        return
    Console().print(
        f"plan: {figures['plans']} plans on {apis} APIs — p50 {figures['p50_ms']:.1f} ms, "
        f"p95 {figures['p95_ms']:.1f} ms, max {figures['max_ms']:.1f} ms (first plan {first:.1f} ms)",
        highlight=False,
    )
