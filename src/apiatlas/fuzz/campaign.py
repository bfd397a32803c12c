"""Run a fuzz campaign: N calls over stdio and HTTP, then crashes, hangs, unknown shapes, database changes.

Every answer is checked: a tool result must carry a status, and any reason must be a ``ReasonCode``; a
protocol error must be a JSON-RPC error; an HTTP answer to garbage must be a 4xx, not a 5xx. A call
that takes longer than the timeout is a hang; a server that stops answering a ping is a crash (it is
restarted and the campaign goes on). The database is fingerprinted before and after.
"""

from __future__ import annotations

import json
import random
import tempfile
import time
from collections import Counter
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any, TextIO

import anyio
import httpx2
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.client import Client
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, Field

from apiatlas.errors import ReasonCode
from apiatlas.fuzz.arguments import ApiShape, CallMaker, FuzzCall, schema_examples
from apiatlas.fuzz.database import changes, fingerprint
from apiatlas.fuzz.protocol import JSON_HEADERS, RawRequest, garbage, raw_call, send
from apiatlas.fuzz.servers import HttpServer, StdioServer

Job = tuple[FuzzCall, httpx2.AsyncClient, anyio.Event]
KNOWN_REASONS = frozenset(code.value for code in ReasonCode)
STATUSES = frozenset({"ok", "error", "partial"})
JSON_RPC_CODES = frozenset({-32700, -32600, -32601, -32602, -32603, -32000, -32001, -32002})
MAX_ANSWER_BYTES = 1024 * 1024  # what the MCP client's SSE reader accepts in one event
FAILURES_KEPT = 25


class FuzzReport(BaseModel):
    """What a campaign found; ``failed`` when any crash, hang, unknown shape, oversized answer or change."""

    seed: int
    snapshot: str
    calls: int = 0
    by_transport: dict[str, int] = Field(default_factory=dict)
    by_source: dict[str, int] = Field(default_factory=dict)
    crashes: int = 0
    hangs: int = 0
    unknown_shapes: int = 0
    oversized_answers: int = 0
    internal_errors: int = 0  # TOOL_EXECUTION_ERROR "internal error": reason-coded, but a bug behind it
    not_sent: int = 0  # arguments the client itself could not encode (counted, not a server fault)
    db_changes: list[str] = Field(default_factory=list)
    tables_checked: int = 0
    reasons: dict[str, int] = Field(default_factory=dict)
    http_statuses: dict[str, int] = Field(default_factory=dict)
    max_answer_bytes: int = 0
    seconds: float = 0.0
    failures: list[str] = Field(default_factory=list)

    @property
    def failed(self) -> bool:
        return bool(
            self.crashes or self.hangs or self.unknown_shapes or self.oversized_answers or self.db_changes
        )


def _short(value: Any, limit: int = 240) -> str:
    try:
        text = json.dumps(value, ensure_ascii=True, default=str)
    except (ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


def _encodable(value: Any) -> bool:
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except (UnicodeEncodeError, ValueError, RecursionError):
        return False
    return True


def snapshot_apis(snapshot: Path) -> list[ApiShape]:
    """Every API of the snapshot with its parameter names and JSON types and input-table columns."""
    from apiatlas.snapshot import Snapshot

    shapes: list[ApiShape] = []
    with Snapshot.open(snapshot) as snap:
        for key in snap.all_api_keys(include_dropped=True):
            api = snap.get_api(key)
            if api is None:
                continue
            params = [(p.name, str((p.json_schema or {}).get("type") or "")) for p in api.params]
            tables = [(t.name, [c.name for c in t.columns]) for t in api.input_tables]
            shapes.append(ApiShape(key=key, params=params, input_tables=tables))
    return shapes


class Campaign:
    """One campaign's state: the report, the call maker and the two servers."""

    def __init__(
        self, snapshot: Path, db_url: str, calls: int, seed: int, timeout_s: float, log: TextIO
    ) -> None:
        self.snapshot, self.db_url, self.total, self.timeout_s = snapshot, db_url, calls, timeout_s
        self.report = FuzzReport(seed=seed, snapshot=str(snapshot))
        self.rng = random.Random(seed)
        self.stdio, self.http = StdioServer(snapshot, db_url, log), HttpServer(snapshot, db_url, log)
        self.servers: dict[str, StdioServer | HttpServer] = {"stdio": self.stdio, "http": self.http}
        self.clients: dict[str, Client] = {}
        self.restart: dict[str, bool] = {}
        self.maker: CallMaker | None = None
        self.reasons: Counter[str] = Counter()
        self.statuses: Counter[str] = Counter()

    def fail(self, kind: str, what: str) -> None:
        if len(self.report.failures) < FAILURES_KEPT:
            self.report.failures.append(f"{kind}: {what}")

    async def run(self) -> FuzzReport:
        started = time.monotonic()
        before = fingerprint(self.db_url)
        self.report.tables_checked = len([k for k in before if not k.startswith("@")])
        try:
            async with anyio.create_task_group() as workers, httpx2.AsyncClient() as http:
                inboxes: dict[str, MemoryObjectSendStream[Job]] = {}
                for name in self.servers:
                    send_jobs, receive_jobs = anyio.create_memory_object_stream[Job](0)
                    inboxes[name] = send_jobs
                    ready = anyio.Event()
                    workers.start_soon(self._worker, name, receive_jobs, ready)
                    await ready.wait()
                self.maker = await self._maker()
                for index in range(self.total):
                    transport = "stdio" if index % 2 == 0 else "http"
                    self.report.by_transport[transport] = self.report.by_transport.get(transport, 0) + 1
                    self.report.calls += 1
                    if transport == "http" and self.rng.random() < 0.08:
                        await self._raw(http)
                        continue
                    done = anyio.Event()
                    await inboxes[transport].send((self.maker.next_call(), http, done))
                    await done.wait()
                for inbox in inboxes.values():
                    await inbox.aclose()
        finally:
            self.http.kill()
        self.report.db_changes = changes(before, fingerprint(self.db_url))
        self.report.reasons = dict(sorted(self.reasons.items()))
        self.report.http_statuses = dict(sorted(self.statuses.items()))
        self.report.seconds = round(time.monotonic() - started, 1)
        return self.report

    async def _worker(self, name: str, inbox: MemoryObjectReceiveStream[Job], ready: anyio.Event) -> None:
        """Owns one transport's client (open and close in this task); restarts it after a crash or hang."""
        server = self.servers[name]
        pending: Job | None = None
        async with inbox:
            while True:
                self.restart[name] = False
                try:
                    async with AsyncExitStack() as stack:
                        self.clients[name] = await server.open(stack)
                        ready.set()
                        while not self.restart[name]:
                            if pending is None:
                                try:
                                    pending = await inbox.receive()
                                except anyio.EndOfStream:
                                    return
                                if self.restart[name]:  # asked for while waiting (the raw HTTP path)
                                    break
                            call, http, done = pending
                            try:
                                await self._tool_call(name, call, http)
                            finally:
                                pending = None
                                done.set()
                except Exception as exc:  # the transport broke (not a restart already counted): a crash
                    if not self.restart[name]:
                        self.report.crashes += 1
                        self.fail("transport broke", f"{name}: {exc!r}"[:400])
                server.kill()

    async def _maker(self) -> CallMaker:
        listed = await self.clients["stdio"].list_tools()
        tools = {t.name: dict(t.input_schema) for t in listed.tools}
        prefix = min(tools, key=len).split("_", 1)[0] + "_" if tools else ""
        common = [name for name in tools if name.endswith("search")]
        if common:
            prefix = common[0][: -len("search")]
        per_tool = max(1, int(self.total * 0.4) // max(1, len(tools)))
        pool = {
            name: schema_examples(schema, min(per_tool, 300), self.report.seed + n)
            for n, (name, schema) in enumerate(sorted(tools.items()))
        }
        apis = snapshot_apis(self.snapshot)
        return CallMaker(rng=self.rng, prefix=prefix, tools=tools, apis=apis, schema_pool=pool)

    async def _tool_call(self, transport: str, call: FuzzCall, http: httpx2.AsyncClient) -> None:
        self.report.by_source[call.source] = self.report.by_source.get(call.source, 0) + 1
        if not _encodable(call.arguments):  # a lone surrogate: the SDK client cannot write it as UTF-8
            self.report.not_sent += 1
            await self._raw(http, RawRequest("lone surrogate via raw JSON", "POST", dict(JSON_HEADERS),
                                             raw_call(call.tool, call.arguments)))  # fmt: skip
            return
        client = self.clients[transport]
        what = f"{transport} {call.tool} {_short(call.arguments)}"
        try:
            with anyio.fail_after(self.timeout_s):
                result = await client.call_tool(call.tool, call.arguments)
        except TimeoutError:
            self.report.hangs += 1
            self.fail("hang", what)
            await self._restart(transport, kill=True)
            return
        except MCPError as exc:
            code = exc.error.code
            self.reasons[f"jsonrpc:{code}"] += 1
            if code not in JSON_RPC_CODES:
                self.report.unknown_shapes += 1
                self.fail("unknown JSON-RPC error", f"{what} -> {code} {exc.error.message[:200]}")
            return
        except (UnicodeEncodeError, RecursionError, TypeError) as exc:  # the client could not send it
            self.report.not_sent += 1
            self.reasons[f"not_sent:{type(exc).__name__}"] += 1
            await self._check_alive(transport, what, exc)
            return
        except Exception as exc:
            await self._check_alive(transport, what, exc, shape=True)
            return
        self._check_answer(what, result.structured_content, result.is_error, result.content)

    def _check_answer(self, what: str, data: dict[str, Any] | None, is_error: bool, content: Any) -> None:
        size = len(json.dumps(data, ensure_ascii=False, default=str)) if data else len(str(content))
        self.report.max_answer_bytes = max(self.report.max_answer_bytes, size)
        if size > MAX_ANSWER_BYTES:
            self.report.oversized_answers += 1
            self.fail("oversized answer", f"{what} -> {size} bytes")
        if not isinstance(data, dict) or data.get("status") not in STATUSES:
            self.report.unknown_shapes += 1
            self.fail("no status", f"{what} -> {_short(data or str(content))}")
            return
        reason = data.get("reason")
        self.reasons[str(reason or data["status"])] += 1
        if (data["status"] != "ok" and not reason) or (reason and reason not in KNOWN_REASONS):
            self.report.unknown_shapes += 1
            self.fail("unknown reason", f"{what} -> {_short(data)}")
        if data["status"] == "error" and not is_error:
            self.report.unknown_shapes += 1
            self.fail("error not flagged isError", what)
        if reason == ReasonCode.TOOL_EXECUTION_ERROR.value and "internal error" in str(data.get("message")):
            self.report.internal_errors += 1
            self.fail("internal error", what)
        assert self.maker is not None
        if isinstance(data.get("evidence_id"), str):
            self.maker.evidence_ids.append(data["evidence_id"])
        if isinstance(data.get("next_cursor"), str):
            self.maker.cursors.append(data["next_cursor"])

    async def _check_alive(self, transport: str, what: str, exc: Exception, *, shape: bool = False) -> None:
        server = self.servers[transport]
        alive = server.alive()
        if alive is not False:
            try:
                with anyio.fail_after(self.timeout_s):
                    await self.clients[transport].send_ping()
                alive = True
            except Exception:
                alive = False
        if not alive:
            self.report.crashes += 1
            self.fail("crash", f"{what} -> {type(exc).__name__}: {str(exc)[:200]}")
            await self._restart(transport, kill=True)
        elif shape:
            self.report.unknown_shapes += 1
            self.fail("client could not read the answer", f"{what} -> {type(exc).__name__}: {str(exc)[:300]}")

    async def _restart(self, transport: str, *, kill: bool) -> None:
        """Have the transport's worker close its client (ending a stuck or dead server) and open a new one."""
        self.restart[transport] = True

    async def _raw(self, http: httpx2.AsyncClient, request: RawRequest | None = None) -> None:
        assert self.maker is not None
        server = self.http
        request = request or garbage(self.rng, self.maker.prefix)
        self.report.by_source["protocol"] = self.report.by_source.get("protocol", 0) + 1
        status = await send(http, server.url, request, self.timeout_s)
        self.statuses[str(status)] += 1
        if status == -1:
            self.report.hangs += 1
            self.fail("hang", f"http raw {request.name}")
            await self._restart("http", kill=True)
        elif status == 0 or status >= 500:
            if not server.alive():
                self.report.crashes += 1
                self.fail("crash", f"http raw {request.name}")
                await self._restart("http", kill=True)
            elif status >= 500:
                self.report.unknown_shapes += 1
                self.fail("5xx", f"http raw {request.name} -> {status}")


def run_fuzz(snapshot: Path, db_url: str, *, calls: int, seed: int, timeout_s: float = 30.0) -> FuzzReport:
    """Run a campaign of ``calls`` calls with ``seed``; the servers' logs go to a temporary file."""
    with tempfile.TemporaryFile("w+", prefix="apiatlas-fuzz-", suffix=".log") as log:
        campaign = Campaign(Path(snapshot), db_url, calls, seed, timeout_s, log)
        return anyio.run(campaign.run)
