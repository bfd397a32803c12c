"""The SDK's types as ``check_code`` needs them: members by name with their arities, base types and
interfaces, read from a code snapshot one type at a time (and kept)."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property

from apiatlas.code.keys import param_types, path_of
from apiatlas.code.roots import ROOT_MEMBERS
from apiatlas.server.code_card import member_record
from apiatlas.snapshot import CatalogReader

PAGE = 100_000


@dataclass
class Overload:
    key: str
    kind: str  # constructor | method | property | event | field
    min_args: int
    max_args: float  # math.inf for a params array
    static: bool
    returns: str  # documentation-ID spelling ("" for void)
    protected: bool = False  # reachable from a subclass only (``new T()`` cannot call it)


@dataclass
class TypeInfo:
    full: str  # documentation path: Gtk.Window (a generic type without its arity)
    key: str  # T:Gtk.Window
    kind: str
    base_type: str = ""
    interfaces: list[str] = field(default_factory=list)
    members: dict[str, list[Overload]] = field(default_factory=lambda: defaultdict(list))


def _arity(record: dict[str, object], key: str) -> tuple[int, float]:
    params = record.get("params")
    if not isinstance(params, list):
        count = len(param_types(key))
        return count, count
    required = sum(1 for p in params if isinstance(p, dict) and not p.get("optional"))
    variadic = any(isinstance(p, dict) and p.get("modifier") == "params" for p in params)
    signature = str(record.get("signature", ""))
    if "params " in signature:
        variadic = True
        required = min(required, len(params) - 1)
    return required, math.inf if variadic else len(params)


def _bare(type_name: str) -> str:
    """``GLib.List`1`` / ``List{System.Int32}`` -> ``GLib.List``; arrays and refs kept off."""
    return type_name.split("{", 1)[0].split("`", 1)[0].rstrip("@&*")


class SdkModel:
    """Types of the snapshot by full name; each type's members loaded on first use."""

    def __init__(self, snapshot: CatalogReader, keys: list[str]) -> None:
        self.snapshot = snapshot
        self.type_keys = {path_of(k): k for k in keys if k.startswith("T:")}
        self._types: dict[str, TypeInfo | None] = {}

    @cached_property
    def namespaces(self) -> set[str]:
        out: set[str] = set()
        for full in self.type_keys:
            parts = full.split(".")
            out.update(".".join(parts[:n]) for n in range(1, len(parts)))
        return out

    def has_type(self, full: str) -> bool:
        return _bare(full) in self.type_keys

    def type(self, full: str) -> TypeInfo | None:
        full = _bare(full)
        if full not in self._types:
            self._types[full] = self._load(full)
        return self._types[full]

    def _load(self, full: str) -> TypeInfo | None:
        key = self.type_keys.get(full)
        if key is None:
            return None
        api = self.snapshot.get_api(key)
        record = member_record(api) if api is not None else None
        record = record or {}
        info = TypeInfo(
            full,
            key,
            str(record.get("kind", "class")),
            _bare(str(record.get("base_type", ""))),
            [_bare(str(i)) for i in record.get("interfaces", []) or []],
        )
        owner = key[2:]
        apis, _ = self.snapshot.list_apis(owner, 0, PAGE)
        for member_api in apis:
            member = member_record(member_api) or {}
            if member_api.key.startswith("T:"):
                continue
            low, high = _arity(member, member_api.key)
            name = path_of(member_api.key).rsplit(".", 1)[-1]
            info.members[name].append(
                Overload(
                    member_api.key,
                    str(member.get("kind", "")),
                    low,
                    high,
                    bool(member.get("static")),
                    str(member.get("returns", "")),
                    member.get("visibility") == "protected",
                )
            )
        return info

    def chain(self, full: str) -> tuple[list[TypeInfo], bool]:
        """The type, its base types and interfaces found in the snapshot, and whether the chain is complete
        (every base is in the snapshot or is a CLI root type whose members are known)."""
        seen: list[TypeInfo] = []
        complete = True
        queue = [_bare(full)]
        while queue:
            name = queue.pop(0)
            if not name or any(t.full == name for t in seen):
                continue
            info = self.type(name)
            if info is None:
                if name not in ROOT_MEMBERS:
                    complete = complete and self._only_interface(name, seen)
                continue
            seen.append(info)
            queue += [info.base_type, *info.interfaces]
        return seen, complete

    @staticmethod
    def _only_interface(name: str, seen: list[TypeInfo]) -> bool:
        """A missing interface leaves the chain complete (a class declares what it implements)."""
        return any(name in t.interfaces for t in seen)

    def lookup(self, full: str, member: str) -> tuple[list[Overload], bool, list[str]]:
        """The overloads named ``member`` along the chain of ``full``, whether the chain is complete, and
        every member name along it (for suggestions)."""
        chain, complete = self.chain(full)
        found: list[Overload] = []
        names: set[str] = set()
        for info in chain:
            found += info.members.get(member, [])
            names.update(info.members)
        roots = {n for root, members in ROOT_MEMBERS.items() if self._reaches(chain, root) for n in members}
        if member in roots and not found:
            found.append(Overload("", "method", 0, math.inf, False, ""))
        return found, complete, sorted(names | roots)

    @staticmethod
    def _reaches(chain: list[TypeInfo], root: str) -> bool:
        return root == "System.Object" or any(t.base_type == root for t in chain)
