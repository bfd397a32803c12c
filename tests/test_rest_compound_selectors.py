"""A selector field named for what it selects (issue 18, chains): ``spec.machineSelector.matchLabels`` of a
policy feeds the machines list's ``labelSelector``, as ``spec.selector`` does; ``spec.hostSelector`` selects
hosts, not machines, and feeds nothing there."""

from __future__ import annotations

import pytest

from apiatlas.planning.planner import Planner
from apiatlas.snapshot import Snapshot
from test_rest_loose_ids import compiled_spec, fed_into

_LABELS = "{type: object, properties: {matchLabels: {type: object}}}"
_ITEM = "{type: object, properties: {metadata: {type: object, properties: {name: {type: string}}}}}"
_NAMED = """\
      parameters:
        - {name: namespace, in: path, required: true, schema: {type: string}}
        - {name: name, in: path, required: true, schema: {type: string}}
"""
SPEC = f"""\
openapi: 3.0.0
info: {{title: Machines, version: '1'}}
paths:
  /namespaces/{{namespace}}/policies/{{name}}:
    get:
      summary: Read the specified policy
{_NAMED}      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  spec: {{type: object, properties: {{machineSelector: {_LABELS}, hostSelector: {_LABELS}}}}}
  /namespaces/{{namespace}}/machines:
    get:
      summary: List the machines of a namespace
      parameters:
        - {{name: namespace, in: path, required: true, schema: {{type: string}}}}
        - {{name: labelSelector, in: query, schema: {{type: string}}}}
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
                    items: {_ITEM}
"""


@pytest.fixture(scope="module")
def snap(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "compound_selectors", SPEC)


def test_a_selector_named_for_the_listed_kind_feeds_the_list_s_selector(snap: Snapshot) -> None:
    fed = fed_into(snap, "GET /namespaces/{namespace}/machines", "labelSelector")
    assert fed == {("GET /namespaces/{namespace}/policies/{name}", "spec.machineSelector.matchLabels")}
    chains = Planner(snap).plan("List the machines of policy p-1 in namespace shop").chains
    assert [
        "GET /namespaces/{namespace}/policies/{name}",
        "GET /namespaces/{namespace}/machines",
    ] in [[s.api for s in c.steps] for c in chains]
