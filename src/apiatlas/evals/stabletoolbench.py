"""StableToolBench test files: pool = every query's api_list across files, gold = its relevant APIs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from apiatlas.catalog.model import Api, BusinessObject, Catalog, ExecutorBinding, Param
from apiatlas.errors import Location, ReasonCode, SourceError
from apiatlas.evals.dataset import EvalQuery, EvalSet


def api_key(tool: str, api: str) -> str:
    """The API id: tool name and API name."""
    return f"{tool.strip()}.{api.strip()}"


def _params(entry: dict[str, Any]) -> list[Param]:
    out: list[Param] = []
    for required, group in ((True, "required_parameters"), (False, "optional_parameters")):
        for p in entry.get(group) or []:
            if isinstance(p, dict) and p.get("name"):
                out.append(
                    Param(
                        name=str(p["name"]),
                        domain_type=str(p.get("type") or ""),
                        required=required,
                        description=str(p.get("description") or ""),
                    )
                )
    return out


def load_stabletoolbench(files: list[Path]) -> EvalSet:
    """One eval set from any number of StableToolBench query files."""
    catalog = Catalog(source_kind="stabletoolbench")
    queries: list[EvalQuery] = []
    for path in files:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise SourceError(
                f"cannot read StableToolBench file: {exc}",
                code=ReasonCode.MALFORMED_PAGE,
                location=Location(file=str(path)),
            ) from exc
        if not isinstance(data, list):
            raise SourceError("expected a list of queries", location=Location(file=str(path)))
        for n, item in enumerate(data):
            for entry in item.get("api_list") or []:
                key = api_key(entry["tool_name"], entry["api_name"])
                if key in catalog.apis:
                    continue
                tool = str(entry["tool_name"]).strip()
                description = str(entry.get("api_description") or "").strip()
                catalog.apis[key] = Api(
                    key=key,
                    object_key=tool,
                    title=str(entry["api_name"]).strip(),
                    description=description,
                    params=_params(entry),
                    executor=ExecutorBinding(kind="http", target=f"{entry.get('method', 'GET')} {key}"),
                )
                obj = catalog.objects.setdefault(
                    tool,
                    BusinessObject(
                        key=tool, name=tool, title=tool, description=str(entry.get("category_name") or "")
                    ),
                )
                obj.api_keys.append(key)
            gold = frozenset(api_key(t, a) for t, a in item.get("relevant APIs") or [])
            qid = f"{Path(path).stem}:{item.get('query_id', n)}"
            queries.append(EvalQuery(qid=qid, text=str(item["query"]), gold=gold))
    return EvalSet(name="stabletoolbench", catalog=catalog, queries=queries)
