"""REST edges for ids a spec declares loosely (issue 18 point 3), on a real compile: the item name of a
resource's own collection, a list of bare values named for a resource, role-qualified and alternative
parameter names, and ids typed string on one side and number on the other."""

from __future__ import annotations

import pytest

from apiatlas.build import compile_docs
from apiatlas.snapshot import Snapshot

SPEC = """\
openapi: 3.0.0
info: {title: Loose, version: '1'}
paths:
  /namespaces:
    get:
      summary: List namespaces
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  items:
                    type: array
                    items:
                      type: object
                      properties:
                        metadata:
                          type: object
                          properties: {name: {type: string}, namespace: {type: string}}
  /namespaces/{namespace}/pods:
    get:
      summary: List the pods of a namespace
      parameters: [{name: namespace, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: ok}}
  /conversations.list:
    get:
      summary: List conversations
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  channels: {type: array, items: {type: string}}
  /chat.postMessage:
    post:
      summary: Post a message
      parameters: [{name: channel, in: query, required: true, schema: {type: string}}]
      responses: {'200': {description: ok}}
  /airports:
    get:
      summary: Search airports
      parameters: [{name: query, in: query, required: true, schema: {type: string}}]
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties: {skyId: {type: string}, productId: {type: number}}
  /flights:
    get:
      summary: Search flights
      parameters:
        - {name: originSkyId, in: query, required: true, schema: {type: string}}
        - {name: productId, in: query, required: true, schema: {type: string}}
        - {name: username_or_url, in: query, required: true, schema: {type: string}}
      responses: {'200': {description: ok}}
  /users:
    get:
      summary: Search users
      parameters: [{name: q, in: query, required: true, schema: {type: string}}]
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: object, properties: {username: {type: string}}}
"""


def compiled_spec(tmp_path_factory: pytest.TempPathFactory, name: str, text: str) -> Snapshot:
    """``text`` (an OpenAPI spec) compiled in a fresh folder and opened (also for test_plan_lookups)."""
    folder = tmp_path_factory.mktemp(name)
    spec = folder / f"{name}.yaml"
    spec.write_text(text, encoding="utf-8")
    out = folder / f"{name}.atlas"
    compile_docs(spec, overlays_dir=None, config_path=None, out=out, write_report=False)
    return Snapshot.open(out)


def fed_into(snap: Snapshot, consumer: str, field: str) -> set[tuple[str, str]]:
    """(producer, producer field) of every edge into ``consumer``'s input ``field``."""
    return {(e.producer, e.producer_field) for e in snap.edges_into(consumer) if e.consumer_field == field}


@pytest.fixture(scope="module")
def snap(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "loose_ids", SPEC)


def test_a_collection_s_item_names_feed_the_resource_parameter(snap: Snapshot) -> None:
    fed = fed_into(snap, "GET /namespaces/{namespace}/pods", "namespace")
    assert ("GET /namespaces", "items[].metadata.name") in fed


def test_a_list_of_bare_values_named_for_a_resource_feeds_it(snap: Snapshot) -> None:
    assert ("GET /conversations.list", "channels[]") in fed_into(snap, "POST /chat.postMessage", "channel")


def test_qualified_alternative_and_loosely_typed_ids(snap: Snapshot) -> None:
    assert ("GET /airports", "skyId") in fed_into(snap, "GET /flights", "originSkyId")
    assert ("GET /airports", "productId") in fed_into(snap, "GET /flights", "productId")  # number → string
    assert ("GET /users", "username") in fed_into(snap, "GET /flights", "username_or_url")


def test_no_edge_from_a_field_of_another_name(snap: Snapshot) -> None:
    assert not fed_into(snap, "GET /flights", "originSkyId") - {("GET /airports", "skyId")}
