"""Requests no API of a catalog serves (``[{"query": ...}]``), added to a dataset as out-of-catalog
requests of the kind ``unrelated``: the search must abstain on them, on the whole catalog too."""

from __future__ import annotations

from pathlib import Path

from apiatlas.errors import Location, ReasonCode, SourceError
from apiatlas.evals.dataset import EvalQuery, EvalSet
from apiatlas.evals.restbench import read_json

UNRELATED = "unrelated"


def load_unrelated(path: Path) -> list[EvalQuery]:
    """The requests of ``path``: a JSON list of ``{"query": ...}`` (other keys such as ``note`` are
    ignored; a ``solution`` is refused, since a request with gold belongs in the requests file)."""
    where = Location(file=str(path))
    data = read_json(path, "the unrelated requests")
    if not isinstance(data, list) or not data:
        raise SourceError(
            f"expected a non-empty JSON list of {{query}}, got {type(data).__name__}",
            code=ReasonCode.MALFORMED_PAGE,
            location=where,
        )
    queries: list[EvalQuery] = []
    for n, item in enumerate(data):
        text = item.get("query") if isinstance(item, dict) else None
        if not isinstance(text, str) or not text.strip():
            raise SourceError(
                f"request {n}: needs a non-empty 'query' string",
                code=ReasonCode.MALFORMED_PAGE,
                location=where,
            )
        if isinstance(item, dict) and item.get("solution"):
            raise SourceError(
                f"request {n} ({text!r}) has a solution: an unrelated request has no gold "
                "(put it in the requests file)",
                code=ReasonCode.MALFORMED_PAGE,
                location=where,
            )
        qid = f"{UNRELATED}:{Path(path).stem}:{n}"
        queries.append(EvalQuery(qid=qid, text=" ".join(text.split()), gold=frozenset(), kind=UNRELATED))
    return queries


def with_unrelated(evalset: EvalSet, path: Path) -> EvalSet:
    """``evalset`` with the unrelated requests of ``path`` added; one whose text is also a request of
    the dataset is an error (it cannot be both served and unrelated)."""
    unrelated = load_unrelated(path)
    known = {" ".join(q.text.split()).casefold(): q.qid for q in evalset.queries}
    for q in unrelated:
        if q.text.casefold() in known:
            raise SourceError(
                f"{q.text!r} is also the dataset's request {known[q.text.casefold()]}",
                code=ReasonCode.MALFORMED_PAGE,
                location=Location(file=str(path)),
            )
    return EvalSet(name=evalset.name, catalog=evalset.catalog, queries=[*evalset.queries, *unrelated])
