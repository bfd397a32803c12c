"""Facts from IL method bodies, read with dncil: ``call``/``callvirt`` targets, ``newobj`` types and the
exceptions ``throw`` raises (the object created just before it), as ``Type.Member`` names."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dncil.cil.body import CilMethodBody
from dncil.cil.body.reader import CilMethodBodyReaderBase
from dncil.cil.error import MethodBodyFormatError

from apiatlas.sources.dotnet.model import BodyFacts

if TYPE_CHECKING:
    from apiatlas.sources.dotnet.assemblies import AssemblyReader

_METHOD_DEF, _MEMBER_REF, _METHOD_SPEC = 0x06, 0x0A, 0x2B
_MAX_FACTS = 24  # per list: a card shows what a body mostly does, not every call


class _ImageReader(CilMethodBodyReaderBase):  # type: ignore[misc]
    def __init__(self, pe: Any, rva: int) -> None:
        self.pe = pe
        self.offset = pe.get_offset_from_rva(rva)

    def read(self, n: int) -> bytes:
        data: bytes = self.pe.__data__[self.offset : self.offset + n]
        self.offset += n
        return data

    def tell(self) -> int:
        return int(self.offset)

    def seek(self, offset: int) -> int:
        self.offset = offset
        return int(self.offset)


class BodyReader:
    """Reads the bodies of one assembly's methods, resolving call targets through its metadata."""

    def __init__(self, assembly: AssemblyReader) -> None:
        self.assembly = assembly
        self._names: dict[int, str] = {}

    def facts(self, method_row: Any) -> BodyFacts:
        try:
            body = CilMethodBody(_ImageReader(self.assembly.pe, method_row.Rva))
        except (MethodBodyFormatError, ValueError, IndexError, KeyError):
            return BodyFacts()
        facts = BodyFacts()
        last_created = ""
        for insn in body.instructions:
            name = insn.opcode.name
            if name in ("call", "callvirt", "newobj"):
                target = self.target(insn.operand)
                if not target:
                    continue
                if name == "newobj":
                    last_created = target.rsplit(".", 1)[0]
                    _add(facts.creates, last_created)
                else:
                    _add(facts.calls, target)
            elif name == "throw" and last_created:
                _add(facts.throws, last_created)
        return facts

    def target(self, token: Any) -> str:
        """``Type.Member`` of a MethodDef, MemberRef or MethodSpec token ("" when unresolvable)."""
        value = getattr(token, "value", None)
        if not isinstance(value, int):
            return ""
        if value not in self._names:
            self._names[value] = self._resolve(value >> 24, value & 0xFFFFFF)
        return self._names[value]

    def _resolve(self, table: int, rid: int) -> str:
        md = self.assembly.md
        try:
            if table == _METHOD_DEF:
                return self._method_def(rid)
            if table == _MEMBER_REF:
                row = md.MemberRef.rows[rid - 1]
                owner = row.Class
                if owner.table is not None and owner.table.name == "MethodDef":
                    return self._method_def(owner.row_index)
                return _member(self.assembly.coded_type(owner), str(row.Name))
            if table == _METHOD_SPEC:
                spec = md.MethodSpec.rows[rid - 1].Method
                code = {"MethodDef": _METHOD_DEF, "MemberRef": _MEMBER_REF}.get(spec.table.name, 0)
                return self._resolve(code, spec.row_index)
        except (IndexError, AttributeError):
            return ""
        return ""

    def _method_def(self, rid: int) -> str:
        owner = self._owner_of_method(rid)
        return _member(owner, str(self.assembly.md.MethodDef.rows[rid - 1].Name)) if owner else ""

    def _owner_of_method(self, rid: int) -> str:
        if not hasattr(self, "_method_owner"):
            self._method_owner: dict[int, int] = {}
            for index, row in enumerate(self.assembly.md.TypeDef.rows, 1):
                for ref in row.MethodList or []:
                    self._method_owner[ref.row_index] = index
        owner = self._method_owner.get(rid)
        return self.assembly.typedef_name(owner) if owner else ""


def _member(owner: str, name: str) -> str:
    if not owner:
        return ""
    owner = owner.split("{", 1)[0].split("`", 1)[0]
    return f"{owner}.{name.replace('.', '#')}"


def _add(items: list[str], name: str) -> None:
    if name and name not in items and len(items) < _MAX_FACTS:
        items.append(name)
