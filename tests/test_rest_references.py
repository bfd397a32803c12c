"""A reference object names a thing of its kind (issue 18, chains): ``rackRef.name`` of a binding feeds the
rack's read, as ``rack.name`` and ``rackName`` do. A real compile of a small spec."""

from __future__ import annotations

import pytest

from apiatlas.build import compile_docs
from apiatlas.snapshot import Snapshot
from test_plan_review_cases import _by_path
from test_rest_loose_ids import fed_into

META = "metadata: {type: object, properties: {name: {type: string}}}"
RACK = "{type: object, properties: {" + META + ", size: {type: integer}}}"
REF = "{type: object, properties: {kind: {type: string}, name: {type: string}}}"
BINDING = "{type: object, properties: {" + META + ", rackRef: " + REF + ", ownerRef: " + REF + "}}"
SPEC = "openapi: 3.0.0\ninfo: {title: Library, version: '1'}\npaths:\n" + "".join(
    [
        _by_path("/racks/{name}", "get", "read the specified Rack", "name", RACK),
        _by_path("/rackbindings/{name}", "get", "read the specified RackBinding", "name", BINDING),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    """Compiled with one edge per input field and level: a same-name ``….name`` is no longer enough."""
    folder = tmp_path_factory.mktemp("references_library")
    (folder / "library.yaml").write_text(SPEC, encoding="utf-8")
    (folder / "apiatlas.yaml").write_text("max_edges_per_consumer_field: 1\n", encoding="utf-8")
    out = folder / "library.atlas"
    compile_docs(folder / "library.yaml", overlays_dir=None, config_path=folder / "apiatlas.yaml", out=out,
                 write_report=False)  # fmt: skip
    return Snapshot.open(out)


def test_a_reference_object_names_a_thing_of_its_kind(library: Snapshot) -> None:
    fed = fed_into(library, "GET /racks/{name}", "name")
    assert ("GET /rackbindings/{name}", "rackRef.name") in fed
    assert ("GET /rackbindings/{name}", "ownerRef.name") not in fed  # a reference to no rack
