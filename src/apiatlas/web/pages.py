"""Each page's content: what the template shows, read through the same core the MCP tools call.

The catalog, an object's APIs and an API's contract come from the ``Navigator`` (its ``describe_api`` is
the contract the tool returns); the search page runs ``Navigator.search`` and the plan page
``ChainPlanning.plan_chain``, so ranking, abstention and planning are the tools' own.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from apiatlas.catalog.model import Api
from apiatlas.server.tools.plan_chain import PlanChainResult
from apiatlas.web.app import Page, PageError, link_maker
from apiatlas.web.graph_svg import render_svg
from apiatlas.web.markdown import markdown_html
from apiatlas.web.neighbourhood import neighbourhood, neighbourhood_drawing
from apiatlas.web.plan_view import chain_drawing, parse_known
from apiatlas.web.site import ALL_OBJECTS, WebSite

OBJECT_PAGE_SIZE = 500
SEARCH_LIMIT = 20


def _api_link(request: Request) -> Any:
    u = link_maker(request)
    return lambda key: u("api", key=key)


def catalog_page(request: Request, site: WebSite) -> dict[str, Any]:
    rows = site.objects()
    stages = sorted({stage for row in rows for stage in row.dropped})
    return {
        "objects": rows,
        "stages": stages,
        "kept": sum(r.kept for r in rows),
        "dropped": sum(r.total - r.kept for r in rows),
    }


def object_page(request: Request, site: WebSite) -> dict[str, Any]:
    key = request.path_params["key"]
    obj = site.reader.get_object(key)
    if obj is None:
        raise PageError(f"no business object with key {key!r}", links=[("catalog", "")])
    offset = _offset(request)
    counts = site.object_counts(obj.key)
    listed = counts.apis if counts is not None else ()
    return {
        "obj": obj,
        "apis": listed[offset : offset + OBJECT_PAGE_SIZE],
        "total": len(listed),
        "offset": offset,
        "page_size": OBJECT_PAGE_SIZE,
        "counts": counts,
    }


def _offset(request: Request) -> int:
    text = request.query_params.get("offset", "0") or "0"
    if not text.isdigit():
        raise PageError(f"offset must be a whole number, not {text!r}", status=400)
    return int(text)


def _inputs(api: Api, schema: dict[str, Any]) -> list[dict[str, Any]]:
    """Each scalar input with its domain type, whether it is required and its JSON Schema."""
    properties = schema.get("properties", {}) if isinstance(schema, dict) else {}
    required = set(schema.get("required", [])) if isinstance(schema, dict) else set()
    return [
        {
            "name": p.name,
            "domain_type": p.domain_type,
            "required": p.required or p.name in required,
            "location": p.location,
            "description": p.description,
            "schema": properties.get(p.name, p.json_schema),
        }
        for p in api.params
    ]


def _funnel_story(site: WebSite, api: Api) -> list[str]:
    """The funnel's stages this API passed, in order, up to the one that dropped it."""
    stages = [s.get("stage", "") for s in site.reader.manifest().get("funnel", {}).get("stages", [])][1:]
    if api.funnel.kept:
        return stages
    dropped_at = api.funnel.dropped_at
    return stages[: stages.index(dropped_at)] if dropped_at in stages else []


def api_page(request: Request, site: WebSite) -> dict[str, Any]:
    name = request.query_params.get("key", "")
    described = site.navigator.describe_api(name)
    if described.api is None:
        links = [(s, "api?key=" + s) for s in described.suggestions]
        raise PageError(described.message, links=links)
    contract = described.api
    api = site.reader.get_api(contract.key)
    assert api is not None  # describe_api found it through the same reader
    around = neighbourhood(site.reader, api.key) if site.allows("dependency_chain") else None
    drawing = neighbourhood_drawing(api.key, api.title, around, _api_link(request)) if around else None
    obj = site.reader.get_object(api.object_key) if api.object_key else None
    return {
        "api": api,
        "obj": obj,
        "contract": contract,
        "inputs": _inputs(api, contract.input_schema),
        "passed": _funnel_story(site, api),
        "around": around,
        "graph": render_svg(drawing) if drawing else "",
    }


def search_page(request: Request, site: WebSite) -> dict[str, Any]:
    query = request.query_params.get("q", "")
    object_key = request.query_params.get("object") or None
    objects, _ = site.reader.list_objects(0, ALL_OBJECTS)
    result = site.navigator.search(query, object_key, SEARCH_LIMIT) if query.strip() else None
    return {"query": query, "object_key": object_key or "", "objects": objects, "result": result}


def plan_page(request: Request, site: WebSite) -> dict[str, Any]:
    text = request.query_params.get("request", "")
    target = request.query_params.get("target", "").strip() or None
    known_text = request.query_params.get("known", "")
    result: PlanChainResult | None = None
    if text.strip() or target:
        known = parse_known(known_text)
        result = site.planning.plan_chain(text, target, known, limit=5)
    link = _api_link(request)
    drawings = [render_svg(chain_drawing(c, link)) for c in result.chains] if result else []
    return {
        "request": text,
        "target": target or "",
        "known": known_text,
        "result": result,
        "drawings": drawings,
    }


def _reports(site: WebSite) -> Any:
    if site.reports is None:
        raise PageError(
            "the reports cover the whole catalog, and your role sees only part of it",
            status=403,
            links=[("catalog", "")],
        )
    return site.reports


def _known_api(request: Request, site: WebSite) -> Any:
    link = _api_link(request)
    keys = set(site.reader.all_api_keys(include_dropped=True))
    return lambda text: link(text) if text in keys else None


def compile_report_page(request: Request, site: WebSite) -> dict[str, Any]:
    reports = _reports(site)
    return {
        "title": "Compile report",
        "html": markdown_html(reports.compile_markdown(), _known_api(request, site)),
    }


def drift_report_page(request: Request, site: WebSite) -> dict[str, Any]:
    reports = _reports(site)
    text = reports.drift_markdown()
    return {
        "title": "Drift report",
        "html": markdown_html(text, _known_api(request, site)) if text is not None else None,
        "missing": str(reports.drift_location()),
    }


def manifest_page(request: Request, site: WebSite) -> dict[str, Any]:
    import json

    manifest = _reports(site).manifest()
    return {
        "manifest": manifest,
        "as_json": json.dumps(manifest, ensure_ascii=False, indent=2, sort_keys=True),
    }


# name -> (path, page, template, the tool whose answer it shows: a role must be granted it);
# the order of the navigation bar is in base.html
PAGES: dict[str, tuple[str, Page, str, str | None]] = {
    "catalog": ("/", catalog_page, "catalog.html", "list_business_objects"),
    "object": ("/objects/{key:path}", object_page, "object.html", "list_apis"),
    "api": ("/api", api_page, "api.html", "describe_api"),
    "search": ("/search", search_page, "search.html", "search"),
    "plan": ("/plan", plan_page, "plan.html", "plan_chain"),
    "compile_report": ("/reports", compile_report_page, "report.html", None),
    "drift_report": ("/reports/drift", drift_report_page, "report.html", None),
    "manifest": ("/reports/manifest", manifest_page, "manifest.html", None),
}
