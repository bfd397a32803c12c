"""Load generation against a running authenticated server: N MCP sessions calling search and execute.

Each session is a real MCP client over Streamable HTTP; every call's latency, status and reason is
recorded with its start time, so a fault window (database down) can be told apart afterwards.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import anyio
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


def search_queries() -> tuple[str, ...]:
    """The bank analysts' requests of examples/bank/eval (198 distinct), else a short built-in list."""
    try:
        from apiatlas.evals.bank_data import BANK_EVAL_DIR, load_retrieval_set

        return tuple(r.query for r in load_retrieval_set(BANK_EVAL_DIR / "retrieval.yaml").requests)
    except Exception:  # an installed package without the examples folder
        return SEARCH_QUERIES


SEARCH_QUERIES = (
    "остаток по счёту",
    "найти клиента по ФИО",
    "сделки с ценными бумагами клиента",
    "курс валюты на дату",
    "карты клиента",
    "вклады физического лица",
    "адрес регистрации клиента",
    "обороты по счёту за период",
    "API_Acc_GetRest",
    "account balance",
)
EXECUTE_CALLS: tuple[dict[str, Any], ...] = (
    {"api": "API_Prs_FindListByFIO", "args": {"SurName": "Иванов"}},
    {"api": "API_Prs_FindListByFIO", "args": {"SurName": "Михалов"}},
    {"api": "API_Acc_GetRest", "args": {"AccountID": 2000001}},
    {"api": "API_Acc_FindByID", "args": {"AccountID": 2000002}},
)


@dataclass(frozen=True)
class Sample:
    started: float  # seconds since the load began
    kind: str  # search | execute
    ms: float
    status: str
    reason: str


# Answers that say "nothing fits" are results the server gave on purpose, not failures of the server.
ANSWERED_EMPTY = frozenset({"NO_MATCH", "NO_CONFIDENT_MATCH"})


def _failed(sample: Sample) -> bool:
    return sample.status == "error" and sample.reason not in ANSWERED_EMPTY


@dataclass
class LoadRun:
    samples: list[Sample] = field(default_factory=list)
    session_failures: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def figures(self, since: float = 0.0, until: float | None = None) -> dict[str, Any]:
        chosen = [s for s in self.samples if s.started >= since and (until is None or s.started < until)]
        span = (until if until is not None else self.seconds) - since
        out: dict[str, Any] = {
            "calls": len(chosen),
            "throughput_per_s": round(len(chosen) / span, 1) if span > 0 else 0.0,
            "errors": sum(1 for s in chosen if _failed(s)),
            "error_reasons": dict(Counter(s.reason for s in chosen if _failed(s))),
            "answered_nothing_fits": sum(1 for s in chosen if s.reason in ANSWERED_EMPTY),
        }
        for kind in ("search", "execute"):
            ms = sorted(s.ms for s in chosen if s.kind == kind)
            out[kind] = {
                "calls": len(ms),
                "p50_ms": round(ms[len(ms) // 2], 1) if ms else None,
                "p99_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 1) if ms else None,
            }
        return out


async def _session(
    url: str, key: str, index: int, deadline: float, t0: float, run: LoadRun, think_s: float
) -> None:
    headers = {"Authorization": f"Bearer {key}"}
    queries = search_queries()
    try:
        async with (
            create_mcp_http_client(headers=headers) as http,
            Client(streamable_http_client(url, http_client=http), cache=None) as client,
        ):
            n = index
            while time.perf_counter() < deadline:
                n += 1
                if n % 2:
                    kind, tool, args = (
                        "search",
                        "bank_search",
                        {"query": queries[(n * 7 + index) % len(queries)]},
                    )
                else:
                    kind, tool, args = "execute", "bank_execute_api", EXECUTE_CALLS[n % len(EXECUTE_CALLS)]
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
                if think_s > 0:  # an agent reads the answer (an LLM turn) before its next call
                    await anyio.sleep(think_s)
    except Exception as exc:  # the session itself could not be opened or broke
        run.session_failures.append(f"session {index}: {type(exc).__name__}: {exc}")


async def generate_load(url: str, key: str, sessions: int, seconds: float, think_s: float = 0.0) -> LoadRun:
    """``sessions`` concurrent MCP sessions calling search and execute until ``seconds`` have passed.

    ``think_s`` is the pause of each session between two calls: 0 is a closed loop at saturation (every
    session calls again at once, so latency mostly measures queueing: sessions / throughput); an agent
    driven by an LLM pauses for a model turn, seconds, between tool calls.
    """
    run = LoadRun()
    t0 = time.perf_counter()
    deadline = t0 + seconds
    async with anyio.create_task_group() as group:
        for index in range(sessions):
            group.start_soon(_session, url, key, index, deadline, t0, run, think_s)
    run.seconds = time.perf_counter() - t0
    return run
