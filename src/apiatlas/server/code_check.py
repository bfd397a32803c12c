"""``check_code``'s analysis: a C# draft's syntax tree walked against the SDK model — every type, constructor,
method, property, event and field it uses through a type the snapshot has, with the draft's ``using``
namespaces, its own classes (and their base types), and the types of locals, fields and parameters."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from tree_sitter import Node

from apiatlas.code.csharp import TYPE_DECLARATIONS, keyword_type, parameters, parse, text, walk
from apiatlas.server.code_findings import Findings, at
from apiatlas.server.code_model import SdkModel
from apiatlas.server.tools.check_code import CodeDiagnostic

_FUNCTIONS = (
    "method_declaration",
    "constructor_declaration",
    "property_declaration",
    "local_function_statement",
    "accessor_declaration",
    "lambda_expression",
    "anonymous_method_expression",
)


@dataclass
class DraftType:
    """A class the draft declares: its base (resolved), its own member names and its fields' types."""

    name: str
    base: str = ""  # a snapshot type's full name, or another draft type's name, or ""
    members: set[str] = field(default_factory=set)
    fields: dict[str, str] = field(default_factory=dict)


@dataclass
class Typed:
    """What an expression is: a value or a type reference, of a snapshot type, a draft type, or unknown."""

    kind: str  # value | type | namespace | unknown
    full: str = ""
    draft: bool = False


UNKNOWN = Typed("unknown")


_ACCESSES = ("member_access_expression", "conditional_access_expression")


def access_parts(node: Node) -> tuple[Node | None, Node | None]:
    """The object and the member name of ``a.b`` or ``a?.b`` (a null-conditional access binds its member
    in a ``member_binding_expression``); (None, None) for anything else."""
    if node.type == "member_access_expression":
        return node.child_by_field_name("expression"), node.child_by_field_name("name")
    if node.type == "conditional_access_expression" and node.named_children:
        binding = node.named_children[-1]
        if binding.type == "member_binding_expression":
            name = binding.child_by_field_name("name")
            last = binding.named_children[-1] if binding.named_children else None
            return node.named_children[0], name or last
    return None, None


class DraftChecker:
    def __init__(self, model: SdkModel, source: str) -> None:
        self.model = model
        self.tree = parse(source.encode("utf-8"))
        self.root = self.tree.root_node
        self.usings: list[str] = []
        self.namespace = ""
        self.drafts: dict[str, DraftType] = {}
        self.findings = Findings(model)
        self.locals: dict[str, str] = {}  # name -> a snapshot type's full name or a draft type ("" unknown)
        self.current: DraftType | None = None

    # -- the walk ---------------------------------------------------------------------------------
    def run(self) -> None:
        self._syntax_errors()
        for node in walk(self.root):
            if node.type == "using_directive" and node.named_children:
                self.usings.append(text(node.named_children[-1]))
            elif node.type in ("namespace_declaration", "file_scoped_namespace_declaration"):
                self.namespace = self.namespace or text(node.child_by_field_name("name"))
        for node in walk(self.root):
            if node.type in TYPE_DECLARATIONS:
                self._declare(node)
        for node in walk(self.root):
            if node.type in TYPE_DECLARATIONS and node.type != "delegate_declaration":
                self._check_type(node)
        globals_ = [n for n in self.root.named_children if n.type == "global_statement"]
        if globals_:
            self.current, self.locals = None, {}
            for statement in globals_:
                self._collect_locals(statement)
            for statement in globals_:
                self._visit(statement)

    def _syntax_errors(self) -> None:
        if not self.root.has_error:
            return
        for node in walk(self.root):
            if node.type == "ERROR" or node.is_missing:
                line, column = at(node)
                what = f"missing {node.type}" if node.is_missing else f"cannot parse '{text(node)[:40]}'"
                self.findings.diagnostics.append(
                    CodeDiagnostic(code="SYNTAX_ERROR", message=what, line=line, column=column)
                )

    def _declare(self, node: Node) -> None:
        name = text(node.child_by_field_name("name"))
        draft = DraftType(name)
        bases = [c for c in node.named_children if c.type == "base_list"]
        if bases and bases[0].named_children:
            first = text(bases[0].named_children[0]).split("<")[0]
            resolved = self.resolve_type(first, report_at=bases[0].named_children[0])
            draft.base = resolved.full if resolved.kind == "type" else ""
        body = node.child_by_field_name("body")
        for child in body.named_children if body is not None else []:
            member_name = child.child_by_field_name("name")
            if member_name is not None:
                draft.members.add(text(member_name))
            declaration = next((c for c in child.named_children if c.type == "variable_declaration"), None)
            if declaration is not None:
                written = text(declaration.child_by_field_name("type"))
                for declarator in declaration.named_children:
                    if declarator.type == "variable_declarator":
                        field_name = text(
                            declarator.child_by_field_name("name") or declarator.named_children[0]
                        )
                        draft.members.add(field_name)
                        draft.fields[field_name] = self._type_of_written(written, declaration)
        self.drafts[name] = draft

    def _check_type(self, node: Node) -> None:
        self.current = self.drafts.get(text(node.child_by_field_name("name")))
        body = node.child_by_field_name("body")
        for child in body.named_children if body is not None else []:
            if child.type in TYPE_DECLARATIONS:
                continue
            self.locals = dict(self.current.fields) if self.current else {}
            for p in parameters(child.child_by_field_name("parameters")):
                self.locals[p.name] = self._type_of_written(p.type, child, report=True)
            self._collect_locals(child)
            if child.type == "constructor_declaration":
                initializer = next(
                    (c for c in child.named_children if c.type == "constructor_initializer"), None
                )
                if initializer is not None:
                    self._check_base_constructor(initializer)
            for sub in child.named_children:
                if sub.type not in ("parameter_list", "variable_declaration", "constructor_initializer"):
                    self._visit(sub)

    def _collect_locals(self, node: Node) -> None:
        """Every local of a body, typed by its declaration (``var`` by its initializer), in source order."""
        for sub in walk(node):
            if sub.type == "variable_declaration":
                written_node = sub.child_by_field_name("type")
                for declarator in (c for c in sub.named_children if c.type == "variable_declarator"):
                    name = text(declarator.child_by_field_name("name") or declarator.named_children[0])
                    if written_node is not None and written_node.type != "implicit_type":
                        self.locals[name] = self._type_of_written(text(written_node), sub, report=True)
                    else:
                        value = declarator.named_children[-1] if len(declarator.named_children) > 1 else None
                        typed = self.expr_type(value) if value is not None else UNKNOWN
                        self.locals[name] = typed.full if typed.kind == "value" else ""
            elif sub.type in ("foreach_statement", "catch_declaration", "declaration_pattern"):
                declared = sub.child_by_field_name("type")
                named = sub.child_by_field_name("left") or sub.child_by_field_name("name")
                if declared is not None and named is not None and declared.type != "implicit_type":
                    self.locals[text(named)] = self._type_of_written(text(declared), sub)
            elif sub.type == "lambda_expression":
                for p in walk(sub):
                    if p.type == "parameter" and p.child_by_field_name("name") is not None:
                        written = p.child_by_field_name("type")
                        self.locals[text(p.child_by_field_name("name"))] = (
                            self._type_of_written(text(written), p) if written is not None else ""
                        )

    def _type_of_written(self, written: str, at: Node, report: bool = False) -> str:
        resolved = self.resolve_type(written.split("<")[0].rstrip("?[]"), report_at=at if report else None)
        return resolved.full if resolved.kind == "type" else ""

    def _visit(self, node: Node) -> None:
        kind = node.type
        if kind == "invocation_expression":
            function = node.child_by_field_name("function")
            count = self._argument_count(node.child_by_field_name("arguments"))
            if function is not None and function.type in _ACCESSES:
                self._check_member(function, count)
                self._visit(access_parts(function)[0] or function)
            elif function is not None and function.type == "identifier":
                self._check_implicit(function, count)
            self._visit_children(node.child_by_field_name("arguments"))
            return
        if kind in _ACCESSES:
            self._check_member(node, None)
            inner = access_parts(node)[0]
            if inner is not None:
                self._visit(inner)
            return
        if kind == "object_creation_expression":
            self._check_creation(node)
        self._visit_children(node)

    def _visit_children(self, node: Node | None) -> None:
        for child in node.named_children if node is not None else []:
            self._visit(child)

    @staticmethod
    def _argument_count(arguments: Node | None) -> int:
        return (
            len([c for c in arguments.named_children if c.type == "argument"]) if arguments is not None else 0
        )

    # -- types ------------------------------------------------------------------------------------
    def resolve_type(self, written: str, report_at: Node | None = None) -> Typed:
        """A type name as written, through the draft's classes, its namespace and ``using`` namespaces."""
        written = written.replace(" ", "").replace("global::", "")
        if not written or keyword_type(written):
            return UNKNOWN
        if written in self.drafts:
            return Typed("type", written, draft=True)
        for prefix in ["", self.namespace, *self.usings]:
            full = f"{prefix}.{written}" if prefix else written
            if self.model.has_type(full):
                return Typed("type", full)
        if report_at is not None:
            self._report_unknown_type(written, report_at)
        return UNKNOWN

    def _report_unknown_type(self, written: str, where: Node) -> None:
        """An unresolved name is reported when it claims an SDK namespace (``Gtk.Windw``) or is close to an
        SDK type visible here: otherwise it may be any library's type this snapshot does not hold."""
        head = written.rsplit(".", 1)[0] if "." in written else ""
        visible = [t for t in self.model.type_keys if t.rsplit(".", 1)[0] in [self.namespace, *self.usings]]
        simple = {t.rsplit(".", 1)[-1]: t for t in visible}
        close = difflib.get_close_matches(written.rsplit(".", 1)[-1], list(simple), n=3, cutoff=0.8)
        if not (head and head in self.model.namespaces) and not close:
            return
        suggestions = [simple[c] for c in close]
        self.findings.add("UNKNOWN_TYPE", f"no type {written} in this SDK", written, where, suggestions)

    def expr_type(self, node: Node | None) -> Typed:
        if node is None:
            return UNKNOWN
        kind = node.type
        if kind in ("parenthesized_expression", "checked_expression") and node.named_children:
            return self.expr_type(node.named_children[0])
        if kind == "this_expression" or kind == "this":
            return Typed("value", self.current.name, draft=True) if self.current else UNKNOWN
        if kind == "base_expression" or kind == "base":
            return self._draft_base_value()
        if kind == "identifier":
            return self._identifier(text(node))
        if kind in ("object_creation_expression", "cast_expression"):
            written = text(node.child_by_field_name("type")).split("<")[0]
            found = self.resolve_type(written)
            return Typed("value", found.full, found.draft) if found.kind == "type" else UNKNOWN
        if kind == "as_expression":
            found = self.resolve_type(text(node.child_by_field_name("right")).split("<")[0])
            return Typed("value", found.full, found.draft) if found.kind == "type" else UNKNOWN
        if kind in _ACCESSES:
            return self._member_type(node)
        if kind == "invocation_expression":
            function = node.child_by_field_name("function")
            if function is not None and function.type in _ACCESSES:
                return self._member_type(function, invoked=True)
        return UNKNOWN

    def _draft_base_value(self) -> Typed:
        if self.current is None or not self.current.base:
            return UNKNOWN
        return Typed("value", self.current.base, draft=self.current.base in self.drafts)

    def _identifier(self, name: str) -> Typed:
        if name in self.locals:
            found = self.locals[name]
            return Typed("value", found, draft=found in self.drafts) if found else UNKNOWN
        resolved = self.resolve_type(name)
        if resolved.kind == "type":
            return resolved
        if name in self.model.namespaces:
            return Typed("namespace", name)
        return UNKNOWN

    def _member_type(self, node: Node, invoked: bool = False) -> Typed:
        left_node, name_node = access_parts(node)
        left = self.expr_type(left_node)
        name = text(name_node).split("<")[0]
        if left.kind == "namespace":
            qualified = f"{left.full}.{name}"
            if self.model.has_type(qualified):
                return Typed("type", qualified)
            return Typed("namespace", qualified) if qualified in self.model.namespaces else UNKNOWN
        target = self._snapshot_target(left)
        if not target:
            return UNKNOWN
        overloads, _, _ = self.model.lookup(target, name)
        returns = next((o.returns for o in overloads if o.returns and (invoked or o.kind != "method")), "")
        return Typed("value", returns.split("{")[0]) if returns and self.model.has_type(returns) else UNKNOWN

    def _snapshot_target(self, typed: Typed) -> str:
        """The snapshot type whose members an expression of this type has (a draft class: its SDK base)."""
        if typed.kind not in ("value", "type") or not typed.full:
            return ""
        seen: set[str] = set()
        full, draft = typed.full, typed.draft
        while draft and full in self.drafts and full not in seen:
            seen.add(full)
            full = self.drafts[full].base
            draft = full in self.drafts
        return full if full and self.model.has_type(full) else ""

    # -- members ----------------------------------------------------------------------------------
    def _check_member(self, node: Node, arguments: int | None) -> None:
        left_node, name_node = access_parts(node)
        if left_node is None or name_node is None:
            return
        left = self.expr_type(left_node)
        name = text(name_node).split("<")[0]
        if left.kind == "namespace":  # Gtk.Windw: a type the SDK's namespace does not have
            qualified = f"{left.full}.{name}"
            if not self.model.has_type(qualified) and qualified not in self.model.namespaces:
                self.resolve_type(qualified, report_at=name_node)
            return
        if left.kind == "unknown" and left_node.type == "identifier" and text(left_node)[:1].isupper():
            self.resolve_type(text(left_node), report_at=left_node)  # Windw.Foo(): an unknown type, if close
            return
        if left.draft and self._draft_has(left.full, name):
            return
        target = self._snapshot_target(left)
        if target:
            self.findings.member(target, name, arguments, name_node)

    def _draft_has(self, draft_name: str, member: str) -> bool:
        seen: set[str] = set()
        while draft_name in self.drafts and draft_name not in seen:
            seen.add(draft_name)
            if member in self.drafts[draft_name].members:
                return True
            draft_name = self.drafts[draft_name].base
        return False

    def _check_implicit(self, name_node: Node, arguments: int) -> None:
        """``Foo(...)`` inside a draft class: its own member, or one its SDK base type must have."""
        name = text(name_node)
        if self.current is None or name in self.locals or self._draft_has(self.current.name, name):
            return
        target = self._snapshot_target(Typed("value", self.current.name, draft=True))
        if target:
            self.findings.member(target, name, arguments, name_node)

    def _check_creation(self, node: Node) -> None:
        type_node = node.child_by_field_name("type")
        if type_node is None:
            return
        found = self.resolve_type(text(type_node).split("<")[0], report_at=type_node)
        if found.kind != "type" or found.draft:
            return
        arguments = node.child_by_field_name("arguments")
        count = self._argument_count(arguments)
        info = self.model.type(found.full)
        if info is None or info.kind in ("interface", "delegate", "enum"):
            return
        self.findings.checked += 1
        constructors = [c for c in info.members.get("#ctor", []) if not c.protected]
        symbol = f"{found.full}.#ctor"
        if not constructors and info.kind == "class":
            message = f"{found.full} has no public constructor"
            self.findings.add("UNKNOWN_MEMBER", message, symbol, type_node, [])
        elif constructors and not (info.kind == "struct" and count == 0):
            self.findings.arity(constructors, count, symbol, type_node)
        initializer = next((c for c in node.named_children if c.type == "initializer_expression"), None)
        for assignment in initializer.named_children if initializer is not None else []:
            left = assignment.child_by_field_name("left")
            if assignment.type == "assignment_expression" and left is not None and left.type == "identifier":
                self.findings.member(found.full, text(left), None, left)

    def _check_base_constructor(self, initializer: Node) -> None:
        if self.current is None or not self.current.base or self.current.base in self.drafts:
            return
        info = self.model.type(self.current.base)
        arguments = next((c for c in initializer.named_children if c.type == "argument_list"), None)
        if info is not None and "base" in text(initializer)[:6] and info.members.get("#ctor"):
            count = self._argument_count(arguments)
            self.findings.arity(info.members["#ctor"], count, f"{info.full}.#ctor", initializer)
