""".NET documentation IDs (the keys every XML doc file uses) and the stable entity alias.

``M:Gtk.Window.SetDefaultSize(System.Int32,System.Int32)``: a prefix letter (T, M, P, E, F), the
declaring type's full name (nested types joined with ``.``, generic arity as ```1``), the member
name (``#ctor``, ``#cctor``; generic methods ``Name``2``) and the parameter types in
documentation-ID spelling. The alias ``type::kind::sha1(normalised signature)`` is the key the
source's document uses for entity cards; here the normalised signature is the documentation ID.
"""

from __future__ import annotations

import re

from apiatlas.code.keys import entity_alias, path_of

# C# keywords for the framework's primitive types, both ways
CS_ALIASES = {
    "System.Void": "void",
    "System.Boolean": "bool",
    "System.Char": "char",
    "System.SByte": "sbyte",
    "System.Byte": "byte",
    "System.Int16": "short",
    "System.UInt16": "ushort",
    "System.Int32": "int",
    "System.UInt32": "uint",
    "System.Int64": "long",
    "System.UInt64": "ulong",
    "System.Single": "float",
    "System.Double": "double",
    "System.Decimal": "decimal",
    "System.String": "string",
    "System.Object": "object",
    "System.IntPtr": "IntPtr",
    "System.UIntPtr": "UIntPtr",
}
KEYWORD_TYPES = {cs: full for full, cs in CS_ALIASES.items() if cs[0].islower()}

__all__ = ["entity_alias", "path_of"]


def member_id(prefix: str, owner: str, name: str, param_types: list[str], generic_arity: int = 0) -> str:
    """``M:Owner.Name``2(T1,T2)``; methods without parameters and properties without index have no ()."""
    member = name.replace(".", "#")  # .ctor -> #ctor, explicit interface members
    if generic_arity:
        member += f"``{generic_arity}"
    text = f"{prefix}:{owner}.{member}"
    if param_types:
        text += "(" + ",".join(param_types) + ")"
    return text


def type_id(full_name: str) -> str:
    return f"T:{full_name}"


def display_type(doc_type: str) -> str:
    """A documentation-ID type in C# spelling: ``System.Int32`` -> ``int``, ``System.String[]`` ->
    ``string[]``, ``List{System.Int32}`` -> ``List<int>``."""
    text = re.sub(r"[\w.]+", lambda m: CS_ALIASES.get(m.group(0), m.group(0)), doc_type)
    return text.replace("{", "<").replace("}", ">").replace("@", "")


def cs_to_doc_type(cs_type: str) -> str:
    """A C# type as written (``int``, ``string[]``, ``List<int>``, ``ref int``) in documentation-ID spelling,
    as far as it can be without resolving namespaces: keywords become their framework types."""
    text = cs_type.strip()
    text = re.sub(
        r"\b(int|string|bool|object|char|byte|sbyte|short|ushort|uint|long|ulong|float|double|"
        r"decimal|void)\b",
        lambda m: KEYWORD_TYPES[m.group(0)],
        text,
    )
    text = text.replace("<", "{").replace(">", "}").replace(" ", "")
    if text.endswith("?") and not text.endswith("]?"):
        text = f"System.Nullable{{{text[:-1]}}}"
    return text.rstrip("?")
