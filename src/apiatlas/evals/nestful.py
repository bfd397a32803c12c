"""NESTFUL as a planning benchmark: each request's gold call sequence and gold argument bindings
(``"originSkyId": "$var1.skyId$"``) against the top chain the planner gives from the request text.

- ``sequence_match``: the planned APIs equal the gold sequence (``var_result`` excluded);
- ``correct_path``: the gold APIs appear in the plan in order (extra steps allowed);
- ``binding_accuracy``: of the gold bindings ``$varN.field$`` (also inside an expression such as
  ``"5 * $var1.Exchange Rate$"``), the share the plan maps from the same step's same field. Gold steps
  are matched to planned steps in order (the first planned step of the same API after the previous
  match); a binding counts when the matched consumer step takes that input from the planned step
  matched to the gold producer, from the same field (``author[0].id`` reads as ``author[].id``; the
  gold ``locationId`` is the spec's ``location.locationId``: see ``same_field``).

The 85 requests are split by sha256 of their id (``nestful:N``) into a development half and a
held-back half (``DEV_SHARE``), deterministic and independent of the planner.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from apiatlas.errors import Location, ReasonCode, SourceError
from apiatlas.evals.restbench import read_json
from apiatlas.planning.evaluation import is_subsequence
from apiatlas.planning.model import CandidateChain
from apiatlas.planning.planner import Planner
from apiatlas.snapshot import CatalogReader

FINAL_STEP = "var_result"  # NESTFUL's last pseudo-call gathering the answer, not an API
_REFERENCE = re.compile(r"\$(var\d+)\.([^$]+)\$")
_INDEX = re.compile(r"\[\d+\]")


@dataclass(frozen=True)
class GoldBinding:
    """Gold step ``consumer`` takes input ``name`` from field ``field`` of gold step ``producer``."""

    consumer: int
    name: str
    producer: int
    field: str


@dataclass(frozen=True)
class NestfulCase:
    qid: str
    text: str
    gold: tuple[str, ...]
    bindings: tuple[GoldBinding, ...]
    held_out: bool = False


def held_back(qids: list[str]) -> set[str]:
    """The held-back half: the ids whose sha256 sorts in the upper half (the lower half, one more when
    the count is odd, is the development half)."""
    ranked = sorted(qids, key=lambda q: hashlib.sha256(q.encode()).hexdigest())
    return set(ranked[(len(ranked) + 1) // 2 :])


def normal_field(field: str) -> str:
    """``author[0].id`` -> ``author[].id`` (the catalog's list notation)."""
    return _INDEX.sub("[]", field.strip())


def _case(n: int, item: Any, where: Path) -> NestfulCase:
    if not isinstance(item, dict) or not isinstance(item.get("output"), list) or "input" not in item:
        raise SourceError(f"request {n} has no input or output list", code=ReasonCode.MALFORMED_PAGE,
                          location=Location(file=str(where), anchor=f"[{n}]"))  # fmt: skip
    steps = [s for s in item["output"] if isinstance(s, dict) and s.get("name") != FINAL_STEP]
    at = {str(s.get("label")): i for i, s in enumerate(steps) if s.get("label")}
    bindings = []
    for i, step in enumerate(steps):
        for name, value in (step.get("arguments") or {}).items():
            for label, field in _REFERENCE.findall(str(value)):
                if label in at:
                    bindings.append(GoldBinding(i, str(name), at[label], normal_field(field)))
    gold = tuple(str(s.get("name")) for s in steps)
    text = str(item["input"]).strip()
    return NestfulCase(qid=f"nestful:{n}", text=text, gold=gold, bindings=tuple(bindings))


def nestful_cases(data_path: Path, api_keys: set[str]) -> list[NestfulCase]:
    """The requests of ``executable-data.json``; a gold step the spec lacks is a located error."""
    data = read_json(data_path, "NESTFUL data")
    if not isinstance(data, list):
        raise SourceError("NESTFUL data must be a list of requests", code=ReasonCode.MALFORMED_PAGE,
                          location=Location(file=str(data_path)))  # fmt: skip
    cases = [_case(n, item, data_path) for n, item in enumerate(data)]
    held = held_back([c.qid for c in cases])
    cases = [replace(c, held_out=c.qid in held) for c in cases]
    for case in cases:
        unknown = sorted(set(case.gold) - api_keys)
        if unknown:
            raise SourceError(
                f"{case.qid}: the spec has no API {', '.join(unknown)}",
                code=ReasonCode.MALFORMED_PAGE,
                location=Location(file=str(data_path)),
            )
    return cases


def align(gold: tuple[str, ...], planned: list[str]) -> dict[int, int]:
    """Gold step -> planned step: each gold step to the first planned step of its API after the last."""
    out: dict[int, int] = {}
    at = 0
    for i, api in enumerate(gold):
        j = next((k for k in range(at, len(planned)) if planned[k] == api), None)
        if j is not None:
            out[i] = j
            at = j + 1
    return out


def bound(binding: GoldBinding, chain: CandidateChain, matched: dict[int, int]) -> bool:
    """Whether the plan feeds the binding's input from the matched producer step's same field."""
    consumer, producer = matched.get(binding.consumer), matched.get(binding.producer)
    if consumer is None or producer is None:
        return False
    for source in chain.steps[consumer].inputs:
        if source.name == binding.name and source.origin == "step" and source.from_step == producer:
            return same_field(source.from_field or "", binding.field)
    return False


def same_field(planned: str, gold: str) -> bool:
    """The plan's field is the gold's, or ends with it after a dot: NESTFUL's gold names fields from
    the spec's ``output_parser`` root, which sometimes sits inside an output object of the spec
    (``$var1.locationId$`` for the spec's ``location.locationId``)."""
    field = normal_field(planned)
    return field == gold or field.endswith("." + gold)


@dataclass(frozen=True)
class NestfulRun:
    case: NestfulCase
    planned: tuple[str, ...]
    bindings_right: int
    elapsed_ms: float
    confidence: float | None = None

    @property
    def sequence_match(self) -> bool:
        return self.planned == self.case.gold

    @property
    def correct_path(self) -> bool:
        return is_subsequence(self.case.gold, self.planned)


def run_nestful(planner: Planner, cases: list[NestfulCase]) -> list[NestfulRun]:
    runs = []
    for case in cases:
        result = planner.plan(case.text)
        chain = result.chains[0] if result.chains else None
        planned = tuple(chain.api_keys) if chain is not None else ()
        right = 0
        if chain is not None:
            matched = align(case.gold, list(planned))
            right = sum(bound(b, chain, matched) for b in case.bindings)
        runs.append(NestfulRun(case, planned, right, result.elapsed_ms, chain.confidence if chain else None))
    return runs


def nestful_figures(runs: list[NestfulRun]) -> dict[str, Any]:
    if not runs:
        return {"cases": 0}
    gold_bindings = sum(len(r.case.bindings) for r in runs)
    return {
        "cases": len(runs),
        "sequence_match": round(sum(r.sequence_match for r in runs) / len(runs), 4),
        "correct_path": round(sum(r.correct_path for r in runs) / len(runs), 4),
        "binding_accuracy": round(sum(r.bindings_right for r in runs) / max(1, gold_bindings), 4),
        "gold_bindings": gold_bindings,
    }


def graph_recall(cases: list[NestfulCase], snapshot: CatalogReader) -> dict[str, Any]:
    """The dependency graph against the gold bindings, apart from any plan: of the distinct gold
    bindings (producer API and field → consumer API and input), the share an edge of the snapshot
    links (``same_field``), and those it misses (with whether the spec has the field and the input at
    all: NESTFUL's gold sometimes names a field its spec does not list, e.g. ``id`` for ``artist_id``).
    ``eval chains`` lists the misses of the development half only (the held-back half only counted)."""
    pairs: dict[tuple[str, str, str, str], None] = {}
    for case in cases:
        for b in case.bindings:
            pairs[(case.gold[b.producer], b.field, case.gold[b.consumer], b.name)] = None
    linked, missed = 0, []
    for producer, field, consumer, name in pairs:
        edges = [
            e for e in snapshot.edges_into(consumer) if e.producer == producer and e.consumer_field == name
        ]
        if any(same_field(e.producer_field, field) for e in edges):
            linked += 1
            continue
        api, source = snapshot.get_api(consumer), snapshot.get_api(producer)
        has_input = api is not None and any(p.name == name for p in api.params)
        fields = [c.name for t in (source.output_tables if source else []) for c in t.columns]
        missed.append({
            "binding": f"{consumer}.{name} ← {producer}.{field}",
            "spec_has_input": has_input,
            "spec_has_field": any(same_field(f, field) for f in fields),
        })  # fmt: skip
    unattainable = sum(1 for m in missed if not (m["spec_has_input"] and m["spec_has_field"]))
    attainable = len(pairs) - unattainable
    return {
        "gold_pairs": len(pairs),
        "linked": linked,
        "recall": round(linked / max(1, len(pairs)), 4),
        "attainable_pairs": attainable,
        "recall_attainable": round(linked / max(1, attainable), 4),
        "missed": missed,
    }


def nestful_report(runs: list[NestfulRun], misses_of_held_out: bool = False) -> dict[str, Any]:
    """Figures on all cases and on each half; the misses listed are the development half's only
    (unless ``misses_of_held_out``), so the held-back half is measured, not read."""
    dev = [r for r in runs if not r.case.held_out]
    held = [r for r in runs if r.case.held_out]
    shown = runs if misses_of_held_out else dev
    return {
        "all": nestful_figures(runs),
        "development": nestful_figures(dev),
        "held_out": nestful_figures(held),
        "misses": [
            {"id": r.case.qid, "query": r.case.text, "gold": list(r.case.gold), "planned": list(r.planned),
             "bindings": f"{r.bindings_right}/{len(r.case.bindings)}"}
            for r in shown
            if not r.sequence_match or r.bindings_right < len(r.case.bindings)
        ],
    }  # fmt: skip
