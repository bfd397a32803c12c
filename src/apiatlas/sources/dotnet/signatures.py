"""Metadata signature blobs (ECMA-335 II.23.2) decoded into documentation-ID type names.

A blob is read by ``SignatureReader`` over a callback naming a ``TypeDefOrRefEncoded`` token
(table tag, row): the assembly reader knows its TypeDef/TypeRef/TypeSpec tables, this module does not.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

_PRIMITIVES = {
    0x01: "System.Void",
    0x02: "System.Boolean",
    0x03: "System.Char",
    0x04: "System.SByte",
    0x05: "System.Byte",
    0x06: "System.Int16",
    0x07: "System.UInt16",
    0x08: "System.Int32",
    0x09: "System.UInt32",
    0x0A: "System.Int64",
    0x0B: "System.UInt64",
    0x0C: "System.Single",
    0x0D: "System.Double",
    0x0E: "System.String",
    0x16: "System.TypedReference",
    0x18: "System.IntPtr",
    0x19: "System.UIntPtr",
    0x1C: "System.Object",
}
HAS_THIS = 0x20
GENERIC = 0x10

TypeNamer = Callable[[int, int], str]  # (tag: 0 TypeDef, 1 TypeRef, 2 TypeSpec; row) -> full name


class SignatureError(ValueError):
    """A blob that does not follow ECMA-335 II.23.2."""


@dataclass
class MethodSignature:
    has_this: bool
    generic_arity: int
    returns: str
    params: list[str] = field(default_factory=list)


@dataclass
class SignatureReader:
    data: bytes
    namer: TypeNamer
    pos: int = 0

    def byte(self) -> int:
        if self.pos >= len(self.data):
            raise SignatureError("signature blob ends early")
        value = self.data[self.pos]
        self.pos += 1
        return value

    def compressed(self) -> int:
        first = self.byte()
        if first & 0x80 == 0:
            return first
        if first & 0xC0 == 0x80:
            return ((first & 0x3F) << 8) | self.byte()
        return ((first & 0x1F) << 24) | (self.byte() << 16) | (self.byte() << 8) | self.byte()

    def type_token(self) -> str:
        coded = self.compressed()
        return self.namer(coded & 0x3, coded >> 2)

    def type(self) -> str:
        """One Type (II.23.2.12) in documentation-ID spelling."""
        tag = self.byte()
        while tag in (0x1F, 0x20, 0x45):  # custom modifiers, pinned: skipped
            if tag != 0x45:
                self.type_token()
            tag = self.byte()
        if tag in _PRIMITIVES:
            return _PRIMITIVES[tag]
        if tag == 0x0F:
            return self.type() + "*"
        if tag == 0x10:
            return self.type() + "@"
        if tag in (0x11, 0x12):
            return self.type_token()
        if tag in (0x13, 0x1E):
            return ("`" if tag == 0x13 else "``") + str(self.compressed())
        if tag == 0x1D:
            return self.type() + "[]"
        if tag == 0x14:
            return self._array()
        if tag == 0x15:
            return self._generic_instance()
        if tag == 0x1B:
            self.method()
            return "System.IntPtr"  # function pointer
        raise SignatureError(f"unknown element type 0x{tag:02x} at byte {self.pos - 1}")

    def _array(self) -> str:
        element = self.type()
        rank = self.compressed()
        for _ in range(self.compressed()):
            self.compressed()
        for _ in range(self.compressed()):
            self.compressed()
        return element + "[" + ",".join("0:" for _ in range(rank)) + "]"

    def _generic_instance(self) -> str:
        self.byte()  # class | valuetype
        generic = self.type_token()
        args = [self.type() for _ in range(self.compressed())]
        base = generic.rsplit("`", 1)[0] if "`" in generic else generic
        return base + "{" + ",".join(args) + "}"

    def method(self) -> MethodSignature:
        """A MethodDefSig / MethodRefSig / PropertySig (II.23.2.1, .2, .5)."""
        convention = self.byte()
        arity = self.compressed() if convention & GENERIC else 0
        count = self.compressed()
        returns = self.type()
        params: list[str] = []
        for _ in range(count):
            if self.pos < len(self.data) and self.data[self.pos] == 0x41:  # vararg sentinel
                self.pos += 1
            params.append(self.type())
        return MethodSignature(bool(convention & HAS_THIS), arity, returns, params)

    def field(self) -> str:
        """A FieldSig (II.23.2.4)."""
        self.byte()  # 0x06
        return self.type()

    def type_spec(self) -> str:
        """A TypeSpec blob: one Type."""
        return self.type()


def decode_method(blob: bytes, namer: TypeNamer) -> MethodSignature:
    return SignatureReader(blob, namer).method()


def decode_field(blob: bytes, namer: TypeNamer) -> str:
    return SignatureReader(blob, namer).field()


def decode_type_spec(blob: bytes, namer: TypeNamer) -> str:
    return SignatureReader(blob, namer).type_spec()
