"""C# syntax trees with tree-sitter and tree-sitter-c-sharp: one parser, and the small readings the
source reader and ``check_code`` share (text of a node, parameters, modifiers, doc comments)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

import tree_sitter_c_sharp
from tree_sitter import Language, Node, Parser, Tree

TYPE_DECLARATIONS = {
    "class_declaration": "class",
    "struct_declaration": "struct",
    "interface_declaration": "interface",
    "enum_declaration": "enum",
    "record_declaration": "class",
    "record_struct_declaration": "struct",
    "delegate_declaration": "delegate",
}


@lru_cache(maxsize=1)
def csharp() -> Language:
    return Language(tree_sitter_c_sharp.language())


def parse(source: bytes) -> Tree:
    return Parser(csharp()).parse(source)


def text(node: Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text is not None else ""


def modifiers(node: Node) -> list[str]:
    return [text(c) for c in node.children if c.type == "modifier"]


def visibility(mods: list[str], default: str = "private") -> str:
    if "public" in mods:
        return "public"
    if "protected" in mods:
        return "protected"
    if "internal" in mods:
        return "internal"
    return "private" if "private" in mods else default


@dataclass
class SyntaxParameter:
    name: str
    type: str  # as written: int, List<int>, string[]
    modifier: str  # ref | out | in | params | this | ""
    optional: bool


def parameters(node: Node | None) -> list[SyntaxParameter]:
    """A ``parameter_list`` / ``bracketed_parameter_list`` (the grammar lays a ``params T[] x`` out flat)."""
    out: list[SyntaxParameter] = []
    if node is None:
        return out
    pending_type = ""
    for i, child in enumerate(node.children):
        field = node.field_name_for_child(i)
        if child.type == "parameter":
            mods = [text(c) for c in child.children if c.type == "modifier"]
            optional = any(
                c.type == "equals_value_clause"
                or (c.is_named and c.type.endswith("literal"))
                or c.type == "default_expression"
                for c in child.children
            )
            out.append(
                SyntaxParameter(
                    text(child.child_by_field_name("name")),
                    text(child.child_by_field_name("type")),
                    mods[0] if mods else "",
                    optional,
                )
            )
        elif field == "type":
            pending_type = text(child)
        elif field == "name" and pending_type:
            out.append(SyntaxParameter(text(child), pending_type, "params", True))
            pending_type = ""
    return out


def doc_comment(node: Node) -> str:
    """The ``///`` lines right above a declaration, as the XML they hold."""
    lines: list[str] = []
    sibling = node.prev_sibling
    while sibling is not None and sibling.type == "comment" and text(sibling).startswith("///"):
        lines.insert(0, text(sibling)[3:])
        sibling = sibling.prev_sibling
    return "\n".join(lines)


def walk(node: Node) -> Iterator[Node]:
    """Every named node under ``node``, depth first."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.named_children))


def call_name(invocation: Node) -> str:
    """``a.B.C(...)`` -> ``a.B.C``; ``F<T>(...)`` -> ``F``."""
    function = invocation.child_by_field_name("function")
    if function is None:
        return ""
    if function.type == "generic_name":
        return text(function.named_children[0]) if function.named_children else ""
    return text(function).split("<")[0].replace(" ", "").replace("\n", "")


# C#'s built-in type keywords (and ``var``/``dynamic``): never an SDK's type
KEYWORD_TYPES = frozenset(
    {
        "bool",
        "byte",
        "sbyte",
        "char",
        "decimal",
        "double",
        "float",
        "int",
        "uint",
        "long",
        "ulong",
        "short",
        "ushort",
        "object",
        "string",
        "void",
        "var",
        "dynamic",
        "nint",
        "nuint",
    }
)


def keyword_type(name: str) -> bool:
    return name in KEYWORD_TYPES
