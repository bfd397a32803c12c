"""SDK cards enriched by a model (``compile --llm``) against a scripted OpenAI-compatible stub started here:
a valid answer, a repair after invalid JSON and after an invented member name, a member whose answers stay
invalid (no enrichment, counted), the cache that makes a rebuild ask only for what failed, the provenance
in the card and the manifest, and search finding a member by a model-written Russian hint."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client

from apiatlas.build import compile_docs
from apiatlas.errors import ConfigError
from apiatlas.server.app import build_server
from apiatlas.server.config import ServerConfig
from apiatlas.snapshot import Snapshot
from chat_stub import ChatStub
from dotnet_fixture import SOURCE
from test_server_catalog import structured

ADD = "M:Geometry.Shapes.Canvas.Add(Geometry.Shapes.Shape)"
MOVE = "M:Geometry.Shapes.Shape.MoveTo(System.Int32,System.Int32)"
ADD_ANSWER = {"scenarios": ["Put a shape on the canvas before drawing it."],
              "search_hints": ["добавить фигуру на холст", "add a shape"]}  # fmt: skip


class Stub(ChatStub):
    """/chat/completions by member: ADD answers bad JSON, then an invented member, then well; MOVE always
    bad JSON; every other member a plain valid answer."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        super().__init__(self._answer)

    def _answer(self, body: dict[str, Any]) -> str:
        member = json.loads(body["messages"][2]["content"])["member"]
        self.asked.append(member)
        if member == MOVE:
            return "not json"
        if member == ADD:
            invented = {"scenarios": ["Then call Canvas.Clear to start again."], "search_hints": []}
            return ["{oops", json.dumps(invented), json.dumps(ADD_ANSWER)][min(self.asked.count(ADD), 3) - 1]
        return json.dumps({"scenarios": [f"Use {member[2:].split('(')[0]}."], "search_hints": []})


@pytest.fixture
def stub() -> Iterator[Stub]:
    server = Stub()
    yield server
    server.close()


def _compile(folder: Path, out: Path, llm: str) -> dict[str, Any]:
    result = compile_docs(folder, overlays_dir=None, config_path=None, out=out, write_report=False,
                          embeddings="none", llm=llm)  # fmt: skip
    return dict(result.manifest.options["enrichment"])


def test_enrichment_repairs_refuses_inventions_caches_and_is_searched(
    stub: Stub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("APIATLAS_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "sdk"
    folder.mkdir()
    shutil.copy(SOURCE, folder / SOURCE.name)
    out = tmp_path / "shapes.atlas"
    llm = f"openai:stub-model@{stub.url}"
    first = _compile(folder, out, llm)
    members = len(set(stub.asked))
    assert first == {"model": "stub-model", "prompt_version": "sdk-enrichment-1", "written": members - 1,
                     "cached": 0, "failed": 1}  # fmt: skip
    assert stub.asked.count(ADD) == 3 and stub.asked.count(MOVE) == 3  # two repairs each, at most

    with Snapshot.open(out) as snap:
        add = snap.get_api(ADD)
        assert add is not None and add.extra["enrichment"]["search_hints"] == ADD_ANSWER["search_hints"]
        assert add.extra["enrichment"]["provenance"]["model"] == "stub-model"
        move = snap.get_api(MOVE)
        assert move is not None and "enrichment" not in move.extra  # failed: the card stays as built

        async def describe() -> tuple[dict[str, Any], dict[str, Any]]:
            async with Client(build_server(snap, None, ServerConfig())) as client:
                asked = {"query": "добавить фигуру на холст"}
                found = structured(await client.call_tool("code_search", asked))
                return found, structured(await client.call_tool("code_describe_api", {"api": ADD}))

        found, described = anyio.run(describe)
        assert found["hits"][0]["api_key"] == ADD  # by the model-written Russian hint
        card = described["api"]["code"]
        assert card["model_written"] == {**ADD_ANSWER, "written_by": "stub-model",
                                         "prompt_version": "sdk-enrichment-1"}  # fmt: skip

    asked = len(stub.asked)
    again = _compile(folder, out, llm)  # the cache answers all but the member that failed
    assert again == {**first, "written": 0, "cached": members - 1}
    assert stub.asked[asked:] == [MOVE] * 3


def test_a_bad_llm_spec_stops_the_build_before_parsing(tmp_path: Path) -> None:
    shutil.copy(SOURCE, tmp_path / SOURCE.name)
    with pytest.raises(ConfigError, match="openai:MODEL@BASE_URL"):
        compile_docs(tmp_path, overlays_dir=None, config_path=None, out=tmp_path / "x.atlas",
                     write_report=False, embeddings="none", llm="gpt-4")  # fmt: skip
    assert not (tmp_path / "x.atlas").exists()
