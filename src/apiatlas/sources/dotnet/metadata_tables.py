"""A .NET assembly's image opened with dnfile (only its CLI header parsed), its metadata tables' rows,
and a member's visibility read from its flags."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import dnfile
import pefile

from apiatlas.errors import ConfigError, Location

_COM_DESCRIPTOR = pefile.DIRECTORY_ENTRY["IMAGE_DIRECTORY_ENTRY_COM_DESCRIPTOR"]


def open_assembly(path: Path) -> Any:
    """The dnfile image of ``path`` (only its CLI header parsed); ConfigError when it is no .NET assembly."""
    try:
        pe = dnfile.dnPE(str(path), fast_load=True)  # type: ignore[no-untyped-call]
        pe.parse_data_directories(directories=[_COM_DESCRIPTOR])  # type: ignore[no-untyped-call]
    except (pefile.PEFormatError, OSError) as exc:
        raise ConfigError(f"not a readable PE file: {exc}", location=Location(file=str(path))) from exc
    if pe.net is None or pe.net.mdtables is None or pe.net.mdtables.TypeDef is None:
        raise ConfigError("not a .NET assembly (no CLI metadata)", location=Location(file=str(path)))
    return pe


def is_assembly(path: Path) -> bool:
    if path.suffix.lower() not in (".dll", ".exe"):
        return False
    with path.open("rb") as handle:
        return handle.read(2) == b"MZ"


def table_rows(table: Any) -> list[Any]:
    return list(table.rows) if table is not None else []


def member_visibility(flags: Any, prefix: str) -> str:
    if getattr(flags, f"{prefix}Public"):
        return "public"
    if getattr(flags, f"{prefix}Family") or getattr(flags, f"{prefix}FamORAssem"):
        return "protected"
    if getattr(flags, f"{prefix}Assem", False) or getattr(flags, f"{prefix}Assembly", False):
        return "internal"
    return "private"
