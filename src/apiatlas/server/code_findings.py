"""What ``check_code`` finds in a draft: the diagnostics, the unknown ``Type.Member`` names and the count of
uses checked — a member looked up on a snapshot type (unknown, or no overload taking that many arguments)."""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass, field

from tree_sitter import Node

from apiatlas.server.code_model import Overload, SdkModel
from apiatlas.server.tools.check_code import CodeDiagnostic


def at(node: Node) -> tuple[int, int]:
    """A node's 1-based line and column."""
    return node.start_point[0] + 1, node.start_point[1] + 1


@dataclass
class Findings:
    model: SdkModel
    diagnostics: list[CodeDiagnostic] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    checked: int = 0

    def member(self, target: str, name: str, arguments: int | None, where: Node) -> None:
        """``name`` used on the snapshot type ``target`` (called with ``arguments``; None: not called)."""
        overloads, complete, names = self.model.lookup(target, name)
        self.checked += 1
        symbol = f"{target}.{name}"
        if overloads:
            self.arity(overloads, arguments, symbol, where)
        elif complete:
            close = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
            self.add("UNKNOWN_MEMBER", f"{target} has no member {name}", symbol, where,
                     [f"{target}.{c}" for c in close])  # fmt: skip

    def arity(self, overloads: list[Overload], arguments: int | None, symbol: str, where: Node) -> None:
        """A call no overload accepts: its count and the overloads' counts."""
        methods = [o for o in overloads if o.kind in ("method", "constructor")]
        if arguments is None or not methods or len(methods) < len(overloads):
            return
        if any(o.min_args <= arguments <= o.max_args for o in methods):
            return
        counts = sorted({_count(o) for o in methods})
        self.add(
            "WRONG_ARGUMENT_COUNT",
            f"no overload of {symbol} takes {arguments} arguments (overloads take {', '.join(counts)})",
            symbol,
            where,
            [o.key for o in methods][:5],
        )

    def add(self, code: str, message: str, symbol: str, where: Node, suggestions: list[str]) -> None:
        if symbol not in self.unknown:
            self.unknown.append(symbol)
        line, column = at(where)
        self.diagnostics.append(
            CodeDiagnostic(
                code=code, message=message, line=line, column=column, symbol=symbol, suggestions=suggestions
            )
        )


def _count(overload: Overload) -> str:
    if overload.min_args == overload.max_args:
        return f"{overload.min_args}"
    if overload.max_args == math.inf:
        return f"{overload.min_args}+"
    return f"{overload.min_args}-{int(overload.max_args)}"
