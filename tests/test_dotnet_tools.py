"""A code snapshot served over MCP (the official client): the tool set follows the surface (no execution
tools), describe_api shows the card, search finds names exactly first, read_source returns the member's
lines, check_code reports invented members, wrong arities and, with mcs, the compiler's verdict."""

from __future__ import annotations

import shutil
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client

from apiatlas.build import compile_docs
from apiatlas.search.structural import overload_group
from apiatlas.server.app import build_server
from apiatlas.server.config import ServerConfig
from apiatlas.snapshot import Snapshot
from dotnet_fixture import SOURCE, build_sdk
from test_server_catalog import structured

ADD = "M:Geometry.Shapes.Canvas.Add(Geometry.Shapes.Shape)"
GOOD = """using Geometry.Shapes;
class Demo {
    static void Main() {
        var canvas = new Canvas(640, 480);
        var circle = new Circle(2.5);
        circle.MoveTo(10, 20);
        canvas.Add(circle, 1, 2);
        canvas.ShapeAdded += (s, e) => { };
        System.Console.WriteLine(canvas.Width + circle.Radius + circle.X);
    }
}
"""
BAD = """using Geometry.Shapes;
class Demo {
    static void Main() {
        Canvas canvas = new Canvas(640);
        var circle = new Circle(1.0);
        circle.Resize(3);
        canvas.Add(circle, 1);
        canvas.Clear();
        var c = new Circel(2.0);
    }
}
"""
SUBCLASS = """using Geometry.Shapes;
class Square : Shape {
    public override void Draw(Canvas canvas) { MoveTo(1, 2); Rotate(90); canvas.Add(this); }
}
"""


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("mcs") is None:
        pytest.skip("Mono's C# compiler (mcs) is not installed: ./run test installs mono-mcs")
    folder = build_sdk(tmp_path_factory.mktemp("sdk"))
    shutil.copy(SOURCE, folder / SOURCE.name)
    out = folder.parent / "shapes.atlas"
    compile_docs(folder, overlays_dir=None, config_path=None, out=out, write_report=False, embeddings="none")
    return out


def _serve(path: Path, body: Callable[[Client], Awaitable[None]]) -> None:
    async def main() -> None:
        with Snapshot.open(path) as snap:
            async with Client(build_server(snap, None, ServerConfig())) as client:
                await body(client)

    anyio.run(main)


async def _call(client: Client, tool: str, **args: Any) -> dict[str, Any]:
    return structured(await client.call_tool(f"code_{tool}", args))


def test_code_tools_over_mcp(snapshot: Path) -> None:
    async def body(client: Client) -> None:
        names = [t.name for t in (await client.list_tools()).tools]
        assert names == [
            f"code_{n}"
            for n in (
                "list_business_objects",
                "list_apis",
                "describe_api",
                "search",
                "dependency_chain",
                "read_source",
                "check_code",
            )
        ]
        card = (await _call(client, "describe_api", api=ADD))["api"]
        assert card["code"]["signature"] == "public void Add (Geometry.Shapes.Shape shape);"
        assert card["code"]["facts"]["throws"] == ["System.ArgumentNullException"]
        assert card["code"]["overloads"][0]["key"] == ADD
        by_alias = (await _call(client, "describe_api", api=card["code"]["alias"]))["api"]
        assert by_alias["key"] == ADD
        for query in ("Geometry.Shapes.Canvas.Add", "Canvas.Add", "Add"):
            hits = (await _call(client, "search", query=query))["hits"]
            assert hits[0]["api_key"].startswith("M:Geometry.Shapes.Canvas.Add("), (query, hits[:2])
        assert (await _call(client, "search", query="Circle"))["hits"][0][
            "api_key"
        ] == "T:Geometry.Shapes.Circle"
        after = await _call(client, "dependency_chain", api="Shape.MoveTo", direction="downstream", depth=1)
        assert after["levels"][1] == [ADD], after  # Canvas.Add(shape, x, y) moves, then adds
        assert (
            after["links"][0]["confidence"] == "co_usage"
            and "called one after the other" in after["links"][0]["reason"]
        )
        lines = await _call(client, "read_source", api=card["code"]["alias"])
        text = "\n".join(line["text"] for line in lines["lines"])
        assert lines["file"] == "Shapes.cs" and "throw new ArgumentNullException" in text
        assert SOURCE.read_text().splitlines()[lines["lines"][0]["line"] - 1] == lines["lines"][0]["text"]

    _serve(snapshot, body)


def test_a_search_in_words_shows_each_overload_group_once(snapshot: Path) -> None:
    """Canvas.Add has two overloads; a request in words gets one hit for both (its card lists them), and
    the snapshot fuses its lexical side by what the best name covers (a code surface's setting)."""

    async def body(client: Client) -> None:
        hits = (await _call(client, "search", query="add a shape to the canvas at a position"))["hits"]
        groups = [overload_group(h["api_key"]) for h in hits]
        assert "M:Geometry.Shapes.Canvas.Add" in groups and len(groups) == len(set(groups)), groups

    _serve(snapshot, body)
    with Snapshot.open(snapshot) as snap:
        assert snap.manifest()["pass_stats"]["search"]["fusion"]["lexical_by_cover"] is True


def test_check_code_finds_invented_members_and_wrong_arities(snapshot: Path) -> None:
    async def body(client: Client) -> None:
        good = await _call(client, "check_code", code=GOOD)
        assert good.get("diagnostics", []) == []
        assert good.get("unknown", []) == [] and good["checked_symbols"] >= 6
        assert good["compile"]["ran"] and good["compile"]["compiled"], good["compile"]
        bad = await _call(client, "check_code", code=BAD)
        assert set(bad["unknown"]) == {
            "Geometry.Shapes.Canvas.#ctor",
            "Geometry.Shapes.Circle.Resize",
            "Geometry.Shapes.Canvas.Add",
            "Geometry.Shapes.Canvas.Clear",
            "Circel",
        }
        resize = next(d for d in bad["diagnostics"] if d["symbol"] == "Geometry.Shapes.Circle.Resize")
        assert (resize["line"], resize["column"]) == (6, 16)
        circel = next(d for d in bad["diagnostics"] if d["code"] == "UNKNOWN_TYPE")
        assert circel["suggestions"] == ["Geometry.Shapes.Circle"]
        assert bad["compile"]["ran"] and not bad["compile"]["compiled"]
        assert {e["code"] for e in bad["compile"]["errors"]} >= {"CS1061", "CS1729"}
        sub = await _call(client, "check_code", code=SUBCLASS, compile=False)
        assert sub["unknown"] == ["Geometry.Shapes.Shape.Rotate"]  # MoveTo is the base type's
        assert "not asked" in sub["compile"]["reason"]

    _serve(snapshot, body)


NULL_CONDITIONAL = """using Geometry.Shapes;
class Demo {
    static void Main() {
        Canvas canvas = new Canvas(640, 480);
        int w = canvas?.Width ?? 0;
        canvas?.Clear();
        var first = canvas?.Find<Circle>();
        first?.MoveTo(1, 2);
        first?.Spin();
    }
}
"""


def test_check_code_follows_null_conditional_access(snapshot: Path) -> None:
    async def body(client: Client) -> None:
        found = await _call(client, "check_code", code=NULL_CONDITIONAL, compile=False)
        assert found["unknown"] == ["Geometry.Shapes.Canvas.Clear"], found  # Find<T>'s result type is unknown
        clear = found["diagnostics"][0]
        assert (clear["line"], clear["column"], clear["code"]) == (6, 17, "UNKNOWN_MEMBER")

    _serve(snapshot, body)
