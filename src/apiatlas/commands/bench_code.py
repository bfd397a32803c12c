"""``apiatlas bench code SNAP --draft FILE --requests REQUESTS.json``: how fast a code snapshot answers
check_code (without and with the compile step) and the search tool (each request's first call, its query
embedding included, then the same request again)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from apiatlas.cli_app import bench_app


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


@bench_app.command("code")
def bench_code(
    snapshot: Annotated[Path, typer.Argument(help="A compiled code snapshot (an SDK).")],
    draft: Annotated[Path, typer.Option("--draft", help="A C# draft to check (e.g. 50 lines).")],
    requests: Annotated[
        Path | None, typer.Option("--requests", help="Requests to time the search tool with (eval format).")
    ] = None,
    repeat: Annotated[int, typer.Option("--repeat", help="check_code runs timed after a warm-up.")] = 20,
    compile_step: Annotated[
        bool, typer.Option("--compile/--no-compile", help="Also time the mcs step.")
    ] = True,
) -> None:
    """Print check_code and search latencies on SNAPSHOT as JSON."""
    from apiatlas.evals.metrics import percentile
    from apiatlas.server.config import ServerConfig
    from apiatlas.server.navigation import Navigator
    from apiatlas.snapshot import Snapshot

    code = draft.read_text(encoding="utf-8")
    figures: dict[str, Any] = {"snapshot": str(snapshot), "draft_lines": code.count("\n") + 1}
    with Snapshot.open(snapshot) as snap:
        navigator = Navigator(snap, ServerConfig(), "")
        start = time.perf_counter()
        first = navigator.check_code(code, False)
        figures["check_code_first_ms"] = round(_ms(start), 1)
        runs = []
        for _ in range(max(1, repeat)):
            start = time.perf_counter()
            navigator.check_code(code, False)
            runs.append(_ms(start))
        figures |= {
            "check_code_p50_ms": round(percentile(runs, 50), 1),
            "check_code_max_ms": round(max(runs), 1),
            "unknown": first.unknown,
        }
        if compile_step:
            start = time.perf_counter()
            compiled = navigator.check_code(code, True).compile
            figures |= {"compile_ms": round(_ms(start), 1), "compile": compiled.model_dump(mode="json")}
        if requests is not None:
            queries = [str(r["query"]) for r in json.loads(requests.read_text(encoding="utf-8"))]
            navigator.search(queries[0], None, 10)  # warm: the model, the arrays, the structural names
            cold, again = [], []
            for query in queries:
                start = time.perf_counter()
                navigator.search(query, None, 10)
                cold.append(_ms(start))
                start = time.perf_counter()
                navigator.search(query, None, 10)
                again.append(_ms(start))
            figures |= {
                "search_requests": len(queries),
                "search_first_p50_ms": round(percentile(cold, 50), 1),
                "search_first_p95_ms": round(percentile(cold, 95), 1),
                "search_again_p50_ms": round(percentile(again, 50), 1),
            }
    typer.echo(json.dumps(figures, ensure_ascii=False, indent=2))
