"""Bank HTML source: pages and folders that are symlinks are read only when they stay inside the docs."""

from __future__ import annotations

from pathlib import Path

from apiatlas.errors import ReasonCode
from apiatlas.sources.bank_html import load_bank_docs
from test_source_bank_html import SERVICES, api_page, build_docs, codes_at


def test_a_page_linked_from_outside_is_not_read_and_one_linked_from_inside_is(tmp_path: Path) -> None:
    docs, outside = tmp_path / "docs", tmp_path / "elsewhere"
    build_docs(docs)
    outside.mkdir()
    (outside / "API_Out_Get.htm").write_bytes(api_page("API_Out_Get", ("Prs", "Person")).encode("cp1251"))
    (docs / SERVICES / "API_Out_Get.htm").symlink_to(outside / "API_Out_Get.htm")
    (docs / SERVICES / "API_Prs_Alias.htm").symlink_to(docs / SERVICES / "API_Prs_FindListByFIO.htm")

    catalog = load_bank_docs(docs)

    [outside_page] = codes_at(catalog, ReasonCode.REF_OUTSIDE_SOURCE)
    assert outside_page.location.file == f"{SERVICES}/API_Out_Get.htm"
    assert "API_Out_Get" not in catalog.apis
    assert f"{SERVICES}/API_Prs_Alias.htm" in catalog.source_files  # read: the link stays inside


def test_every_page_of_a_folder_linked_from_outside_is_not_read(tmp_path: Path) -> None:
    docs, outside = tmp_path / "docs", tmp_path / "elsewhere"
    build_docs(docs)
    (docs / SERVICES).rename(outside)
    (docs / SERVICES).symlink_to(outside, target_is_directory=True)

    catalog = load_bank_docs(docs)

    refused = {d.location.file for d in codes_at(catalog, ReasonCode.REF_OUTSIDE_SOURCE)}
    assert refused and all(file.startswith(f"{SERVICES}/") for file in refused)
    assert {f"{SERVICES}/{p.name}" for p in outside.glob("API_*.htm")} <= refused
    assert not catalog.apis
