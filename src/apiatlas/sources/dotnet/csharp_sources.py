"""C# sources (a folder of ``.cs``, original or decompiled) read with tree-sitter: every type and member
with its signature, ``///`` doc comment, file and line span, and the facts of its body."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tree_sitter import Node

from apiatlas.code.csharp import (
    TYPE_DECLARATIONS,
    call_name,
    modifiers,
    parameters,
    parse,
    text,
    visibility,
    walk,
)
from apiatlas.sources.dotnet.csharp_declarations import (
    declaration_docs,
    declaration_head,
    declaration_span,
    first_child,
    operator_name,
)
from apiatlas.sources.dotnet.docids import KEYWORD_TYPES, display_type, member_id, type_id
from apiatlas.sources.dotnet.model import BodyFacts, Member, MemberDocs, Parameter

_MEMBER_NODES = {
    "method_declaration": "method",
    "constructor_declaration": "constructor",
    "property_declaration": "property",
    "indexer_declaration": "property",
    "event_field_declaration": "event",
    "event_declaration": "event",
    "field_declaration": "field",
    "operator_declaration": "method",
    "conversion_operator_declaration": "method",
}
_INTERFACE_NAME = re.compile(r"^I[A-Z]")
_VALUE_KEYWORDS = {full for cs, full in KEYWORD_TYPES.items() if cs not in ("string", "object", "void")}


@dataclass
class _Scope:
    file: str
    namespace: str
    usings: list[str]
    owner: str = ""  # full name of the enclosing type
    type_params: list[str] = field(default_factory=list)


@dataclass
class SourceSet:
    """The parsed files of one source folder and the full names of the types they declare."""

    root: Path
    trees: dict[str, tuple[bytes, Node]] = field(default_factory=dict)
    declared: dict[str, list[str]] = field(default_factory=dict)  # simple name (with `n) -> full names
    value_types: set[str] = field(default_factory=set)  # declared structs and enums (T? is Nullable{T})
    interfaces: set[str] = field(default_factory=set)

    def is_interface(self, full: str) -> bool:
        """A declared interface, or a type from elsewhere named as .NET names interfaces (``IDisposable``)."""
        bare = full.split("{", 1)[0].rsplit(".", 1)[-1]
        declared = full.split("{", 1)[0] in {d for names in self.declared.values() for d in names}
        return full in self.interfaces or (not declared and _INTERFACE_NAME.match(bare) is not None)


def read_sources(root: Path, files: list[Path], *, include_internal: bool = False) -> list[Member]:
    """Every type and member declared in ``files`` (relative spans under ``root``)."""
    sources = SourceSet(root)
    for path in files:
        data = path.read_bytes()
        sources.trees[path.relative_to(root).as_posix()] = (data, parse(data).root_node)
    for rel, (_, tree) in sources.trees.items():
        _collect_types(sources, tree, _Scope(rel, "", []))
    out: list[Member] = []
    for rel, (_, tree) in sources.trees.items():
        out += _declarations(sources, tree, _Scope(rel, "", _usings(tree)), include_internal)
    return out


def _usings(tree: Node) -> list[str]:
    return [
        text(c.named_children[-1]) for c in walk(tree) if c.type == "using_directive" and c.named_children
    ]


def _type_name(node: Node) -> str:
    name = text(node.child_by_field_name("name"))
    params = node.child_by_field_name("type_parameters")
    count = len([c for c in params.named_children if c.type == "type_parameter"]) if params is not None else 0
    return f"{name}`{count}" if count else name


def _collect_types(sources: SourceSet, node: Node, scope: _Scope) -> None:
    for child in node.named_children:
        if child.type in ("namespace_declaration", "file_scoped_namespace_declaration"):
            inner = _join(scope.namespace, text(child.child_by_field_name("name")))
            _collect_types(sources, child.child_by_field_name("body") or child, _Scope(scope.file, inner, []))
        elif child.type in TYPE_DECLARATIONS:
            full = _join(scope.owner or scope.namespace, _type_name(child))
            sources.declared.setdefault(_type_name(child), []).append(full)
            if TYPE_DECLARATIONS[child.type] in ("struct", "enum"):
                sources.value_types.add(full)
            if TYPE_DECLARATIONS[child.type] == "interface":
                sources.interfaces.add(full)
            body = child.child_by_field_name("body")
            if body is not None:
                _collect_types(sources, body, _Scope(scope.file, scope.namespace, [], owner=full))
        elif child.type == "declaration_list":
            _collect_types(sources, child, scope)


def _join(a: str, b: str) -> str:
    return f"{a}.{b}" if a and b else a or b


def resolve(sources: SourceSet, written: str, scope: _Scope, method_params: list[str]) -> str:
    """A type as written in ``scope`` in documentation-ID spelling, resolved against the declared types."""
    written = written.replace(" ", "")
    if written.endswith("?"):  # a nullable value type; a nullable reference is the type itself
        inner = resolve(sources, written[:-1], scope, method_params)
        value = inner in sources.value_types or inner in _VALUE_KEYWORDS
        return "System.Nullable{" + inner + "}" if value else inner
    if written.endswith("]"):
        head, _, rank = written.partition("[")
        return resolve(sources, head, scope, method_params) + "[" + rank
    if "<" in written:
        head, _, args = written.partition("<")
        parts = _split_args(args[:-1])
        base = resolve(sources, f"{head}`{len(parts)}", scope, method_params).split("`")[0]
        return base + "{" + ",".join(resolve(sources, p, scope, method_params) for p in parts) + "}"
    if written in KEYWORD_TYPES:
        return KEYWORD_TYPES[written]
    if written in method_params:
        return f"``{method_params.index(written)}"
    if written in scope.type_params:
        return f"`{scope.type_params.index(written)}"
    for full in sources.declared.get(written.rsplit(".", 1)[-1], []):
        if full.endswith(written) and (full == written or _visible_from(full, scope)):
            return full
    return written


def _visible_from(full: str, scope: _Scope) -> bool:
    namespace = full.rsplit(".", 1)[0]
    return (
        namespace in scope.usings
        or scope.namespace.startswith(namespace)
        or scope.owner.startswith(namespace)
    )


def _split_args(args: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for char in args:
        depth += char == "<"
        depth -= char == ">"
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return [*parts, current] if current else parts


def _declarations(sources: SourceSet, node: Node, scope: _Scope, include_internal: bool) -> list[Member]:
    out: list[Member] = []
    for child in node.named_children:
        if child.type in ("namespace_declaration", "file_scoped_namespace_declaration"):
            inner = _join(scope.namespace, text(child.child_by_field_name("name")))
            usings = scope.usings + _usings(child)
            body = child.child_by_field_name("body") or child
            out += _declarations(sources, body, _Scope(scope.file, inner, usings), include_internal)
        elif child.type in TYPE_DECLARATIONS:
            out += _type(sources, child, scope, include_internal)
        elif child.type == "declaration_list":
            out += _declarations(sources, child, scope, include_internal)
    return out


def _kept(mods: list[str], include_internal: bool, default: str = "private") -> str | None:
    shown = visibility(mods, default)
    return shown if include_internal or shown in ("public", "protected") else None


def _type(sources: SourceSet, node: Node, scope: _Scope, include_internal: bool) -> list[Member]:
    mods = modifiers(node)
    default = "private" if scope.owner else "internal"
    shown = _kept(mods, include_internal, default)
    if shown is None:
        return []
    full = _join(scope.owner or scope.namespace, _type_name(node))
    params = node.child_by_field_name("type_parameters")
    type_params = [
        text(c.child_by_field_name("name") or c) for c in (params.named_children if params else [])
    ]
    inner = _Scope(
        scope.file, scope.namespace, scope.usings, owner=full, type_params=scope.type_params + type_params
    )
    bases = [resolve(sources, text(c), inner, []) for c in (_base_list(node) or [])]
    kind = TYPE_DECLARATIONS[node.type]
    base_type = bases[0] if bases and kind == "class" and not sources.is_interface(bases[0]) else ""
    interfaces = [b for b in bases if b != base_type]
    head = declaration_head(node)
    member = Member(
        doc_id=type_id(full),
        kind=kind,
        namespace=scope.namespace,
        name=text(node.child_by_field_name("name")),
        declaring_type=scope.owner,
        generic_params=type_params,
        visibility=shown,
        static="static" in mods,
        abstract="abstract" in mods,
        base_type=base_type,
        interfaces=interfaces,
        signature=head,
        docs=declaration_docs(node),
        source=declaration_span(scope.file, node),
        inputs=[scope.file],
    )
    out = [member]
    body = node.child_by_field_name("body")
    for child in body.named_children if body is not None else []:
        if child.type in TYPE_DECLARATIONS:
            out += _type(sources, child, inner, include_internal)
        elif child.type in _MEMBER_NODES:
            out += _members(sources, child, inner, kind, include_internal)
        elif child.type == "enum_member_declaration":
            name = text(child.child_by_field_name("name"))
            out.append(
                Member(
                    doc_id=f"F:{full}.{name}",
                    kind="field",
                    namespace=scope.namespace,
                    declaring_type=full,
                    name=name,
                    returns=full,
                    static=True,
                    signature=text(child),
                    docs=declaration_docs(child),
                    source=declaration_span(scope.file, child),
                    inputs=[scope.file],
                )
            )
    return out


def _base_list(node: Node) -> list[Node] | None:
    for child in node.named_children:
        if child.type == "base_list":
            return [c for c in child.named_children if c.type != "argument_list"]
    return None


def _members(
    sources: SourceSet, node: Node, scope: _Scope, owner_kind: str, include_internal: bool
) -> list[Member]:
    mods = modifiers(node)
    shown = _kept(mods, include_internal, "public" if owner_kind == "interface" else "private")
    explicit = node.child_by_field_name("explicit_interface_specifier") is not None
    if shown is None and not explicit:
        return []
    kind = _MEMBER_NODES[node.type]
    base: dict[str, Any] = dict(
        namespace=scope.namespace,
        declaring_type=scope.owner,
        visibility=shown or "public",
        static="static" in mods or "const" in mods,
        abstract="abstract" in mods,
        virtual="virtual" in mods,
        docs=declaration_docs(node),
        source=declaration_span(scope.file, node),
        inputs=[scope.file],
        facts=_facts(node, sources, scope),
    )
    head = declaration_head(node)
    if kind in ("field", "event") and node.child_by_field_name("name") is None:
        declaration = next((c for c in node.named_children if c.type == "variable_declaration"), None)
        if declaration is None:
            return []
        written = text(declaration.child_by_field_name("type"))
        field_type = resolve(sources, written, scope, [])
        return [
            Member(
                doc_id=f"{'F' if kind == 'field' else 'E'}:{scope.owner}."
                + text(v.child_by_field_name("name") or v.named_children[0]),
                kind=kind,
                name=text(v.child_by_field_name("name") or v.named_children[0]),
                returns=field_type,
                returns_display=display_type(field_type),
                signature=head.rstrip(";") + ";",
                **base,
            )
            for v in declaration.named_children
            if v.type == "variable_declarator"
        ]
    return [_callable(sources, node, scope, kind, head, base)]


def _callable(
    sources: SourceSet, node: Node, scope: _Scope, kind: str, head: str, base: dict[str, Any]
) -> Member:
    generics_node = node.child_by_field_name("type_parameters")
    generics = [
        text(c.child_by_field_name("name") or c)
        for c in (generics_node.named_children if generics_node else [])
    ]
    written = parameters(
        node.child_by_field_name("parameters") or first_child(node, "bracketed_parameter_list")
    )
    params = []
    for p in written:
        doc_type = resolve(sources, p.type, scope, generics) + (
            "@" if p.modifier in ("ref", "out", "in") else ""
        )
        params.append(
            Parameter(name=p.name, type=doc_type, display=p.type, modifier=p.modifier, optional=p.optional)
        )
    name = text(node.child_by_field_name("name"))
    if node.type == "constructor_declaration":
        name = "#cctor" if base["static"] else "#ctor"
    elif node.type == "indexer_declaration":
        name = "Item"
    elif node.type == "operator_declaration":
        name = operator_name(text(node.child_by_field_name("operator")), len(params))
    elif node.type == "conversion_operator_declaration":
        name = "op_Implicit" if "implicit" in head else "op_Explicit"
    returns_node = node.child_by_field_name("returns") or node.child_by_field_name("type")
    returns = resolve(sources, text(returns_node), scope, generics) if returns_node is not None else ""
    returns = "" if returns == "System.Void" else returns
    prefix = "P" if kind == "property" else "M"
    doc_id = member_id(prefix, scope.owner, name, [p.type for p in params], len(generics))
    if name in ("op_Implicit", "op_Explicit"):
        doc_id += "~" + returns
    docs: MemberDocs = base["docs"]
    for parameter in params:
        parameter.doc = docs.params.get(parameter.name, "")
    return Member(
        doc_id=doc_id,
        kind=kind,
        name=name,
        params=params,
        returns=returns,
        returns_display=display_type(returns) if returns else "",
        generic_params=generics,
        signature=head,
        **base,
    )


def _facts(node: Node, sources: SourceSet, scope: _Scope) -> BodyFacts:
    facts = BodyFacts()
    body = (
        node.child_by_field_name("body")
        or first_child(node, "arrow_expression_clause")
        or first_child(node, "accessor_list")
    )
    if body is None:
        return facts
    for child in walk(body):
        if child.type == "invocation_expression":
            _add(facts.calls, call_name(child))
        elif child.type == "object_creation_expression":
            created = resolve(sources, text(child.child_by_field_name("type")), scope, [])
            _add(facts.creates, created)
            parent = child.parent
            if parent is not None and parent.type in ("throw_statement", "throw_expression"):
                _add(facts.throws, created)
    return facts


def _add(items: list[str], name: str) -> None:
    if name and name not in items and len(items) < 24:
        items.append(name)
