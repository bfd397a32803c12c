"""A write to one named thing (issue 18, Kubernetes chains): not the same write done to the whole
collection unless the request says "all"; a ``PATCH`` where a ``PUT`` of its path matches the request's
words better but the request says no replacing; the optional body fields of a write to one item are no
lookups a read of the thing should feed. On a real compile of a small spec."""

from __future__ import annotations

import pytest

from apiatlas.planning.planner import Planner
from test_rest_loose_ids import compiled_spec

_OBJECT = (
    "{type: object, properties: {apiVersion: {type: string}, kind: {type: string},"
    " metadata: {type: object, properties: {name: {type: string}}},"
    " spec: {type: object, properties: {selector: {type: object, properties:"
    " {matchLabels: {type: object}}}}}}}"
)
_OPTIONS = "{type: object, properties: {apiVersion: {type: string}, kind: {type: string}}}"
_SELECTOR = "{name: labelSelector, in: query, schema: {type: string}, description: selects by label}"
_NAME = "{name: name, in: path, required: true, schema: {type: string}, description: name of the Widget}"
_OK = f"{{'200': {{description: ok, content: {{application/json: {{schema: {_OBJECT}}}}}}}}}"
SPEC = f"""\
openapi: 3.0.0
info: {{title: Widgets, version: '1'}}
paths:
  /widgets:
    get:
      summary: list or watch objects of kind Widget
      parameters: [{_SELECTOR}]
      responses: {{'200': {{description: ok, content: {{application/json: {{schema:
        {{type: object, properties: {{items: {{type: array, items: {_OBJECT}}}}}}}}}}}}}}}
    delete:
      summary: delete collection of Widget
      parameters: [{_SELECTOR}]
      requestBody: {{content: {{application/json: {{schema: {_OPTIONS}}}}}}}
      responses: {{'200': {{description: ok}}}}
  /widgets/{{name}}:
    parameters: [{_NAME}]
    get:
      summary: read the specified Widget
      responses: {_OK}
    put:
      summary: replace the specified Widget
      requestBody: {{content: {{application/json: {{schema: {_OBJECT}}}}}}}
      responses: {_OK}
    patch:
      summary: partially update the specified Widget with a merge patch document
      requestBody:
        required: true
        content: {{application/merge-patch+json: {{schema: {{type: object}}}}}}
      responses: {_OK}
    delete:
      summary: delete a Widget
      requestBody: {{content: {{application/json: {{schema: {_OPTIONS}}}}}}}
      responses: {{'200': {{description: ok}}}}
"""


@pytest.fixture(scope="module")
def planner(tmp_path_factory: pytest.TempPathFactory) -> Planner:
    return Planner(compiled_spec(tmp_path_factory, "one_item_writes", SPEC))


def test_deleting_one_named_thing_deletes_that_item(planner: Planner) -> None:
    chains = planner.plan("Delete the finished widget w-1").chains
    assert [s.api for s in chains[0].steps] == ["DELETE /widgets/{name}"]
    assert all(c.target != "DELETE /widgets" for c in chains)  # no candidate deletes all the others too


def test_deleting_all_of_them_deletes_the_collection(planner: Planner) -> None:
    assert planner.plan("Delete all widgets").chains[0].target == "DELETE /widgets"


def test_a_change_said_in_no_title_patches(planner: Planner) -> None:
    assert planner.plan("Restart the widget w-1").chains[0].target == "PATCH /widgets/{name}"
    assert planner.plan("Replace the widget w-1").chains[0].target == "PUT /widgets/{name}"
