"""The source registry: detect the kind of a source folder and load it through its format's loader."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiatlas.errors import ConfigError, ReasonCode, SourceError
from apiatlas.sources import detect_source, load_source, source_kinds

BO_PAGE = (
    '<html><head><meta charset="windows-1251"></head><body><h2>Бизнес-объект Person</h2>'
    "<table><tr><td>Сокращение</td><td>Prs</td></tr><tr><td>Наименование</td><td>Person</td></tr></table>"
    "</body></html>"
)


def make_docs(root: Path) -> Path:
    folder = root / "bobjects"  # folder names are matched case-insensitively
    folder.mkdir(parents=True)
    (folder / "BO_Person.htm").write_bytes(BO_PAGE.encode("cp1251"))
    return root


def test_bank_docs_are_detected_and_loaded(tmp_path: Path) -> None:
    root = make_docs(tmp_path / "docs")
    assert "bank_html" in source_kinds()
    assert detect_source(root) == "bank_html"
    seen: list[tuple[int, int]] = []
    catalog = load_source(root, progress=lambda done, total: seen.append((done, total)))
    assert catalog.source_kind == "bank_html"
    assert list(catalog.objects) == ["Prs"]
    assert catalog.objects["Prs"].name == "Person"
    assert seen == [(1, 1)]


def test_unknown_folder_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as error:
        detect_source(tmp_path)
    assert error.value.code is ReasonCode.BAD_CONFIG
    assert error.value.location.file == str(tmp_path)


def test_unknown_kind_is_a_config_error(tmp_path: Path) -> None:
    root = make_docs(tmp_path / "docs")
    with pytest.raises(ConfigError, match="unknown source kind 'wsdl'"):
        load_source(root, kind="wsdl")


def test_bank_loader_refuses_a_folder_that_is_not_bank_docs(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no BObjects folder"):
        load_source(tmp_path, kind="bank_html")
