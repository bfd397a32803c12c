"""A closed-compound kind named by its last word alone where the request says its other words elsewhere
(``kind_tails.tails_said``): "the persistent volume behind the claim data-pg-0" names a persistent volume
claim, though "claim" alone also ends ``ResourceClaim`` (issue 18, Kubernetes chains). On a real compile."""

from __future__ import annotations

import pytest

from apiatlas.planning.kind_tails import tails_said
from apiatlas.planning.planner import Planner
from test_rest_loose_ids import compiled_spec

_OBJ = "{type: object, properties: {metadata: {type: object, properties: {name: {type: string}}}}}"


def _read(path: str, kind: str) -> str:
    name = "{name: name, in: path, required: true, schema: {type: string}, description: name of " + kind + "}"
    ok = f"{{'200': {{description: ok, content: {{application/json: {{schema: {_OBJ}}}}}}}}}"
    return (
        f"  {path}:\n    get:\n      summary: read the specified {kind}\n"
        f"      parameters: [{name}]\n      responses: {ok}\n"
    )


SPEC = "openapi: 3.0.0\ninfo: {title: Store, version: '1'}\npaths:\n" + "".join(
    [
        _read("/persistentvolumeclaims/{name}", "PersistentVolumeClaim"),
        _read("/resourceclaims/{name}", "ResourceClaim"),
        _read("/persistentvolumes/{name}", "PersistentVolume"),
    ]
)


def test_a_tail_names_the_one_kind_whose_other_words_are_said() -> None:
    parts = {"persistentvolumeclaim": ["persistent", "volume", "claim"], "resourceclaim": ["resource"]}
    parts["resourceclaim"].append("claim")
    said = ["the", "persistent", "volume", "behind", "the", "claim", "x"]
    assert tails_said(parts, said) == {"claim": "persistentvolumeclaim"}
    assert tails_said(parts, ["show", "the", "claim", "x"]) == {}  # either kind: none


@pytest.fixture(scope="module")
def planner(tmp_path_factory: pytest.TempPathFactory) -> Planner:
    return Planner(compiled_spec(tmp_path_factory, "tails_said", SPEC))


def test_a_name_after_the_tail_is_one_of_that_kind(planner: Planner) -> None:
    result = planner.plan("Show the persistent volume behind the claim data-pg-0")
    assert [(x.value, x.hint) for x in result.values] == [("data-pg-0", "persistentvolumeclaim")]
    assert result.chains[0].steps[0].api == "GET /persistentvolumeclaims/{name}"
