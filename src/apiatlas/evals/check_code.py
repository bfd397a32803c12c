"""check_code over cases with gold unknown members: precision and recall of the ``unknown`` names it
reports (micro-averaged over the cases), exact cases, latency; dev and test halves by the case's hash."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from apiatlas.errors import Location, ReasonCode, SourceError
from apiatlas.evals.dataset import EvalQuery
from apiatlas.evals.metrics import percentile
from apiatlas.evals.restbench import read_json
from apiatlas.server.config import ServerConfig
from apiatlas.server.navigation import Navigator
from apiatlas.snapshot import Snapshot


def load_cases(path: Path) -> list[EvalQuery]:
    where = Location(file=str(path))
    data = read_json(path, "the cases")
    cases: list[EvalQuery] = []
    for n, item in enumerate(data if isinstance(data, list) else []):
        code, unknown = (item.get("code"), item.get("unknown")) if isinstance(item, dict) else (None, None)
        if not isinstance(code, str) or not isinstance(unknown, list):
            raise SourceError(
                f"case {n}: needs a 'code' string and an 'unknown' list",
                code=ReasonCode.MALFORMED_PAGE,
                location=where,
            )
        cases.append(EvalQuery(qid=f"{path.stem}:{n}", text=code, gold=frozenset(map(str, unknown))))
    if not cases:
        raise SourceError(
            "expected a non-empty JSON list of {code, unknown}",
            code=ReasonCode.MALFORMED_PAGE,
            location=where,
        )
    return cases


def _figures(rows: list[tuple[EvalQuery, set[str], float]]) -> dict[str, float]:
    found = sum(len(r) for _, r, _ in rows)
    right = sum(len(r & q.gold) for q, r, _ in rows)
    gold = sum(len(q.gold) for q, _, _ in rows)
    return {
        "cases": len(rows),
        "precision": right / found if found else 1.0,
        "recall": right / gold if gold else 1.0,
        "exact_cases": sum(1 for q, r, _ in rows if r == q.gold) / len(rows) if rows else 0.0,
        "latency_p50_ms": percentile([s * 1000 for _, _, s in rows], 50),
        "latency_p95_ms": percentile([s * 1000 for _, _, s in rows], 95),
    }


def run_check_code_eval(
    snapshot_path: Path, cases_path: Path, *, compile_step: bool = False
) -> dict[str, Any]:
    cases = load_cases(cases_path)
    with Snapshot.open(snapshot_path) as snapshot:
        navigator = Navigator(snapshot, ServerConfig(), "")
        if navigator.code is None:
            raise SourceError(
                "not a code snapshot (compile an SDK: assemblies, docs or C# sources)",
                code=ReasonCode.MALFORMED_PAGE,
                location=Location(file=str(snapshot_path)),
            )
        navigator.check_code(cases[0].text, False)  # warm: the parser, the types the cases share
        rows: list[tuple[EvalQuery, set[str], float]] = []
        for case in cases:
            start = time.perf_counter()
            result = navigator.check_code(case.text, compile_step)
            rows.append((case, set(result.unknown), time.perf_counter() - start))
    return {
        "cases": len(cases),
        "all": _figures(rows),
        "dev": _figures([r for r in rows if r[0].split == "dev"]),
        "test": _figures([r for r in rows if r[0].split == "test"]),
        "dev_mistakes": [
            {"case": q.qid, "missed": sorted(q.gold - r), "extra": sorted(r - q.gold)}
            for q, r, _ in rows
            if q.split == "dev" and r != q.gold
        ],
    }
