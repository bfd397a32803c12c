"""A write taking an item its path names (``/shelves/{shelf}/books/{name}``: a book) is done to each book
a list gives when the request names that kind ("restart the books on shelf s1"), though the input's own
name ("name") says no kind (``steps._unsaid_fan_out``)."""

from __future__ import annotations

import pytest

from apiatlas.planning.planner import Planner
from apiatlas.snapshot import Snapshot
from test_rest_loose_ids import compiled_spec

_BOOK = "{type: object, properties: {metadata: {type: object, properties: {name: {type: string}}}}}"
_LIST = "{type: object, properties: {items: {type: array, items: " + _BOOK + "}}}"


def _op(method: str, path: str, summary: str, out: str) -> str:
    params = [
        "{name: shelf, in: path, required: true, schema: {type: string}}",
        *(["{name: name, in: path, required: true, schema: {type: string}}"] if "{name}" in path else []),
    ]
    given = ", ".join(params)
    return f"""\
  {path}:
    {method}:
      summary: {summary}
      parameters: [{given}]
      responses: {{'200': {{description: ok, content: {{application/json: {{schema: {out}}}}}}}}}
"""


SPEC = "openapi: 3.0.0\ninfo: {title: Shelves, version: '1'}\npaths:\n" + "".join(
    [
        _op("get", "/shelves/{shelf}/books", "list or watch objects of kind Book", _LIST),
        _op("post", "/shelves/{shelf}/books/{name}/restart", "restart the specified Book", _BOOK),
    ]
)


@pytest.fixture(scope="module")
def shelves(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "fan_out_kind", SPEC)


def test_a_write_on_each_of_the_kind_said_in_the_plural(shelves: Snapshot) -> None:
    chains = Planner(shelves, allow=None).plan("restart the books on shelf s1").chains
    assert chains[0].api_keys == ["GET /shelves/{shelf}/books", "POST /shelves/{shelf}/books/{name}/restart"]
