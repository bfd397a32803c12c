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


@pytest.fixture(scope="module")
def snap(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    folder = tmp_path_factory.mktemp("loose_ids")
    spec = folder / "loose.yaml"
    spec.write_text(SPEC, encoding="utf-8")
    out = folder / "loose.atlas"
    compile_docs(spec, overlays_dir=None, config_path=None, out=out, write_report=False)
    return Snapshot.open(out)


def _fed(snap: Snapshot, consumer: str, field: str) -> set[tuple[str, str]]:
    return {(e.producer, e.producer_field) for e in snap.edges_into(consumer) if e.consumer_field == field}


def test_a_collection_s_item_names_feed_the_resource_parameter(snap: Snapshot) -> None:
    fed = _fed(snap, "GET /namespaces/{namespace}/pods", "namespace")
    assert ("GET /namespaces", "items[].metadata.name") in fed


def test_a_list_of_bare_values_named_for_a_resource_feeds_it(snap: Snapshot) -> None:
    assert ("GET /conversations.list", "channels[]") in _fed(snap, "POST /chat.postMessage", "channel")


def test_qualified_alternative_and_loosely_typed_ids(snap: Snapshot) -> None:
    assert ("GET /airports", "skyId") in _fed(snap, "GET /flights", "originSkyId")
    assert ("GET /airports", "productId") in _fed(snap, "GET /flights", "productId")  # number → string
    assert ("GET /users", "username") in _fed(snap, "GET /flights", "username_or_url")


def test_no_edge_from_a_field_of_another_name(snap: Snapshot) -> None:
    assert not _fed(snap, "GET /flights", "originSkyId") - {("GET /airports", "skyId")}
