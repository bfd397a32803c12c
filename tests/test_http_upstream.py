"""A small REST upstream (starlette on uvicorn, 127.0.0.1, free port) and the catalog that describes it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from apiatlas.catalog.model import (
    Api,
    BusinessObject,
    Catalog,
    Column,
    Direction,
    Edge,
    EdgeLevel,
    ExecutorBinding,
    Param,
    SessionTable,
    SideEffect,
)
from apiatlas.snapshot import write_snapshot
from local_server import serve_asgi

PEOPLE = {
    31: {"id": 31, "name": "Tom Hanks", "birthday": "1956-07-09", "also_known_as": ["Thomas Hanks"]},
    287: {"id": 287, "name": "Brad Pitt", "birthday": "1963-12-18", "also_known_as": []},
}
CREDITS = {
    31: [{"id": 13, "title": "Forrest Gump"}, {"id": 862, "title": "Toy Story"}],
    287: [{"id": 550, "title": "Fight Club"}],
}


class Upstream:
    """The upstream's state the tests look at: attempts per path and the last request seen."""

    def __init__(self) -> None:
        self.attempts: Counter[str] = Counter()
        self.seen: dict[str, Any] = {}

    def app(self) -> Starlette:
        async def search_person(request: Request) -> Response:
            self.attempts["search"] += 1
            query = request.query_params.get("query", "").lower()
            hits = [p for p in PEOPLE.values() if query and query in p["name"].lower()]
            rows = [{"id": p["id"], "name": p["name"], "known_for": CREDITS[p["id"]]} for p in hits]
            return JSONResponse({"page": 1, "results": rows, "total_results": len(rows)})

        async def person(request: Request) -> Response:
            found = PEOPLE.get(int(request.path_params["person_id"]))
            if found is None:
                return JSONResponse({"status_message": "The resource you requested could not be found."}, 404)
            return JSONResponse(found)

        async def credits(request: Request) -> Response:
            pid = int(request.path_params["person_id"])
            crew = [{"id": 550, "job": "Producer", "title": "Fight Club"}] if pid == 287 else []
            return JSONResponse({"id": pid, "cast": CREDITS.get(pid, []), "crew": crew})

        async def echo(request: Request) -> Response:
            body = await request.body()
            self.seen = {
                "method": request.method,
                "raw_path": request.scope["raw_path"].decode(),
                "query": list(request.query_params.multi_items()),
                "trace": request.headers.get("x-trace-id"),
                "session": request.cookies.get("session"),
                "content_type": request.headers.get("content-type"),
                "body": body.decode() if body else None,
            }
            return JSONResponse({"item_id": request.path_params["item_id"], "ok": True})

        async def whoami(request: Request) -> Response:
            auth = request.headers.get("authorization")
            if not auth:
                return JSONResponse({"message": "no credentials"}, 401)
            if auth == "Bearer wrong":
                return JSONResponse({"message": "this token may not read accounts"}, 403)
            return JSONResponse({"authorization": auth})

        async def boom(request: Request) -> Response:
            self.attempts["boom"] += 1
            return JSONResponse({"error": {"message": "database exploded"}}, 500)

        async def slow(request: Request) -> Response:
            await anyio.sleep(3)
            return JSONResponse({"late": True})

        async def busy(request: Request) -> Response:
            self.attempts[f"busy {request.method}"] += 1
            if self.attempts[f"busy {request.method}"] < 3:
                return JSONResponse({"message": "try again"}, 503, headers={"Retry-After": "0"})
            return JSONResponse({"results": [{"attempt": self.attempts[f"busy {request.method}"]}]})

        async def limited(request: Request) -> Response:
            return JSONResponse({"message": "slow down"}, 429, headers={"Retry-After": "120"})

        async def big(request: Request) -> Response:
            rows = [{"id": i, "name": f"item {i}", "padding": "x" * 40} for i in range(5000)]
            return JSONResponse({"page": 1, "results": rows})

        return Starlette(
            routes=[
                Route("/search/person", search_person),
                Route("/person/{person_id}", person),
                Route("/person/{person_id}/movie_credits", credits),
                Route("/echo/{item_id:path}", echo, methods=["GET", "POST"]),
                Route("/whoami", whoami),
                Route("/boom", boom),
                Route("/slow", slow),
                Route("/busy", busy, methods=["GET", "POST"]),
                Route("/limited", limited),
                Route("/big", big),
            ]
        )


@contextmanager
def serve_upstream(upstream: Upstream) -> Iterator[str]:
    """Serve the upstream with uvicorn on a free 127.0.0.1 port in a thread; yields its base URL."""
    with serve_asgi(upstream.app()) as port:
        yield f"http://127.0.0.1:{port}"


def _out(*columns: str) -> list[SessionTable]:
    return [SessionTable(name="response", direction=Direction.OUT, columns=[Column(name=c) for c in columns])]


def _api(method: str, path: str, title: str, params: list[Param], **kw: Any) -> Api:
    key = f"{method} {path}"
    return Api(
        key=key,
        object_key=path.strip("/").split("/")[0],
        title=title,
        params=params,
        executor=ExecutorBinding(kind="http", target=key),
        **kw,
    )


def _param(name: str, location: str, schema: dict[str, Any], required: bool = False) -> Param:
    return Param(name=name, location=location, json_schema=schema, required=required)


STRING = {"type": "string"}
INTEGER = {"type": "integer"}


def rest_catalog() -> Catalog:
    """The upstream's operations as the OpenAPI source describes them: ``http`` bindings, located params."""
    apis = [
        _api(
            "GET",
            "/search/person",
            "Search for people by name",
            [_param("query", "query", {**STRING, "minLength": 1}, True), _param("page", "query", INTEGER)],
            output_tables=_out("page", "results[].id", "results[].name", "results[].known_for[].title"),
            entry_point=True,
        ),
        _api(
            "GET",
            "/person/{person_id}",
            "Get the primary person details by id",
            [_param("person_id", "path", INTEGER, True)],
            output_tables=_out("id", "name", "birthday", "also_known_as[]"),
        ),
        _api(
            "GET",
            "/person/{person_id}/movie_credits",
            "Get the movie credits for a person",
            [_param("person_id", "path", INTEGER, True)],
            output_tables=_out("id", "cast[].id", "cast[].title"),
        ),
        _api(
            "POST",
            "/echo/{item_id}",
            "Echo a search request with a JSON body",
            [
                _param("item_id", "path", STRING, True),
                _param("tags", "query", {"type": "array", "items": STRING}),
                _param("filter", "query", {"type": "object", "properties": {"gte": INTEGER}}),
                _param("X-Trace-Id", "header", STRING),
                _param("session", "cookie", STRING),
                _param("body", "body", {
                    "type": "object", "required": ["term"], "properties": {"term": STRING}
                }),
            ],
            output_tables=_out("item_id", "ok"),
            side_effect=SideEffect.READ,  # a search over POST: read-only by the operator's override
        ),
        _api("GET", "/whoami", "Show the credentials the upstream received", []),
        _api("GET", "/boom", "Fail with a server error", []),
        _api("GET", "/slow", "Answer after three seconds", []),
        _api("GET", "/busy", "Answer 503 twice, then rows", []),
        _api("POST", "/busy", "Answer 503 twice over POST", [], side_effect=SideEffect.READ),
        _api("GET", "/limited", "Always rate-limited", []),
        _api("GET", "/big", "A long list", [], output_tables=_out("page", "results[].id", "results[].name")),
        _api("DELETE", "/person/{person_id}", "Delete a person", [_param("person_id", "path", INTEGER, True)],
             side_effect=SideEffect.DESTRUCTIVE),
    ]  # fmt: skip
    catalog = Catalog(source_kind="openapi")
    catalog.apis = {a.key: a for a in apis}
    for api in apis:
        obj = catalog.objects.setdefault(
            api.object_key, BusinessObject(key=api.object_key, title=api.object_key)
        )
        obj.api_keys.append(api.key)
    for consumer in ("GET /person/{person_id}", "GET /person/{person_id}/movie_credits"):
        catalog.edges.append(
            Edge(
                producer="GET /search/person",
                producer_table="response",
                producer_field="results[].id",
                consumer=consumer,
                consumer_field="person_id",
                level=EdgeLevel.ALIAS,
                reason="resource name + id: person -> person_id",
            )
        )
    return catalog


def write_rest_snapshot(path: Path) -> Path:
    write_snapshot(rest_catalog(), path, options={"source": "tests/test_http_upstream.py"})
    return path


def test_rest_catalog_binds_every_operation_to_http() -> None:
    catalog = rest_catalog()
    assert all(a.executor.kind == "http" and a.executor.target == a.key for a in catalog.apis.values())
    assert {p.location for a in catalog.apis.values() for p in a.params} == {
        "path",
        "query",
        "header",
        "cookie",
        "body",
    }
