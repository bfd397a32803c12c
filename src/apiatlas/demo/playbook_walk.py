"""The demo's playbook conversation: the index in the server's instructions, one playbook fetched, then
followed call by call while every answer carries the flow's progress, computed by the server."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import tiktoken
from mcp.client import Client
from rich.console import Console

from apiatlas.demo.walkthrough import PREFIX, CallRecord, serve_parameters
from apiatlas.samples.demo_playbook import FOLLOW_UP_API, FOLLOW_UP_COLUMN, PLAYBOOK, REQUEST
from apiatlas.samples.demo_scenarios import MIKHALOV_REQUEST, planned_steps
from apiatlas.server.benchmark import ENCODING, tokens


def _progress_line(data: dict[str, Any]) -> str:
    sections = data.get("progress") or {}
    return "; ".join(
        f"{name} ✓" if state["complete"] else f"{name}: missing {', '.join(state['missing'])}"
        for name, state in sections.items()
    )


async def run_playbook_walk(snapshot: Path, db_url: str, console: Console) -> list[CallRecord]:
    """Fetch the securities-portfolio playbook and follow it; one record per tool call."""
    encoder = tiktoken.get_encoding(ENCODING)
    records: list[CallRecord] = []
    async with Client(serve_parameters(snapshot, db_url)) as client:
        text = client.instructions or ""
        index = text[text.find("\nPlaybooks (") + 1 :] if "\nPlaybooks (" in text else ""
        console.print(
            f"The instructions ({tokens(encoder, text)} tokens) end with the playbook index "
            f"({tokens(encoder, index)} tokens):"
        )
        console.print(index or "[red]no playbook index", markup=False, highlight=False)
        console.rule(f"[bold]«{REQUEST}»")

        async def call(tool: str, args: dict[str, Any], why: str) -> dict[str, Any]:
            started = time.perf_counter()
            result = await client.call_tool(PREFIX + tool, args)
            elapsed = (time.perf_counter() - started) * 1000
            data: dict[str, Any] = dict(result.structured_content or {})
            size = tokens(encoder, data)
            status, reason = str(data.get("status", "error")), data.get("reason")
            console.print(
                f"[cyan]→ {PREFIX}{tool}[/]  [green]{status}[/]{' ' + reason if reason else ''}  "
                f"{elapsed:.0f} ms, {size} tokens  [dim]({why})[/]"
            )
            if data.get("progress"):
                console.print(f"   [magenta]progress:[/] {_progress_line(data)}")
            records.append(CallRecord(REQUEST, tool, status, reason, elapsed, size))
            return data

        book = await call("get_playbook", {"name": PLAYBOOK}, "the trigger matches: fetch the steps")
        console.print("   " + "\n   ".join(book.get("body", "").splitlines()[:4]), markup=False)
        plan = await call("plan_chain", {"request": MIKHALOV_REQUEST}, "steps 1-3 are one chain")
        deals = await call("execute_chain", planned_steps([plan]), "person → accounts → deal ids → deals")
        values = sorted({row[_column(deals, FOLLOW_UP_COLUMN)] for row in _last_rows(deals)} - {None})
        last = deals
        for value in values[:3]:
            args = {"api": FOLLOW_UP_API, "args": {FOLLOW_UP_COLUMN: value}}
            last = await call("execute_api", args, "the last section")
        sections = last.get("progress") or {}
        if sections and all(s["complete"] for s in sections.values()):
            console.print("[green]✓ every section complete: the server computed it from the evidence")
        else:
            console.print(f"[yellow]! still missing, by the server: {_progress_line(last) or 'no progress'}")
    return records


def _last_rows(data: dict[str, Any]) -> list[list[Any]]:
    steps = data.get("steps") or []
    tables = (steps[-1].get("tables") if steps else None) or []
    return list(tables[0]["rows"]) if tables else []


def _column(data: dict[str, Any], name: str) -> int:
    steps = data.get("steps") or []
    tables = (steps[-1].get("tables") if steps else None) or []
    columns = [c.lower() for c in tables[0]["columns"]] if tables else []
    return columns.index(name.lower()) if name.lower() in columns else 0
