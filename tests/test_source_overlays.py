"""Overlay files: sections into Overlay objects, dependency lines into declared sources, bad lines located."""

from __future__ import annotations

from pathlib import Path

from apiatlas.catalog.model import DeclaredSource
from apiatlas.errors import ReasonCode, Severity
from apiatlas.sources.overlay_files import parse_dependency, read_overlays

GET_REST = """# API_Acc_GetRest

## Когда использовать
- Получение остатка по счёту
- Для определения текущего баланса,
  в том числе на прошлую дату

## Важно
- Принимает AccountID
- Отличие от API_Acc_FindByID: FindByID возвращает справочные данные, GetRest — остаток

## Зависимости
- AccountID ← API_Acc_FindListByListOwnerID.pAPI_Account_List.AccountID
- RestDate <- API_Calendar_GetToday.Today
- это не зависимость
"""


def write_overlays(folder: Path, files: dict[str, bytes]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (folder / name).write_bytes(data)


def test_overlay_sections_become_an_overlay(tmp_path: Path) -> None:
    folder = tmp_path / "overlays"
    write_overlays(folder, {"API_Acc_GetRest.md": GET_REST.encode("utf-8"), "README.txt": b"not an overlay"})
    overlays, found = read_overlays(folder)

    assert list(overlays) == ["API_Acc_GetRest"]
    overlay = overlays["API_Acc_GetRest"]
    assert overlay.when_to_use == [
        "Получение остатка по счёту",
        "Для определения текущего баланса, в том числе на прошлую дату",
    ]
    assert overlay.important[1].startswith("Отличие от API_Acc_FindByID")
    assert overlay.depends_on == [
        DeclaredSource(
            field="AccountID",
            producer_api="API_Acc_FindListByListOwnerID",
            producer_table="pAPI_Account_List",
            producer_field="AccountID",
        ),
        DeclaredSource(field="RestDate", producer_api="API_Calendar_GetToday", producer_field="Today"),
    ]
    assert overlay.source is not None
    assert (overlay.source.file, overlay.source.anchor) == ("overlays/API_Acc_GetRest.md", "API_Acc_GetRest")

    [bad_line] = found
    assert (bad_line.code, bad_line.severity) == (ReasonCode.MALFORMED_PAGE, Severity.WARNING)
    assert (bad_line.location.file, bad_line.location.line) == ("overlays/API_Acc_GetRest.md", 15)
    assert "это не зависимость" in bad_line.message


def test_non_utf8_overlay_is_skipped_and_the_others_are_read(tmp_path: Path) -> None:
    folder = tmp_path / "overlays"
    write_overlays(
        folder,
        {
            "API_A_Get.md": "## Важно\n- Да\n".encode("cp1251"),
            "API_B_Get.md": "## Важно\n- Да\n".encode(),
        },
    )
    overlays, found = read_overlays(folder)

    assert list(overlays) == ["API_B_Get"]
    assert overlays["API_B_Get"].important == ["Да"]
    [error] = found
    assert (error.code, error.severity, error.location.file) == (
        ReasonCode.UNDECODABLE_FILE,
        Severity.ERROR,
        "overlays/API_A_Get.md",
    )


def test_heading_for_another_api_is_reported(tmp_path: Path) -> None:
    folder = tmp_path / "ov"
    write_overlays(
        folder, {"API_A_Get.md": b"# API_B_Get\n## \xd0\x92\xd0\xb0\xd0\xb6\xd0\xbd\xd0\xbe\n- x\n"}
    )
    overlays, found = read_overlays(folder)
    assert overlays["API_A_Get"].important == ["x"]
    [warning] = found
    assert warning.location.line == 1 and "API_B_Get" in warning.message


def test_missing_folder_means_no_overlays(tmp_path: Path) -> None:
    assert read_overlays(tmp_path / "nowhere") == ({}, [])


def test_dependency_line_forms() -> None:
    assert parse_dependency("OwnerID ← API_Prs_FindListByFIO.PersonID (владелец — клиент)") == DeclaredSource(
        field="OwnerID", producer_api="API_Prs_FindListByFIO", producer_field="PersonID"
    )
    assert parse_dependency("`A <- API_X.T.B`") == DeclaredSource(
        field="A", producer_api="API_X", producer_table="T", producer_field="B"
    )
    assert parse_dependency("A ← API_X") is None
    assert parse_dependency("A = API_X.B") is None
