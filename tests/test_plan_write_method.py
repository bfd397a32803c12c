"""Which write a change is (issue 18 point 2): a partial change is a ``PATCH`` where one serves the path, a
``PUT`` only when the request says replacing; a ``DELETE`` only when it says deleting; the patch document a
``PATCH`` requires is the change itself (asked, at no cost). On a real compile of a small spec."""

from __future__ import annotations

import pytest

from apiatlas.planning.planner import Planner
from test_rest_loose_ids import compiled_spec

_BODY = "{type: object, properties: {metadata: {type: object, properties: {name: {type: string}}}}}"
SPEC = f"""\
openapi: 3.0.0
info: {{title: Gadgets, version: '1'}}
paths:
  /gadgets/{{name}}:
    parameters: [{{name: name, in: path, required: true, schema: {{type: string}}}}]
    get:
      summary: read the specified Gadget
      responses: {{'200': {{description: ok, content: {{application/json: {{schema: {_BODY}}}}}}}}}
    put:
      summary: replace the specified Gadget
      requestBody: {{content: {{application/json: {{schema: {_BODY}}}}}}}
      responses: {{'200': {{description: ok}}}}
    patch:
      summary: partially update the specified Gadget
      requestBody:
        required: true
        content: {{application/merge-patch+json: {{schema: {{type: object}}}}}}
      responses: {{'200': {{description: ok}}}}
    delete:
      summary: delete a Gadget
      responses: {{'200': {{description: ok}}}}
"""


@pytest.fixture(scope="module")
def planner(tmp_path_factory: pytest.TempPathFactory) -> Planner:
    return Planner(compiled_spec(tmp_path_factory, "write_method", SPEC))


def _target(planner: Planner, request: str) -> str:
    return planner.plan(request).chains[0].target


def test_a_partial_change_patches(planner: Planner) -> None:
    best = planner.plan("Label the gadget g-1 with colour=red").chains[0]
    assert best.target == "PATCH /gadgets/{name}"
    assert best.missing == ["PATCH /gadgets/{name}.body"]  # the change itself: the caller composes it


def test_replacing_puts_and_deleting_deletes(planner: Planner) -> None:
    assert _target(planner, "Replace the gadget g-1") == "PUT /gadgets/{name}"
    assert _target(planner, "Delete the gadget g-1") == "DELETE /gadgets/{name}"
