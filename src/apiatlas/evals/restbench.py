"""RestBench TMDB: the spec's operations as APIs; each gold "METHOD /path" of a query is relevant."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from apiatlas.catalog.model import Api, BusinessObject, Catalog, ExecutorBinding, Param
from apiatlas.errors import Location, ReasonCode, SourceError
from apiatlas.evals.dataset import EvalQuery, EvalSet

_METHODS = ("get", "post", "put", "patch", "delete")
_PARAM = re.compile(r"\{[^}]*\}")


def normalise_endpoint(text: str) -> str:
    """``GET /movie/{id}/`` and ``get /movie/{movie_id}`` -> ``GET /movie/{}``."""
    method, _, path = text.strip().partition(" ")
    path = _PARAM.sub("{}", path.strip().split("?")[0]).rstrip("/") or "/"
    return f"{method.upper()} {path}"


def read_json(path: Path, what: str = "RestBench file") -> Any:
    """The JSON document at ``path``; a SourceError located in it ("cannot read {what}: ...") if it
    cannot be read or parsed."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SourceError(
            f"cannot read {what}: {exc}",
            code=ReasonCode.MALFORMED_PAGE,
            location=Location(file=str(path)),
        ) from exc


def load_restbench(spec_path: Path, queries_path: Path) -> EvalSet:
    """The operations of ``spec_path`` (method, path, summary, description, parameters) and the queries."""
    spec = read_json(spec_path)
    catalog = Catalog(source_kind="openapi")
    by_norm: dict[str, str] = {}
    for path, item in sorted((spec.get("paths") or {}).items()):
        shared = item.get("parameters") or []
        for method in _METHODS:
            op = item.get(method)
            if not isinstance(op, dict):
                continue
            key = f"{method.upper()} {path}"
            segment = next((s for s in path.strip("/").split("/") if s and not s.startswith("{")), "root")
            tag = (op.get("tags") or [segment])[0]
            params = [
                Param(
                    name=str(p.get("name")),
                    required=bool(p.get("required")),
                    description=str(p.get("description") or ""),
                    location=str(p.get("in") or "query"),
                )
                for p in [*shared, *(op.get("parameters") or [])]
                if isinstance(p, dict) and p.get("name")
            ]
            catalog.apis[key] = Api(
                key=key,
                object_key=tag,
                title=str(op.get("summary") or ""),
                description=str(op.get("description") or ""),
                params=params,
                executor=ExecutorBinding(kind="http", target=key),
            )
            catalog.objects.setdefault(tag, BusinessObject(key=tag, name=tag, title=tag)).api_keys.append(key)
            by_norm[normalise_endpoint(key)] = key
    data = read_json(queries_path)
    queries: list[EvalQuery] = []
    for n, item in enumerate(data):
        gold = frozenset(
            by_norm[g] for g in (normalise_endpoint(s) for s in item.get("solution") or []) if g in by_norm
        )
        queries.append(EvalQuery(qid=f"tmdb:{n}", text=str(item["query"]), gold=gold))
    return EvalSet(name="restbench", catalog=catalog, queries=queries)
