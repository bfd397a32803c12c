"""Chain-planning evaluation: plan each request from its text alone, compare the top chain with the gold."""

from __future__ import annotations

import hashlib
import json
import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from apiatlas.errors import Location, ReasonCode, SourceError
from apiatlas.planning.confidence import plan_signals
from apiatlas.planning.planner import Planner, reads_only
from apiatlas.snapshot import Snapshot

HELD_OUT_SHARE = 3  # one case in three (by hash of its id) is the held-out split


@dataclass(frozen=True)
class GoldCase:
    """A request, its gold chain (API keys in call order) and other chains that are as good."""

    qid: str
    text: str
    gold: tuple[str, ...]
    also_ok: tuple[tuple[str, ...], ...] = ()

    @property
    def held_out(self) -> bool:
        return int(hashlib.sha256(self.qid.encode()).hexdigest()[:8], 16) % HELD_OUT_SHARE == 0


@dataclass(frozen=True)
class CaseRun:
    case: GoldCase
    planned: tuple[str, ...]
    elapsed_ms: float
    confident: bool = True  # the plan's confidence reached the model's threshold (no NO_CONFIDENT_PLAN)

    @property
    def exact(self) -> bool:
        return self.planned in (self.case.gold, *self.case.also_ok)

    @property
    def correct_path(self) -> bool:
        return any(is_subsequence(g, self.planned) for g in (self.case.gold, *self.case.also_ok))

    @property
    def extra_steps(self) -> int:
        return max(0, len(self.planned) - len(self.case.gold))


def is_subsequence(gold: Iterable[str], planned: tuple[str, ...]) -> bool:
    """Every gold call appears in the plan, in order (other calls may sit between)."""
    remaining = iter(planned)
    return all(any(step == p for p in remaining) for step in gold)


def restbench_cases(queries_path: Path, api_keys: set[str]) -> list[GoldCase]:
    """RestBench queries with their ``solution`` chains as keys of the compiled spec."""
    try:
        data = json.loads(Path(queries_path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SourceError(
            f"cannot read RestBench queries: {exc}", code=ReasonCode.MALFORMED_PAGE,
            location=Location(file=str(queries_path)),
        ) from exc  # fmt: skip
    by_shape = {_shape(k): k for k in api_keys}
    # case ids name the set by the file: tmdb_queries.json -> tmdb:0 … (the held-out split hashes them)
    prefix = Path(queries_path).stem.split("_")[0] or "case"
    cases = []
    for n, item in enumerate(data):
        gold = tuple(by_shape.get(_shape(s.strip()), s.strip()) for s in item.get("solution") or [])
        cases.append(GoldCase(qid=f"{prefix}:{n}", text=str(item["query"]).strip(), gold=gold))
    return cases


def _shape(key: str) -> str:
    method, _, path = key.partition(" ")
    parts = ["{}" if p.startswith("{") else p for p in path.strip().rstrip("/").split("/")]
    return f"{method.upper()} {'/'.join(parts)}"


def bank_cases(chains_path: Path) -> list[GoldCase]:
    """The sample bank's ``chains.yaml`` cases."""
    from apiatlas.evals.bank_data import load_chain_set

    chain_set = load_chain_set(chains_path)
    return [
        GoldCase(qid=c.id, text=c.query, gold=tuple(c.chain), also_ok=tuple(tuple(a) for a in c.also_ok))
        for c in chain_set.cases
    ]


def run_cases(snapshot: Snapshot, cases: list[GoldCase], planner: Planner | None = None) -> list[CaseRun]:
    """Plan every case from its text alone (no known values, no target)."""
    chosen = planner or Planner(snapshot, allow=reads_only)
    model = chosen.confidence
    runs = []
    for case in cases:
        result = chosen.plan(case.text)
        planned = tuple(result.chains[0].api_keys) if result.chains else ()
        confident = bool(planned) and (
            model is None or model.probability(plan_signals(result)) >= model.threshold
        )
        runs.append(CaseRun(case, planned, result.elapsed_ms, confident))
    return runs


def figures(runs: list[CaseRun]) -> dict[str, Any]:
    """Exact-match and correct-path rates, mean extra steps, latency, and plan confidence as
    ``eval plan-confidence`` judges it (right = exact match): the share of cases whose wrong top chain
    is answered as confident, and the share of right top chains held back as ``NO_CONFIDENT_PLAN``."""
    if not runs:
        return {"cases": 0}
    times = sorted(r.elapsed_ms for r in runs)
    right = [r for r in runs if r.exact]
    return {
        "cases": len(runs),
        "exact_match": round(sum(r.exact for r in runs) / len(runs), 4),
        "correct_path": round(sum(r.correct_path for r in runs) / len(runs), 4),
        "mean_extra_steps": round(statistics.fmean(r.extra_steps for r in runs), 4),
        "wrong_confident": round(sum(r.confident and not r.exact for r in runs) / len(runs), 4),
        "right_held_back": round(sum(not r.confident for r in right) / len(right), 4) if right else 0.0,
        "latency_p50_ms": round(times[len(times) // 2], 3),
        "latency_p95_ms": round(times[min(len(times) - 1, int(len(times) * 0.95))], 3),
    }


def report(runs: list[CaseRun]) -> dict[str, Any]:
    """Figures on every case, the development split and the held-out split, plus each miss of the
    development split (the held-out misses only counted: what is tuned must not be read off them)."""
    return {
        "all": figures(runs),
        "development": figures([r for r in runs if not r.case.held_out]),
        "held_out": figures([r for r in runs if r.case.held_out]),
        "misses": [
            {"id": r.case.qid, "query": r.case.text, "gold": list(r.case.gold), "planned": list(r.planned)}
            for r in runs
            if not r.exact and not r.case.held_out
        ],
        "held_out_misses": sum(1 for r in runs if not r.exact and r.case.held_out),
    }
