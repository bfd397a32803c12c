"""Load generation against a running authenticated server: N MCP sessions calling search and execute.

Each session is a real MCP client over Streamable HTTP; every call's latency, status and reason is
recorded with its start time, so a fault window (database down) can be told apart afterwards, and
every session's handshake (discover or initialize) is timed, so the connect phase is reported apart
from (and inside) the whole run.

The generator does once what a fleet of separate agents would each do once at start-up: read the
query list and build the TLS context. Doing either per session inside the one event loop that drives
every session stalled all of them (0.35 s of YAML and 0.05 s of CA loading per session: 20 s for 50).
For the same reason the sessions share their tools' compiled output validators, made when the first
one connects, not at each session's first calls (``_compile_validators``). A watcher records how
late the generator's own loop runs, so the report can tell the generator's delays from the server's.
"""

from __future__ import annotations

import random
import ssl
import time
from collections import Counter
from contextlib import AsyncExitStack
from dataclasses import dataclass, field, replace
from typing import Any

import anyio
import httpx2
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import MCP_DEFAULT_SSE_READ_TIMEOUT, MCP_DEFAULT_TIMEOUT
from mcp_types import Tool

from apiatlas.errors import ReasonCode


@dataclass(frozen=True)
class Workload:
    """What the sessions call on the served snapshot: its search tool with these queries, in turn with its
    execute tool with these calls. The caller knows the catalog (``apiatlas.samples.bank_load`` is the
    sample bank's); nothing here assumes one."""

    search_tool: str  # the served tool names, prefix included
    execute_tool: str
    queries: tuple[str, ...]  # search queries, cycled
    execute_calls: tuple[dict[str, Any], ...]  # execute_api arguments ({"api", "args"}), cycled
    reference_queries: tuple[str, ...] = ()  # the lone reference session's queries (default: ``queries``)

    def __post_init__(self) -> None:
        if not self.queries or not self.execute_calls:
            raise ValueError("a load workload needs at least one search query and one execute call")


@dataclass(frozen=True)
class Sample:
    started: float  # seconds since the load began
    kind: str  # search | execute
    ms: float
    status: str
    reason: str


@dataclass(frozen=True)
class Connect:
    """One session's establishment: when it began (seconds since the load began), the handshake
    (discover or initialize) and the ``tools/list`` an agent host sends before its model's first turn
    (with the client's compiling of the output validators of the tools it will call)."""

    started: float
    handshake_ms: float
    tools_ms: float
    ok: bool

    @property
    def ended(self) -> float:
        return self.started + (self.handshake_ms + self.tools_ms) / 1000


# Answers that say "nothing fits" are results the server gave on purpose, not failures of the server.
ANSWERED_EMPTY = frozenset({ReasonCode.NO_MATCH, ReasonCode.NO_CONFIDENT_MATCH})


def _failed(sample: Sample) -> bool:
    return sample.status == "error" and sample.reason not in ANSWERED_EMPTY


def percentiles(values: list[float]) -> dict[str, float | None]:
    """p50, p99 and max of ``values`` (nearest rank), rounded to 0.1; None when there are none."""
    ms = sorted(values)
    if not ms:
        return {"p50_ms": None, "p99_ms": None, "max_ms": None}
    return {
        "p50_ms": round(ms[len(ms) // 2], 1),
        "p99_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 1),
        "max_ms": round(ms[-1], 1),
    }


@dataclass
class LoadRun:
    samples: list[Sample] = field(default_factory=list)
    connects: list[Connect] = field(default_factory=list)
    session_failures: list[str] = field(default_factory=list)
    seconds: float = 0.0
    wall_start: float = 0.0  # time.time() when the load began (to place the server's audit records)
    # (seconds since the load began, ms) of each tick of the generator's own event loop that came late:
    # a call's latency includes the time its answer waited for this loop
    lags: list[tuple[float, float]] = field(default_factory=list)

    def all_connected_at(self) -> float | None:
        """Seconds from the start until the last session was ready: handshake and tools/list done."""
        return max((c.ended for c in self.connects if c.ok), default=None)

    def connect_figures(self) -> dict[str, Any]:
        """The handshakes: how many, how long each took, when the last one was done."""
        done = self.all_connected_at()
        return {
            "sessions_connected": sum(1 for c in self.connects if c.ok),
            "sessions_failed": sum(1 for c in self.connects if not c.ok),
            "all_connected_at_s": round(done, 2) if done is not None else None,
            "handshake": percentiles([c.handshake_ms for c in self.connects if c.ok]),
            "tools_list": percentiles([c.tools_ms for c in self.connects if c.ok]),
        }

    def figures(self, since: float = 0.0, until: float | None = None) -> dict[str, Any]:
        """Calls that started in [since, until): throughput, errors, p50/p99/max per kind."""
        chosen = [s for s in self.samples if s.started >= since and (until is None or s.started < until)]
        span = (until if until is not None else self.seconds) - since
        out: dict[str, Any] = {
            "calls": len(chosen),
            "throughput_per_s": round(len(chosen) / span, 1) if span > 0 else 0.0,
            "errors": sum(1 for s in chosen if _failed(s)),
            "error_reasons": dict(Counter(s.reason for s in chosen if _failed(s))),
            "answered_nothing_fits": sum(1 for s in chosen if s.reason in ANSWERED_EMPTY),
            # searches ranked by words alone: their vector would have waited too long (WORDS_ONLY)
            "searches_by_words_only": sum(1 for s in chosen if s.reason == ReasonCode.WORDS_ONLY),
        }
        for kind in ("search", "execute"):
            ms = [s.ms for s in chosen if s.kind == kind]
            out[kind] = {"calls": len(ms), **percentiles(ms)}
        return out


@dataclass(frozen=True)
class Plan:
    """What every session shares: where, who, what to ask, and the client-side TLS context."""

    url: str
    key: str
    workload: Workload
    tls: ssl.SSLContext
    think_s: float
    think_jitter: float = 0.0  # each pause is drawn from think_s x [1 - jitter, 1 + jitter]
    # output-schema validators compiled by the first session, by tool name, with the schema compiled
    validators: dict[str, tuple[dict[str, Any], Any]] = field(default_factory=dict, compare=False)


def http_client(plan: Plan) -> httpx2.AsyncClient:
    """The MCP SDK's client settings (``create_mcp_http_client``) on the shared TLS context."""
    return httpx2.AsyncClient(
        headers={"Authorization": f"Bearer {plan.key}"},
        timeout=httpx2.Timeout(MCP_DEFAULT_TIMEOUT, read=MCP_DEFAULT_SSE_READ_TIMEOUT),
        verify=plan.tls,
    )


async def _calls(
    client: Client,
    plan: Plan,
    index: int,
    deadline: float,
    t0: float,
    run: LoadRun,
    max_calls: int | None = None,
) -> None:
    n = index
    work = plan.workload
    queries = work.queries
    pauses = random.Random(index)  # the same pauses in every run
    while time.perf_counter() < deadline and (max_calls is None or n - index < max_calls):
        if plan.think_s > 0:  # a model turn comes before every call, the first one too
            spread = plan.think_jitter
            await anyio.sleep(plan.think_s * pauses.uniform(1 - spread, 1 + spread))
            if time.perf_counter() >= deadline:
                break
        n += 1
        if n % 2:
            kind, tool, args = "search", work.search_tool, {"query": queries[(n * 7 + index) % len(queries)]}
        else:
            kind, tool, args = "execute", work.execute_tool, work.execute_calls[n % len(work.execute_calls)]
        started = time.perf_counter()
        try:
            result = await client.call_tool(tool, args)
            data: dict[str, Any] = result.structured_content or {}
            status = str(data.get("status", "error" if result.is_error else "ok"))
            reason = str(data.get("reason") or "")
        except Exception as exc:  # a protocol or transport failure of this one call
            status, reason = "error", f"CLIENT_{type(exc).__name__}"
        done = time.perf_counter()
        run.samples.append(Sample(started - t0, kind, (done - started) * 1000, status, reason))


async def _establish(
    stack: AsyncExitStack, http: httpx2.AsyncClient, plan: Plan, t0: float, run: LoadRun
) -> Client:
    """Handshake, then ``tools/list`` (what a host shows its model), each timed into ``run.connects``."""
    began = time.perf_counter()
    handshake = 0.0
    try:
        client = await stack.enter_async_context(
            Client(streamable_http_client(plan.url, http_client=http), cache=None)
        )
        handshake = time.perf_counter() - began
        listed = await client.list_tools()
        _compile_validators(client, listed.tools, plan.workload, plan.validators)
    except BaseException:
        spent = (time.perf_counter() - began) * 1000
        run.connects.append(Connect(began - t0, handshake * 1000, spent - handshake * 1000, False))
        raise
    tools = time.perf_counter() - began - handshake
    run.connects.append(Connect(began - t0, handshake * 1000, tools * 1000, True))
    return client


def _compile_validators(
    client: Client, tools: list[Tool], workload: Workload, shared: dict[str, tuple[dict[str, Any], Any]]
) -> None:
    """Give the session compiled output-schema validators for the tools it calls, which the SDK
    otherwise compiles at each tool's first call (``ClientSession._output_schema_validator``, cached per
    session): the first session compiles each, the others get the same validator (it keeps no state)
    while its schema is the one they were listed.

    Each compile takes 6-9 ms of CPU. An agent host pays that once, in its own process; here 50
    sessions share one event loop and the server's cores, and their first calls fall within a second,
    so 100 compiles in a row delayed every answer that arrived meanwhile (the loop was up to 340-610 ms
    late, search p99 over the whole run 310-505 ms in the first 10 s against a server's own 90-140).
    With an SDK without these internals nothing is done: the validators are compiled at the first
    calls, inside the timed figures."""
    session = client.session
    compile_validator = getattr(session, "_output_schema_validator", None)
    cache = getattr(session, "_tool_output_validators", None)
    if compile_validator is None or not isinstance(cache, dict):
        return
    for tool in tools:
        schema = tool.output_schema
        if tool.name not in (workload.search_tool, workload.execute_tool) or schema is None:
            continue
        known = shared.get(tool.name)
        if known is not None and known[0] == schema:
            cache[tool.name] = known[1]
        else:
            shared[tool.name] = (schema, compile_validator(tool.name, schema))


async def _session(plan: Plan, index: int, deadline: float, t0: float, run: LoadRun) -> None:
    try:
        async with AsyncExitStack() as stack:
            http = await stack.enter_async_context(http_client(plan))
            client = await _establish(stack, http, plan, t0, run)
            await _calls(client, plan, index, deadline, t0, run)
    except Exception as exc:  # the session itself could not be opened or broke
        run.session_failures.append(f"session {index}: {type(exc).__name__}: {exc}")


async def generate_load(
    url: str,
    key: str,
    sessions: int,
    seconds: float,
    think_s: float = 0.0,
    think_jitter: float = 0.0,
    *,
    workload: Workload,
) -> LoadRun:
    """``sessions`` concurrent MCP sessions calling search and execute until ``seconds`` have passed.

    ``think_s`` is the pause of each session between two calls: 0 is a closed loop at saturation (every
    session calls again at once, so latency mostly measures queueing: sessions / throughput); an agent
    driven by an LLM pauses for a model turn, seconds, before each tool call. With ``think_jitter`` 0 every
    pause is the same, so sessions that started together keep calling together, in waves; a fraction
    f draws each pause from ``think_s`` x [1 - f, 1 + f] (model turns vary), which spreads the waves.
    All sessions start connecting at once (the burst is part of the run).
    """
    if not 0 <= think_jitter <= 1:
        raise ValueError(f"think_jitter is a fraction from 0 to 1, not {think_jitter}")
    plan = Plan(url, key, workload, ssl.create_default_context(), think_s, think_jitter)
    run = LoadRun(wall_start=time.time())
    t0 = time.perf_counter()
    deadline = t0 + seconds
    async with anyio.create_task_group() as group:
        for index in range(sessions):
            group.start_soon(_session, plan, index, deadline, t0, run)
        group.start_soon(_watch_loop, deadline, t0, run)
    run.seconds = time.perf_counter() - t0
    return run


LAG_TICK_S = 0.005


async def _watch_loop(deadline: float, t0: float, run: LoadRun) -> None:
    """Sleep ``LAG_TICK_S`` over and over until ``deadline``, recording how late each wake-up is: how
    long any answer arriving then waited before the generator could read it."""
    while (now := time.perf_counter()) < deadline:
        await anyio.sleep(LAG_TICK_S)
        late = (time.perf_counter() - now - LAG_TICK_S) * 1000
        run.lags.append((now - t0, late))


async def reference(url: str, key: str, workload: Workload, calls: int = 10) -> dict[str, Any]:
    """One session alone: its handshake and ``calls`` searches and executes one after another.

    Measured in the same run as the load, it tells how fast this machine is at that moment (other
    work on the machine slows both), so the load's figures can be read against it.
    """
    alone = replace(workload, queries=workload.reference_queries or workload.queries)
    plan = Plan(url, key, alone, ssl.create_default_context(), 0.0)
    run = LoadRun()
    t0 = time.perf_counter()
    async with AsyncExitStack() as stack:
        http = await stack.enter_async_context(http_client(plan))
        client = await _establish(stack, http, plan, t0, run)
        await _calls(client, plan, 0, time.perf_counter() + 60, t0, run, max_calls=2 * calls)
    figures = run.figures()
    return {
        "handshake_ms": round(run.connects[0].handshake_ms, 1),
        "tools_list_ms": round(run.connects[0].tools_ms, 1),
        "search_p50_ms": figures["search"]["p50_ms"],
        "execute_p50_ms": figures["execute"]["p50_ms"],
        "calls": figures["calls"],
        "errors": figures["errors"],
    }
