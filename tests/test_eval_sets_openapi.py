"""Every development set of examples/{slack,kubernetes,stripe}/eval that carries gold operations loads
against its spec: each gold operation exists (the loader raises on one the spec lacks), no request is
empty. Files named *fresh* or *held* are report-only and are left out here, except the sealed *fresh3*
and *fresh4* sets: their gold operations are checked against the spec too (the loader only, never a
search or a plan), and their unrelated requests for shape."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apiatlas.errors import SourceError
from apiatlas.evals.openapi_requests import load_openapi_requests
from shared_data import SHARED_DATA

SEALED = ("fresh3", "fresh4")

REPO = Path(__file__).resolve().parents[1]
SPECS = {
    "slack": "slack_web_openapi_v2.json",
    "kubernetes": "kubernetes.swagger.json",
    "stripe": "stripe-2023-09.spec3.yaml",
}
needs_shared = pytest.mark.skipif(
    not (SHARED_DATA / "openapi").is_dir(), reason="../shared/data/openapi is absent"
)


def _gold_sets() -> list[tuple[str, Path]]:
    found: list[tuple[str, Path]] = []
    for example in SPECS:
        for path in sorted((REPO / "examples" / example / "eval").glob("*.json")):
            sealed = any(tag in path.name for tag in SEALED)
            if ("fresh" in path.name and not sealed) or "held" in path.name:
                continue
            data = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(data, list) and data and all("solution" in item for item in data):
                found.append((example, path))
    return found


def test_the_new_sets_are_found() -> None:
    names = {f"{example}/{path.name}" for example, path in _gold_sets()}
    for name in (
        "slack/chains_fourth.json",
        "slack/requests_more.json",
        "kubernetes/chains_fourth.json",
        "kubernetes/requests_more.json",
        "stripe/stripe_chains_third.json",
    ):
        assert name in names


@pytest.mark.parametrize("tag", SEALED)
def test_the_sealed_sets_are_found(tag: str) -> None:
    names = {f"{example}/{path.name}" for example, path in _gold_sets()}
    for example, chains in (
        ("slack", f"chains_{tag}.json"),
        ("kubernetes", f"chains_{tag}.json"),
        ("stripe", f"stripe_chains_{tag}.json"),
    ):
        assert f"{example}/{chains}" in names
        assert f"{example}/requests_{tag}.json" in names


@pytest.mark.parametrize("tag", SEALED)
@pytest.mark.parametrize("example", sorted(SPECS))
def test_the_sealed_unrelated_sets_hold_only_requests(example: str, tag: str) -> None:
    path = REPO / "examples" / example / "eval" / f"unrelated_{tag}.json"
    data = json.loads(path.read_text("utf-8"))
    assert data and all(list(item) == ["query"] and item["query"].strip() for item in data)
    queries = [item["query"].strip().lower() for item in data]
    assert len(set(queries)) == len(queries), "a request is repeated"


@needs_shared
@pytest.mark.parametrize(
    ("example", "path"), _gold_sets(), ids=lambda v: v.name if isinstance(v, Path) else v
)
def test_every_gold_operation_is_in_the_spec(example: str, path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    loaded = load_openapi_requests(SHARED_DATA / "openapi" / SPECS[example], path)
    assert len(loaded.queries) == len(data)
    assert all(query.text and query.gold for query in loaded.queries)
    queries = [item["query"].strip().lower() for item in data]
    assert len(set(queries)) == len(queries), "a request is repeated"


@needs_shared
def test_a_gold_the_spec_lacks_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"query": "list channels", "solution": ["GET /channels.everything"]}]))
    with pytest.raises(SourceError, match="no operation"):
        load_openapi_requests(SHARED_DATA / "openapi" / SPECS["slack"], bad)
