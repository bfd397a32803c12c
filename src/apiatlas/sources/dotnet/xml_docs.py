"""Compiler XML documentation (``csc -doc`` / ``mcs -doc``): ``<doc><members><member name="M:…">``."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from apiatlas.errors import ConfigError, Location
from apiatlas.sources.dotnet.doc_text import member_docs
from apiatlas.sources.dotnet.model import MemberDocs


def is_compiler_doc(path: Path) -> bool:
    if path.suffix.lower() != ".xml":
        return False
    with path.open("rb") as handle:
        head = handle.read(512)
    return b"<doc" in head and (b"<members" in head or b"<assembly" in head)


def read_compiler_docs(path: Path) -> dict[str, MemberDocs]:
    """Documentation ID -> its docs, for every ``<member>`` of the file."""
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as exc:
        line = exc.position[0] if exc.position else None
        raise ConfigError(
            f"not well-formed XML: {exc}", location=Location(file=str(path), line=line)
        ) from exc
    if root.tag != "doc":
        raise ConfigError("a compiler XML doc file has <doc> as its root", location=Location(file=str(path)))
    return {m.get("name", ""): member_docs(m) for m in root.iter("member") if m.get("name")}
