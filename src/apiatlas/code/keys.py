""".NET documentation IDs as keys: the parts of ``M:Ns.Type.Member(T1,T2)`` and the stable entity alias.

The alias is the ``type::kind::sha1(normalised signature)`` key of entity cards; here the normalised
signature is the documentation ID itself, so the alias can be checked from the key alone.
"""

from __future__ import annotations

import hashlib
import re

_PARAMS = re.compile(r"\(.*\)(~.*)?$")
KIND_PREFIXES = {"T": "type", "M": "method", "P": "property", "E": "event", "F": "field"}


def entity_alias(doc_id: str, kind: str, owner: str) -> str:
    """``Gtk.Window::method::<sha1 of the documentation ID, 16 hex>``: stable across builds and inputs."""
    digest = hashlib.sha1(doc_id.encode("utf-8")).hexdigest()[:16]
    return f"{owner}::{kind}::{digest}"


def alias_digest(doc_id: str) -> str:
    return hashlib.sha1(doc_id.encode("utf-8")).hexdigest()[:16]


def path_of(doc_id: str) -> str:
    """The documentation ID without its prefix letter and parameter list: ``Gtk.Window.SetDefaultSize``;
    generic arities stay out too (``List`1`` -> ``List``)."""
    body = doc_id[2:] if len(doc_id) > 2 and doc_id[1] == ":" else doc_id
    body = _PARAMS.sub("", body)
    return re.sub(r"`+\d+", "", body)


def param_types(doc_id: str) -> list[str]:
    """The parameter types of a documentation ID (top-level commas only): ``(A,B{C,D})`` -> [A, B{C,D}]."""
    start = doc_id.find("(")
    if start < 0:
        return []
    inner = doc_id[start + 1 : doc_id.rfind(")")]
    parts, depth, current = [], 0, ""
    for char in inner:
        depth += char in "{["
        depth -= char in "}]"
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return [*parts, current] if current else parts


def owner_and_member(doc_id: str) -> tuple[str, str]:
    """``M:Ns.Type.Member(...)`` -> (``Ns.Type``, ``Member``); a type: (its namespace, its name)."""
    path = path_of(doc_id)
    owner, _, member = path.rpartition(".")
    return owner, member
