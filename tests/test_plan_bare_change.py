"""A change that names no thing ("… Update to image X", «… Поменяй на X»): it changes what the action before
it acts on, as "… and update it" does (issue 18, Kubernetes chains), not a thing of another kind whose
write the request's words fit. On a real compile of a small spec."""

from __future__ import annotations

import pytest

from apiatlas.planning.planner import Planner
from test_plan_one_item_writes import _NAME, _OK, SPEC
from test_rest_loose_ids import compiled_spec

MIRRORS = f"""\
  /mirrors/{{name}}:
    parameters: [{_NAME}]
    patch:
      summary: partially update the image of the specified Mirror
      requestBody:
        required: true
        content: {{application/merge-patch+json: {{schema: {{type: object}}}}}}
      responses: {_OK}
"""


@pytest.fixture(scope="module")
def planner(tmp_path_factory: pytest.TempPathFactory) -> Planner:
    return Planner(compiled_spec(tmp_path_factory, "bare_change", SPEC + MIRRORS))


def _apis(planner: Planner, request: str) -> list[str]:
    return [s.api for s in planner.plan(request).chains[0].steps]


def test_a_change_naming_no_thing_changes_the_thing_before(planner: Planner) -> None:
    expected = ["GET /widgets/{name}", "PATCH /widgets/{name}"]
    assert _apis(planner, "Which image does the widget w-1 run? Update to image acme.io/w:2") == expected
    assert _apis(planner, "Какой образ у widget w-1? Поменяй на image acme.io/w:2") == expected
