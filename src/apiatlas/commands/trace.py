"""``apiatlas trace show TURN_ID``: the engineer's view of one assistant turn from the trace file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from apiatlas.cli_app import app

trace_app = typer.Typer(help="The assistant's trace: every artifact of every turn.", no_args_is_help=True)
app.add_typer(trace_app, name="trace")


@trace_app.command("show")
def show(
    turn_id: Annotated[str, typer.Argument(help="the turn id an answer printed, or 'last'")],
    snapshot: Annotated[
        Path | None,
        typer.Option("--snapshot", help="the snapshot the turn was asked of (its trace beside it)"),
    ] = None,
    trace: Annotated[Path | None, typer.Option("--trace", help="the trace file (*.trace.jsonl)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the turn's artifacts as JSON")] = False,
) -> None:
    """How the question was understood, what was bound, the route, the calls, what was found, and why."""
    from apiatlas.assistant.session import AssistantOptions
    from apiatlas.assistant.trace import TraceLog, debug_view

    if trace is None:
        if snapshot is None:
            typer.echo("error: give --snapshot SNAP or --trace FILE", err=True)
            raise typer.Exit(2)
        trace = AssistantOptions(snapshot).trace_path()
    turn = TraceLog(trace).find(turn_id)
    if turn is None:
        typer.echo(f"error: no turn {turn_id!r} in {trace}", err=True)
        raise typer.Exit(1)
    if as_json:
        typer.echo(json.dumps(turn.model_dump(mode="json"), ensure_ascii=False, indent=2))
    else:
        typer.echo(debug_view(turn))
