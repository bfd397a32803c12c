"""ECMA / monodoc documentation: a ``.zip`` of per-type XML files (``<Type>``, ``<Members>``, ``<Docs>``)
with a ``.tree`` index next to it, as Mono's documentation packages ship it.

Each type file names itself (``FullName``) and its members (``MemberName``, ``MemberType``, parameter
types), so the documentation IDs are built from the files; the binary ``.tree`` index is hashed into
the manifest with the archive but not needed to read it.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

from apiatlas.errors import ConfigError, Location
from apiatlas.sources.dotnet.doc_text import member_docs
from apiatlas.sources.dotnet.docids import display_type, member_id, type_id
from apiatlas.sources.dotnet.model import Member, Parameter

_KINDS = {
    "Constructor": "constructor",
    "Method": "method",
    "Property": "property",
    "Event": "event",
    "Field": "field",
}
_PREFIX = {"constructor": "M", "method": "M", "property": "P", "event": "E", "field": "F"}
_BASE_KINDS = {
    "System.Enum": "enum",
    "System.ValueType": "struct",
    "System.MulticastDelegate": "delegate",
    "System.Delegate": "delegate",
}


def is_ecma_archive(path: Path) -> bool:
    """A ``.zip`` with a ``.tree`` index of the same base name next to it."""
    return path.suffix.lower() == ".zip" and path.with_suffix(".tree").is_file()


def doc_type(ecma: str, type_params: list[str], method_params: list[str]) -> str:
    """An ECMA parameter type (``System.Int32&``, ``T[]``, ``List<System.String>``, ``Outer+Inner``) in
    documentation-ID spelling (``System.Int32@``, ```0[]``, ``List{System.String}``, ``Outer.Inner``)."""

    def name(match: re.Match[str]) -> str:
        word = match.group(0)
        if word in method_params:
            return f"``{method_params.index(word)}"
        if word in type_params:
            return f"`{type_params.index(word)}"
        return word

    text = re.sub(r"[\w.+`]+", name, ecma.replace(" ", ""))
    return text.replace("&", "@").replace("<", "{").replace(">", "}").replace("+", ".")


def read_ecma_archive(path: Path, relative: str) -> list[Member]:
    """Every type and member documented in the archive."""
    try:
        archive = zipfile.ZipFile(path)
    except zipfile.BadZipFile as exc:
        raise ConfigError(f"not a zip archive: {exc}", location=Location(file=str(path))) from exc
    out: list[Member] = []
    with archive:
        for entry in archive.namelist():
            data = archive.read(entry)
            if b"<Type " not in data[:400]:
                continue  # the namespace summaries
            try:
                root = ET.fromstring(data)
            except ET.ParseError as exc:
                raise ConfigError(f"{entry}: {exc}", location=Location(file=f"{path}!{entry}")) from exc
            out += _type_members(root, f"{relative}!{entry}")
    return out


def _type_members(root: ET.Element, origin: str) -> list[Member]:
    full = root.get("FullName", "").replace("+", ".")
    type_params = [p.get("Name", "") for p in root.findall("TypeParameters/TypeParameter")]
    if type_params and "`" not in full:
        full = re.sub(r"<.*>$", "", full) + f"`{len(type_params)}"
    signature = _cs_signature(root.findall("TypeSignature"))
    base = root.findtext("Base/BaseTypeName", "") or ""
    kind = _BASE_KINDS.get(base, "")
    if not kind:
        kind = next(
            (k for k in ("interface", "struct", "enum", "delegate") if f" {k} " in f" {signature} "), "class"
        )
    namespace = full.rsplit(".", 1)[0] if "." in full else ""
    name = root.get("Name", "").split("+")[-1].split("<")[0].split("`")[0]
    kind_member = Member(
        doc_id=type_id(full),
        kind=kind,
        namespace=namespace,
        name=name,
        signature=signature,
        base_type=base,
        interfaces=[i.findtext("InterfaceName", "") or "" for i in root.findall("Interfaces/Interface")],
        generic_params=type_params,
        docs=member_docs(root.find("Docs")),
        inputs=[origin],
        assembly=root.findtext("AssemblyInfo/AssemblyName", "") or "",
    )
    out = [kind_member]
    for element in root.findall("Members/Member"):
        member = _member(element, full, type_params, origin)
        if member is not None:
            member.namespace = namespace
            out.append(member)
    return out


def _cs_signature(signatures: list[ET.Element]) -> str:
    for element in signatures:
        if element.get("Language") == "C#":
            return element.get("Value", "")
    return ""


def _member(element: ET.Element, owner: str, type_params: list[str], origin: str) -> Member | None:
    kind = _KINDS.get(element.findtext("MemberType", "") or "")
    if kind is None:
        return None
    name = element.get("MemberName", "")
    method_params = [p.get("Name", "") for p in element.findall("TypeParameters/TypeParameter")]
    bare = name.split("<")[0]
    params = [
        Parameter(
            name=p.get("Name", ""),
            type=doc_type(p.get("Type", ""), type_params, method_params),
            display=display_type(doc_type(p.get("Type", ""), type_params, method_params)),
            modifier=p.get("RefType", "") or "",
        )
        for p in element.findall("Parameters/Parameter")
    ]
    returns = doc_type(element.findtext("ReturnValue/ReturnType", "") or "", type_params, method_params)
    returns = "" if returns == "System.Void" else returns
    doc_id = member_id(_PREFIX[kind], owner, bare, [p.type for p in params], len(method_params))
    if bare in ("op_Implicit", "op_Explicit"):
        doc_id += "~" + returns
    signature = _cs_signature(element.findall("MemberSignature"))
    docs = member_docs(element.find("Docs"))
    for p in params:
        p.doc = docs.params.get(p.name, "")
    return Member(
        doc_id=doc_id,
        kind=kind,
        declaring_type=owner,
        name=bare.replace(".", "#"),
        params=params,
        returns=returns,
        returns_display=display_type(returns) if returns else "",
        signature=signature,
        static=" static " in f" {signature} " or " const " in f" {signature} ",
        generic_params=method_params,
        docs=docs,
        inputs=[origin],
        visibility="protected" if signature.startswith("protected") else "public",
    )
