"""Assemblies (``.dll``) read with dnfile: types, constructors, methods, properties, events and fields,
with visibility, static, generic parameters, full signatures, base types and interfaces."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from apiatlas.sources.dotnet.docids import display_type, member_id, type_id
from apiatlas.sources.dotnet.il_facts import BodyReader
from apiatlas.sources.dotnet.metadata_tables import member_visibility, open_assembly, table_rows
from apiatlas.sources.dotnet.model import Member, Parameter
from apiatlas.sources.dotnet.signatures import SignatureError, decode_field, decode_method, decode_type_spec

_SPECIAL_BASES = {"System.Enum": "enum", "System.ValueType": "struct", "System.MulticastDelegate": "delegate"}
_RANK = {"public": 0, "protected": 1, "internal": 2, "private": 3}


_RUNTIME_DELEGATE_MEMBERS = (
    "#ctor",
    "Invoke",
    "BeginInvoke",
    "EndInvoke",
)  # every delegate's, made by the CLI


def _delegate_shape(delegate: Member, methods: list[Member]) -> list[Member]:
    """A delegate type is its ``Invoke`` signature: its card says it; the members the runtime gives every
    delegate (constructor, Invoke, BeginInvoke, EndInvoke) are not cards of their own (``check_code``
    knows them as the CLI's ``System.MulticastDelegate`` members)."""
    invoke = next((m for m in methods if m.name == "Invoke"), None)
    if invoke is not None:
        args = ", ".join(f"{p.display} {p.name}" for p in invoke.params)
        shown = invoke.returns_display or "void"
        delegate.signature = f"public delegate {shown} {delegate.name} ({args});"
        delegate.params, delegate.returns, delegate.returns_display = (
            invoke.params,
            invoke.returns,
            invoke.returns_display,
        )
    return [m for m in methods if m.name not in _RUNTIME_DELEGATE_MEMBERS]


class AssemblyReader:
    """One assembly's metadata as ``Member`` records (public and protected, or every one)."""

    def __init__(self, path: Path, relative: str, *, include_internal: bool = False, facts: bool = True):
        self.path, self.relative, self.include_internal = path, relative, include_internal
        self.pe = open_assembly(path)
        self.md = self.pe.net.mdtables
        self.assembly = str(self.md.Assembly.rows[0].Name) if table_rows(self.md.Assembly) else path.stem
        self._enclosing = {
            r.NestedClass.row_index: r.EnclosingClass.row_index for r in table_rows(self.md.NestedClass)
        }
        self._typedef_names = [self._typedef_name(i) for i in range(1, len(table_rows(self.md.TypeDef)) + 1)]
        self._spec_names: dict[int, str] = {}
        self._owner_generics = self._generic_params()
        self._param_arrays = self._param_array_rows()
        self.body = BodyReader(self) if facts else None

    # -- names -------------------------------------------------------------------------------------
    def _typedef_name(self, index: int) -> str:
        row = self.md.TypeDef.rows[index - 1]
        outer = self._enclosing.get(index)
        if outer is not None:
            return f"{self._typedef_name(outer)}.{row.TypeName}"
        return f"{row.TypeNamespace}.{row.TypeName}" if row.TypeNamespace else str(row.TypeName)

    def typedef_name(self, index: int) -> str:
        return self._typedef_names[index - 1]

    def typeref_name(self, index: int) -> str:
        row = self.md.TypeRef.rows[index - 1]
        scope = row.ResolutionScope
        if scope is not None and scope.table is not None and scope.table.name == "TypeRef":
            return f"{self.typeref_name(scope.row_index)}.{row.TypeName}"
        return f"{row.TypeNamespace}.{row.TypeName}" if row.TypeNamespace else str(row.TypeName)

    def type_name(self, tag: int, index: int) -> str:
        """A TypeDefOrRef token (tag 0 TypeDef, 1 TypeRef, 2 TypeSpec) as a documentation-ID type."""
        if index <= 0:
            return ""
        if tag == 0:
            return self.typedef_name(index)
        if tag == 1:
            return self.typeref_name(index)
        if index not in self._spec_names:
            self._spec_names[index] = "?"  # a self-referencing spec ends here
            blob = self.md.TypeSpec.rows[index - 1].Signature.value
            self._spec_names[index] = decode_type_spec(bytes(blob), self.type_name)
        return self._spec_names[index]

    def coded_type(self, coded: Any) -> str:
        if coded is None or coded.table is None or coded.row_index == 0:
            return ""
        tag = {"TypeDef": 0, "TypeRef": 1, "TypeSpec": 2}.get(coded.table.name)
        return self.type_name(tag, coded.row_index) if tag is not None else ""

    def _generic_params(self) -> dict[tuple[str, int], list[str]]:
        owners: dict[tuple[str, int], list[tuple[int, str]]] = {}
        for row in table_rows(self.md.GenericParam):
            key = (row.Owner.table.name, row.Owner.row_index)
            owners.setdefault(key, []).append((row.Number, str(row.Name)))
        return {k: [n for _, n in sorted(v)] for k, v in owners.items()}

    # -- members -----------------------------------------------------------------------------------
    def members(self) -> list[Member]:
        interfaces: dict[int, list[str]] = {}
        for row in table_rows(self.md.InterfaceImpl):
            interfaces.setdefault(row.Class.row_index, []).append(self.coded_type(row.Interface))
        accessors = {r.Method.row_index: r for r in table_rows(self.md.MethodSemantics)}
        out: list[Member] = []
        for index, row in enumerate(table_rows(self.md.TypeDef), 1):
            if str(row.TypeName) == "<Module>" or not self._visible_type(index):
                continue
            full = self.typedef_name(index)
            kind_member = self._type_member(index, row, full, interfaces.get(index, []))
            methods = self._methods(row, full, accessors)
            if kind_member.kind == "delegate":
                methods = _delegate_shape(kind_member, methods)
            out += [kind_member, *methods]
            out += self._fields(row, full)
        out += self._properties(accessors) + self._events(accessors)
        return out

    def _visible_type(self, index: int) -> bool:
        row = self.md.TypeDef.rows[index - 1]
        flags = row.Flags
        outer = self._enclosing.get(index)
        if outer is None:
            return self.include_internal or bool(flags.tdPublic)
        visible = flags.tdNestedPublic or flags.tdNestedFamily or flags.tdNestedFamORAssem
        return (self.include_internal or bool(visible)) and self._visible_type(outer)

    def _keep(self, visibility: str) -> bool:
        return self.include_internal or visibility in ("public", "protected")

    def _type_member(self, index: int, row: Any, full: str, interfaces: list[str]) -> Member:
        base = self.coded_type(row.Extends)
        kind = "interface" if row.Flags.tdInterface else _SPECIAL_BASES.get(base, "class")
        if kind == "class" and full in ("System.Enum", "System.ValueType"):
            kind = "class"
        generics = self._owner_generics.get(("TypeDef", index), [])
        outer = self._enclosing.get(index)
        namespace = str(self.md.TypeDef.rows[(self._root(index)) - 1].TypeNamespace)
        shown_base = "" if base in ("System.Object", *_SPECIAL_BASES) else base
        heritage = [display_type(t) for t in ([shown_base] if shown_base else []) + interfaces]
        modifiers = "public " + ("abstract " if row.Flags.tdAbstract and kind == "class" else "")
        signature = f"{modifiers}{kind} {row.TypeName}" + (" : " + ", ".join(heritage) if heritage else "")
        return Member(
            doc_id=type_id(full),
            kind=kind,
            namespace=namespace,
            name=str(row.TypeName).split("`")[0],
            declaring_type=self.typedef_name(outer) if outer else "",
            generic_params=generics,
            base_type=base,
            interfaces=interfaces,
            signature=signature,
            assembly=self.assembly,
            abstract=bool(row.Flags.tdAbstract),
            inputs=[self.relative],
        )

    def _root(self, index: int) -> int:
        while index in self._enclosing:
            index = self._enclosing[index]
        return index

    def _methods(self, type_row: Any, full: str, accessors: dict[int, Any]) -> list[Member]:
        out: list[Member] = []
        for ref in type_row.MethodList or []:
            if ref.row_index in accessors:
                continue
            member = self._method(ref.row_index, ref.row, full)
            if member is not None:
                out.append(member)
        return out

    def _method(self, index: int, row: Any, full: str) -> Member | None:
        visibility = member_visibility(row.Flags, "md")
        if not self._keep(visibility):
            return None
        try:
            sig = decode_method(bytes(row.Signature.value), self.type_name)
        except SignatureError:
            return None
        name = str(row.Name)
        kind = "constructor" if name in (".ctor", ".cctor") else "method"
        rows = {p.row.Sequence: p for p in (row.ParamList or [])}
        params = [self._parameter(i, t, rows.get(i + 1)) for i, t in enumerate(sig.params)]
        generics = self._owner_generics.get(("MethodDef", index), [])
        doc_id = member_id("M", full, name, [p.type for p in params], len(generics))
        if name == "op_Implicit" or name == "op_Explicit":
            doc_id += "~" + sig.returns
        static = bool(row.Flags.mdStatic)
        shown = full.rsplit(".", 1)[-1].split("`")[0] if kind == "constructor" else name
        returns = "" if kind == "constructor" or sig.returns == "System.Void" else sig.returns
        signature = self._signature(
            visibility,
            static,
            row.Flags,
            returns or ("" if kind == "constructor" else "System.Void"),
            shown + (f"<{', '.join(generics)}>" if generics else ""),
            params,
        )
        member = Member(
            doc_id=doc_id,
            kind=kind,
            namespace=full.rsplit(".", 1)[0] if "." in full else "",
            declaring_type=full,
            name=name.replace(".", "#"),
            params=params,
            returns=returns,
            returns_display=display_type(returns) if returns else "",
            signature=signature,
            visibility=visibility,
            static=static,
            abstract=bool(row.Flags.mdAbstract),
            virtual=bool(row.Flags.mdVirtual),
            generic_params=generics,
            assembly=self.assembly,
            inputs=[self.relative],
        )
        if self.body is not None and row.Rva:
            member.facts = self.body.facts(row)
        return member

    def _parameter(self, position: int, doc_type: str, ref: Any) -> Parameter:
        """One parameter: its name, type, ``ref``/``out``/``params`` and whether it is optional."""
        flags = ref.row.Flags if ref is not None else None
        modifier = ""
        if doc_type.endswith("@"):
            modifier = "out" if flags is not None and flags.pdOut and not flags.pdIn else "ref"
        elif ref is not None and ref.row_index in self._param_arrays:
            modifier = "params"
        optional = flags is not None and bool(flags.pdOptional or flags.pdHasDefault)
        return Parameter(
            name=str(ref.row.Name) if ref is not None else f"arg{position}",
            type=doc_type,
            display=display_type(doc_type),
            modifier=modifier,
            optional=optional or modifier == "params",
        )

    def _param_array_rows(self) -> set[int]:
        """The Param rows carrying ``System.ParamArrayAttribute`` (C#'s ``params T[]``)."""
        out: set[int] = set()
        for row in table_rows(self.md.CustomAttribute):
            if row.Parent.table is None or row.Parent.table.name != "Param" or row.Type.table is None:
                continue
            if row.Type.table.name == "MemberRef":
                owner = self.coded_type(self.md.MemberRef.rows[row.Type.row_index - 1].Class)
            else:
                owner = ""
            if owner == "System.ParamArrayAttribute":
                out.add(row.Parent.row_index)
        return out

    @staticmethod
    def _signature(
        visibility: str, static: bool, flags: Any, returns: str, name: str, params: list[Parameter]
    ) -> str:
        words = [visibility] + (["static"] if static else []) + (["abstract"] if flags.mdAbstract else [])
        words += [display_type(returns)] if returns else []
        args = ", ".join(f"{p.modifier + ' ' if p.modifier else ''}{p.display} {p.name}" for p in params)
        return " ".join(words) + f" {name} ({args});"

    def _fields(self, type_row: Any, full: str) -> list[Member]:
        out: list[Member] = []
        for ref in type_row.FieldList or []:
            row = ref.row
            visibility = member_visibility(row.Flags, "fd")
            if row.Flags.fdRTSpecialName or not self._keep(visibility):
                continue
            try:
                field_type = decode_field(bytes(row.Signature.value), self.type_name)
            except SignatureError:
                continue
            static = bool(row.Flags.fdStatic)
            words = [visibility] + (["const"] if row.Flags.fdLiteral else ["static"] if static else [])
            signature = " ".join(words) + f" {display_type(field_type)} {row.Name};"
            doc_id = f"F:{full}.{row.Name}"
            access = (visibility, static)
            out.append(self._data_member(doc_id, "field", full, str(row.Name), field_type, access, signature))
        return out

    def _accessor_facts(self, methods: list[Any]) -> tuple[str, bool]:
        shown = [(member_visibility(m.Flags, "md"), bool(m.Flags.mdStatic)) for m in methods]
        best = min(shown, key=lambda v: _RANK[v[0]]) if shown else ("private", False)
        return best

    def _owned(self, semantics: dict[int, Any], table: str) -> dict[int, list[Any]]:
        by_owner: dict[int, list[Any]] = {}
        for method_index, row in semantics.items():
            if row.Association.table is not None and row.Association.table.name == table:
                by_owner.setdefault(row.Association.row_index, []).append(
                    self.md.MethodDef.rows[method_index - 1]
                )
        return by_owner

    def _properties(self, semantics: dict[int, Any]) -> list[Member]:
        owners = {
            p.row_index: m.Parent.row_index
            for m in table_rows(self.md.PropertyMap)
            for p in m.PropertyList or []
        }
        methods = self._owned(semantics, "Property")
        out: list[Member] = []
        for index, row in enumerate(table_rows(self.md.Property), 1):
            owner = owners.get(index)
            visibility, static = self._accessor_facts(methods.get(index, []))
            if owner is None or not self._visible_type(owner) or not self._keep(visibility):
                continue
            try:
                sig = decode_method(bytes(row.Type.value), self.type_name)
            except SignatureError:
                continue
            full = self.typedef_name(owner)
            params = [
                Parameter(name=f"arg{i}", type=t, display=display_type(t)) for i, t in enumerate(sig.params)
            ]
            names = {str(m.Name).split("_", 1)[0] for m in methods.get(index, [])}
            access = " ".join(f"{a};" for a in ("get", "set") if a in names)
            doc_id = member_id("P", full, str(row.Name), [p.type for p in params])
            shown = f"{visibility}{' static' if static else ''} {display_type(sig.returns)}"
            signature = f"{shown} {row.Name} {{ {access} }}"
            name, flags = str(row.Name), (visibility, static)
            out.append(
                self._data_member(doc_id, "property", full, name, sig.returns, flags, signature, params)
            )
        return out

    def _data_member(
        self,
        doc_id: str,
        kind: str,
        full: str,
        name: str,
        returns: str,
        access: tuple[str, bool],
        signature: str,
        params: list[Parameter] | None = None,
    ) -> Member:
        """A field, property or event of the type ``full``: its value's type, visibility and static-ness."""
        visibility, static = access
        return Member(
            doc_id=doc_id,
            kind=kind,
            namespace=full.rsplit(".", 1)[0],
            declaring_type=full,
            name=name,
            params=params or [],
            returns=returns,
            returns_display=display_type(returns),
            visibility=visibility,
            static=static,
            signature=signature,
            assembly=self.assembly,
            inputs=[self.relative],
        )

    def _events(self, semantics: dict[int, Any]) -> list[Member]:
        owners = {
            e.row_index: m.Parent.row_index for m in table_rows(self.md.EventMap) for e in m.EventList or []
        }
        methods = self._owned(semantics, "Event")
        out: list[Member] = []
        for index, row in enumerate(table_rows(self.md.Event), 1):
            owner = owners.get(index)
            visibility, static = self._accessor_facts(methods.get(index, []))
            if owner is None or not self._visible_type(owner) or not self._keep(visibility):
                continue
            full, handler = self.typedef_name(owner), self.coded_type(row.EventType)
            signature = f"{visibility} event {display_type(handler)} {row.Name};"
            doc_id = f"E:{full}.{row.Name}"
            access = (visibility, static)
            out.append(self._data_member(doc_id, "event", full, str(row.Name), handler, access, signature))
        return out
