"""Chain planning over any OpenAPI spec: gold chains checked against the compiled snapshot, and the
cases whose gold calls a write counted apart (a planner limited to reads can only miss them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from apiatlas.catalog.model import SideEffect
from apiatlas.errors import Location, ReasonCode, SourceError
from apiatlas.planning.evaluation import CaseRun, GoldCase, figures, report
from apiatlas.snapshot import Snapshot


def check_gold(cases: list[GoldCase], snapshot: Snapshot, where: Path) -> None:
    """Every step of every gold chain is an API of the snapshot (a typo in the gold is an error, not a
    silent miss)."""
    keys = set(snapshot.all_api_keys(include_dropped=True))
    for n, case in enumerate(cases):
        unknown = [step for step in case.gold if step not in keys]
        if not case.gold or unknown:
            what = f"the spec has no operation {', '.join(unknown)}" if unknown else "an empty solution"
            raise SourceError(
                f"chain {n} ({case.text!r}): {what}",
                code=ReasonCode.MALFORMED_PAGE,
                location=Location(file=str(where)),
            )


def write_steps(case: GoldCase, snapshot: Snapshot) -> list[str]:
    """The gold steps that are not reads (create, update, delete, actions), in call order."""
    out = []
    for step in case.gold:
        api = snapshot.get_api(step)
        if api is not None and api.side_effect is not SideEffect.READ:
            out.append(step)
    return out


def writes_report(runs: list[CaseRun], snapshot: Snapshot, writes_allowed: bool) -> dict[str, Any]:
    """The chain figures (``planning.evaluation.report``) with the cases whose gold writes apart: how
    many there are, how they fared, and the figures on the read-only cases alone; each miss says which
    gold steps write."""
    writing = {r.case.qid: write_steps(r.case, snapshot) for r in runs}
    reads = [r for r in runs if not writing[r.case.qid]]
    writes = [r for r in runs if writing[r.case.qid]]
    out = report(runs)
    for miss in out["misses"]:
        miss["gold_writes"] = writing[miss["id"]]
    out["writes"] = {
        "allowed": writes_allowed,
        "cases_with_write": len(writes),
        "with_write": figures(writes),
        "reads_only": figures(reads),
        "note": (
            "the planner may use write APIs (--writes)"
            if writes_allowed
            else f"the planner plans reads only: the {len(writes)} cases whose gold calls a write count "
            "as misses (pass --writes to let it plan writes)"
        ),
    }
    return out
