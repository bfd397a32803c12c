"""What a C# declaration says as it is written: its one-line head, its ``///`` doc comment, the lines it
spans (doc comment included) and the metadata name of an operator it declares."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from tree_sitter import Node

from apiatlas.code.csharp import doc_comment, text
from apiatlas.sources.dotnet.doc_text import member_docs
from apiatlas.sources.dotnet.model import MemberDocs, SourceSpan

OPERATOR_NAMES = {
    "+": "op_Addition",
    "-": "op_Subtraction",
    "*": "op_Multiply",
    "/": "op_Division",
    "==": "op_Equality",
    "!=": "op_Inequality",
    "<": "op_LessThan",
    ">": "op_GreaterThan",
    "<=": "op_LessThanOrEqual",
    ">=": "op_GreaterThanOrEqual",
    "!": "op_LogicalNot",
    "%": "op_Modulus",
    "true": "op_True",
    "false": "op_False",
    "&": "op_BitwiseAnd",
    "|": "op_BitwiseOr",
    "^": "op_ExclusiveOr",
    "~": "op_OnesComplement",
    "<<": "op_LeftShift",
    ">>": "op_RightShift",
    "++": "op_Increment",
    "--": "op_Decrement",
}  # the metadata names ECMA-335 gives C#'s overloadable operators (what an assembly's methods are called)


def operator_name(symbol: str, arity: int) -> str:
    """The metadata name of the operator ``symbol`` declared with ``arity`` parameters."""
    if arity == 1 and symbol in ("+", "-"):
        return "op_UnaryPlus" if symbol == "+" else "op_UnaryNegation"
    return OPERATOR_NAMES.get(symbol, "op_" + symbol)


def declaration_head(node: Node) -> str:
    """The declaration as written, without attributes, body or initializer, on one line."""
    start = next((c.start_byte for c in node.children if c.type != "attribute_list"), node.start_byte)
    source = node.text or b""
    written = source[start - node.start_byte :].decode("utf-8", "replace")
    written = re.split(r"\{|=>|;", written, maxsplit=1)[0]
    return re.sub(r"\s+", " ", written).strip()


def first_child(node: Node, kind: str) -> Node | None:
    return next((c for c in node.named_children if c.type == kind), None)


def declaration_docs(node: Node) -> MemberDocs:
    comment = doc_comment(node)
    if not comment.strip():
        return MemberDocs()
    try:
        return member_docs(ET.fromstring(f"<member>{comment}</member>"))
    except ET.ParseError:
        return MemberDocs(summary=re.sub(r"<[^>]+>", "", comment).strip())


def declaration_span(file: str, node: Node) -> SourceSpan:
    start = node.start_point[0] + 1
    sibling = node.prev_sibling
    while sibling is not None and sibling.type == "comment" and text(sibling).startswith("///"):
        start = sibling.start_point[0] + 1
        sibling = sibling.prev_sibling
    return SourceSpan(file=file, start_line=start, end_line=node.end_point[0] + 1)
