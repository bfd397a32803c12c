"""Requests written against an OpenAPI spec, with gold operations, over the catalog ``apiatlas compile``
reads from that spec (the product's own OpenAPI source, so the cards are the ones a user gets)."""

from __future__ import annotations

from pathlib import Path

from apiatlas.errors import Location, ReasonCode, SourceError
from apiatlas.evals.dataset import EvalQuery, EvalSet
from apiatlas.evals.restbench import normalise_endpoint, read_json
from apiatlas.sources.openapi.loader import load_openapi


def load_openapi_requests(spec_path: Path, queries_path: Path) -> EvalSet:
    """The spec's operations and the requests of ``queries_path`` (RestBench's format: a JSON list of
    ``{"query": ..., "solution": ["GET /v1/customers/{customer}", ...]}``; every operation of a
    solution is relevant). A solution naming an operation the spec lacks is an error, not a silent
    miss."""
    where = Location(file=str(queries_path))
    catalog = load_openapi(Path(spec_path))
    by_norm = {normalise_endpoint(key): key for key in catalog.apis}
    data = read_json(queries_path, "the requests")
    if not isinstance(data, list):
        raise SourceError(
            f"expected a JSON list of {{query, solution}}, got {type(data).__name__}",
            code=ReasonCode.MALFORMED_PAGE,
            location=where,
        )
    queries: list[EvalQuery] = []
    for n, item in enumerate(data):
        text = item.get("query") if isinstance(item, dict) else None
        solution = item.get("solution") if isinstance(item, dict) else None
        if not isinstance(text, str) or not text.strip() or not isinstance(solution, list) or not solution:
            raise SourceError(
                f"request {n}: needs a non-empty 'query' string and a non-empty 'solution' list",
                code=ReasonCode.MALFORMED_PAGE,
                location=where,
            )
        unknown = [s for s in solution if normalise_endpoint(str(s)) not in by_norm]
        if unknown:
            raise SourceError(
                f"request {n} ({text!r}): the spec has no operation {', '.join(map(str, unknown))}",
                code=ReasonCode.MALFORMED_PAGE,
                location=where,
            )
        gold = frozenset(by_norm[normalise_endpoint(str(s))] for s in solution)
        queries.append(EvalQuery(qid=f"{Path(queries_path).stem}:{n}", text=text.strip(), gold=gold))
    return EvalSet(name=f"openapi:{Path(spec_path).name}", catalog=catalog, queries=queries)
