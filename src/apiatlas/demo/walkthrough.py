"""Drives ``apiatlas serve`` over stdio with the official MCP client and prints each call of each scenario."""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tiktoken
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from rich.console import Console
from rich.table import Table

from apiatlas.samples.demo_scenarios import Scenario, scenarios
from apiatlas.server.benchmark import ENCODING, tokens

PREFIX = "bank_"


@dataclass(frozen=True)
class CallRecord:
    scenario: str
    tool: str
    status: str
    reason: str | None
    latency_ms: float
    response_tokens: int


def serve_parameters(snapshot: Path, db_url: str) -> StdioServerParameters:
    """``apiatlas serve SNAP`` as a subprocess of this interpreter; the DB URL travels in the environment."""
    env = {**os.environ, "APIATLAS_DB_URL": db_url}
    return StdioServerParameters(
        command=sys.executable, args=["-m", "apiatlas.entry", "serve", str(snapshot)], env=env
    )


def _cell(value: Any) -> str:
    text = "" if value is None else str(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _print_tables(console: Console, tables: list[dict[str, Any]], limit: int = 6) -> None:
    for table in tables:
        shown = table["rows"][:limit]
        view = Table(
            title=f"{table['name']}: {table['rows_returned']} row(s)"
            + (f", first {len(shown)} shown" if len(shown) < table["rows_returned"] else ""),
            title_justify="left",
            show_lines=False,
        )
        for column in table["columns"]:
            view.add_column(column, overflow="fold")
        for row in shown:
            view.add_row(*(_cell(v) for v in row))
        console.print(view)


def _summarise(console: Console, tool: str, data: dict[str, Any]) -> None:
    """A few human lines about one structured result."""
    if data.get("message"):
        console.print(f"   [dim]message:[/] {data['message']}")
    if tool == "list_business_objects":
        objects = data.get("objects", [])
        names = ", ".join(f"{o['key']} ({o.get('title', '')})" for o in objects[:8])
        total = (data.get("paging") or {}).get("total", len(objects))
        console.print(f"   {total} objects, e.g. {names}")
    elif tool == "search":
        for hit in data.get("hits", [])[:5]:
            console.print(
                f"   • {hit['api_key']} [{hit.get('object_key', '')}] — {hit.get('title', '')}"
                + (f" [dim]({hit['why']})[/]" if hit.get("why") else "")
            )
        for closest in data.get("closest_objects", [])[:3]:
            console.print(f"   closest business object: {closest}")
    elif tool == "dependency_chain":
        for level, apis in enumerate(data.get("levels", [])):
            console.print(f"   level {level}: {', '.join(apis[:6])}{' …' if len(apis) > 6 else ''}")
        for link in data.get("links", [])[:6]:
            console.print(
                f"   {link['producer_api']}.{link['producer_field']} → "
                f"{link['consumer_api']}.{link['consumer_field']} ({link['confidence']})"
            )
    elif tool == "plan_chain":
        values = ", ".join(f"{v['kind']}={v['value']!r}" for v in data.get("values", []))
        console.print(f"   values in the request: {values or 'none'}")
        for line in data.get("unclear", []):
            console.print(f"   unclear: {line}", highlight=False, markup=False)
        for chain in data.get("chains", [])[:2]:
            console.print(
                f"   plan #{chain['rank']} (score {chain['score']:.2f}, "
                f"confidence {chain['confidence']:.2f}): " + " → ".join(chain["apis"]),
                highlight=False,
            )
            if chain["rank"] == 1:
                for line in chain["inputs"]:
                    console.print(f"      {line}", highlight=False, markup=False)
            for ask in chain.get("ask_user", []):
                console.print(f"      ask the user: {ask['input']} ({ask['api']}) → {ask['fill']}")
    elif tool == "describe_api":
        api = data.get("api") or {}
        schema = api.get("input_schema", {})
        console.print(f"   {api.get('key')}: {api.get('title', '')}; required: {schema.get('required', [])}")
        for line in api.get("when_to_use", [])[:2]:
            console.print(f"   when to use: {line}")
    elif tool == "execute_api":
        console.print(f"   rows: {data.get('rows_returned')}, evidence: {data.get('evidence_id')}")
        _print_tables(console, data.get("tables", []))
    elif tool == "execute_chain":
        for step in data.get("steps", []):
            console.print(
                f"   step {step['index']} {step['api']}: {step['status']}, {step['rows_returned']} row(s), "
                f"evidence {step.get('evidence_id')}"
            )
        last = (data.get("steps") or [{}])[-1]
        _print_tables(console, last.get("tables", []))
    for action in data.get("next_actions", [])[:3]:
        console.print(f"   [dim]next:[/] {action}")


async def run_walkthrough(snapshot: Path, db_url: str, console: Console) -> list[CallRecord]:
    """Run every scenario against a freshly spawned server; returns one record per tool call."""
    encoder = tiktoken.get_encoding(ENCODING)
    records: list[CallRecord] = []
    done: list[dict[str, Any]] = []
    started = time.perf_counter()
    async with Client(serve_parameters(snapshot, db_url)) as client:
        listed = await client.list_tools()
        manifest_tokens = tokens(
            encoder, [t.model_dump(mode="json", exclude_none=True) for t in listed.tools]
        )
        console.print(
            f"[bold]Connected[/] over stdio in {(time.perf_counter() - started) * 1000:.0f} ms: "
            f"{len(listed.tools)} tools, tools/list = {manifest_tokens} tokens"
        )
        for scenario in scenarios():
            console.rule(f"[bold]«{scenario.request}»")
            for step in scenario.steps:
                args = step.args(done) if callable(step.args) else step.args
                t0 = time.perf_counter()
                result = await client.call_tool(PREFIX + step.tool, args)
                elapsed = (time.perf_counter() - t0) * 1000
                data: dict[str, Any] = dict(result.structured_content or {})
                size = tokens(encoder, data)
                status = str(data.get("status", "error" if result.is_error else "ok"))
                reason = data.get("reason")
                console.print(
                    f"[cyan]→ {PREFIX}{step.tool}[/]({_args_preview(args)})  "
                    f"[green]{status}[/]{' ' + reason if reason else ''}  {elapsed:.0f} ms, {size} tokens"
                )
                console.print(f"   [dim]why:[/] {step.why}")
                _summarise(console, step.tool, data)
                records.append(CallRecord(scenario.request, step.tool, status, reason, elapsed, size))
                done.append(data)
            _conclude(console, scenario, done)
    return records


def _args_preview(args: dict[str, Any]) -> str:
    text = json.dumps(args, ensure_ascii=False)
    return text if len(text) <= 100 else text[:97] + "..."


def _conclude(console: Console, scenario: Scenario, done: list[dict[str, Any]]) -> None:
    """What the agent can now tell the user."""
    last = done[-1]
    if last.get("status") != "ok":
        console.print(f"[red]✗ the scenario ended with {last.get('reason')}: {last.get('message')}")
        return
    rows = last.get("rows_returned")
    if rows is None and last.get("steps"):
        rows = last["steps"][-1]["rows_returned"]
    if scenario.when_several and rows and rows > 1:
        console.print("[yellow]! " + scenario.when_several.format(rows=rows))
    else:
        console.print(f"[green]✓ answered from {rows} row(s), with evidence ids to cite.")


def print_summary(console: Console, records: list[CallRecord]) -> None:
    table = Table(title="Tool calls", title_justify="left")
    for column in ("scenario", "tool", "status", "latency ms", "tokens"):
        table.add_column(column)
    for r in records:
        table.add_row(
            r.scenario[:40],
            r.tool,
            r.status + (f" {r.reason}" if r.reason else ""),
            f"{r.latency_ms:.0f}",
            str(r.response_tokens),
        )
    console.print(table)


def client_config(snapshot: Path, db_url: str) -> str:
    """The ``mcpServers`` snippet for Claude Desktop / Cursor with this machine's real paths."""
    apiatlas = Path(sys.executable).with_name("apiatlas")
    command = str(apiatlas) if apiatlas.exists() else sys.executable
    args = ["serve", str(snapshot)] if apiatlas.exists() else ["-m", "apiatlas.entry", "serve", str(snapshot)]
    snippet = {"mcpServers": {"bank": {"command": command, "args": args, "env": {"APIATLAS_DB_URL": db_url}}}}
    return json.dumps(snippet, ensure_ascii=False, indent=2)
