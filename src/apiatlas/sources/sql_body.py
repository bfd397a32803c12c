"""Reads SQL routine text as tokens (comments and strings understood) and finds what the body writes.

Shared by the SQL Server DDL project parser and the PostgreSQL live catalog. The tokenizer drops
comments and keeps strings as single tokens, so SQL quoted inside a string (dynamic SQL text) or a
comment is never mistaken for a statement. ``classify_writes`` walks the tokens of one body:

- writes to local objects are not writes: T-SQL table variables (``@t``) and temp tables (``#t``),
  PostgreSQL temporary tables (created in the body, or any name ``is_local`` accepts — the
  PostgreSQL source passes "not a permanent relation of the database", i.e. session tables);
- ``DELETE``, ``TRUNCATE``, ``DROP`` and dynamic SQL (``EXEC(@sql)``, ``sp_executesql``, PL/pgSQL
  ``EXECUTE``) are destructive — dynamic SQL can do anything, so it is never assumed harmless;
- ``INSERT``, ``UPDATE``, ``MERGE``, ``SELECT … INTO`` a table, ``CREATE``/``ALTER``, ``GRANT``,
  sequence advances (``NEXT VALUE FOR``, ``nextval``) and ``COPY`` are writes;
- calls of other routines are collected (``calls``) so the caller can classify transitively.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from apiatlas.catalog.model import SideEffect


class Dialect(StrEnum):
    TSQL = "tsql"
    POSTGRES = "postgres"


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # word | ident | string | var | temp | num | op
    text: str  # identifiers unquoted; strings without quotes; words as written
    line: int

    @property
    def upper(self) -> str:
        return self.text.upper() if self.kind == "word" else ""


_COMMON = [
    ("ws", r"\s+"),
    ("comment", r"--[^\n]*|/\*.*?\*/"),
]
_TSQL = [
    ("string", r"[Nn]?'(?:[^']|'')*'"),
    ("ident", r'\[(?:[^\]]|\]\])*\]|"(?:[^"]|"")*"'),
    ("var", r"@@?[^\W]\w*|@@?\w+"),
    ("temp", r"##?\w+"),
]
_POSTGRES = [
    ("string", r"\$(?P<tag>[A-Za-z_]\w*)?\$.*?\$(?P=tag)?\$|[EeBbXx]?'(?:[^'\\]|''|\\.)*'"),
    ("ident", r'"(?:[^"]|"")*"'),
    ("var", r"\$\d+"),
]
_TAIL = [
    ("word", r"[^\W\d]\w*|\d+[^\W\d]\w*"),
    ("num", r"\d+(?:\.\d+)?"),
    ("op", r"."),
]
_LEXERS = {
    Dialect.TSQL: re.compile("|".join(f"(?P<{k}>{p})" for k, p in [*_COMMON, *_TSQL, *_TAIL]), re.DOTALL),
    Dialect.POSTGRES: re.compile(
        "|".join(f"(?P<{k}>{p})" for k, p in [*_COMMON, *_POSTGRES, *_TAIL]), re.DOTALL
    ),
}


def tokenize(text: str, dialect: Dialect, *, first_line: int = 1) -> list[Token]:
    """Tokens of ``text`` without whitespace and comments; an unterminated string or comment ends the text."""
    tokens: list[Token] = []
    line = first_line
    lexer = _LEXERS[dialect]
    pos = 0
    while pos < len(text):
        match = lexer.match(text, pos)
        if match is None:  # unterminated quote or comment: the rest is one string
            tokens.append(Token("string", text[pos:], line))
            break
        kind = match.lastgroup or "op"
        if kind == "tag":
            kind = "string"
        raw = match.group()
        if kind not in ("ws", "comment"):
            tokens.append(Token(kind, _unquote(kind, raw), line))
        line += raw.count("\n")
        pos = match.end()
    return tokens


def _unquote(kind: str, raw: str) -> str:
    if kind == "ident":
        if raw.startswith("["):
            return raw[1:-1].replace("]]", "]")
        return raw[1:-1].replace('""', '"')
    if kind == "string":
        if raw.startswith("$"):
            tag_end = raw.index("$", 1) + 1
            return raw[tag_end : len(raw) - tag_end]
        body = raw[raw.index("'") + 1 : -1] if raw.endswith("'") else raw[raw.index("'") + 1 :]
        return body.replace("''", "'")
    return raw


def is_name(token: Token) -> bool:
    """A word or a quoted identifier (something that can name an object)."""
    return token.kind in ("word", "ident")


def read_name(tokens: list[Token], i: int) -> tuple[list[str], int]:
    """A dotted name starting at ``tokens[i]`` (``[a].[b]``, ``a.b``): its parts and the index after it."""
    parts: list[str] = []
    while i < len(tokens) and (is_name(tokens[i]) or tokens[i].kind in ("var", "temp")):
        parts.append(tokens[i].text)
        if tokens[i].kind in ("var", "temp"):
            return parts, i + 1
        if i + 2 < len(tokens) and tokens[i + 1].text == "." and tokens[i + 1].kind == "op":
            i += 2
            continue
        return parts, i + 1
    return parts, i


@dataclass
class BodyFacts:
    """What one routine body does: its side-effect class, why, and the routines it calls."""

    side_effect: SideEffect = SideEffect.READ
    reasons: list[str] = field(default_factory=list)  # e.g. "INSERT Sales.Orders (line 40)"
    calls: list[str] = field(default_factory=list)  # names called like functions, as written (dotted)
    exec_calls: list[str] = field(default_factory=list)  # procedures run with EXEC name (T-SQL)
    tables: list[str] = field(default_factory=list)  # permanent objects named after FROM/JOIN/INTO/UPDATE

    def note(self, effect: SideEffect, reason: str) -> None:
        order = [SideEffect.READ, SideEffect.WRITE, SideEffect.DESTRUCTIVE]
        if order.index(effect) > order.index(self.side_effect):
            self.side_effect = effect
        if reason not in self.reasons:
            self.reasons.append(reason)


_WRITE_WORDS = {"INSERT": SideEffect.WRITE, "UPDATE": SideEffect.WRITE, "MERGE": SideEffect.WRITE}
_SKIP_BEFORE_TARGET = {"INTO", "FROM", "TOP", "ONLY", "TABLE"}
_DDL = {"CREATE": SideEffect.WRITE, "ALTER": SideEffect.WRITE, "DROP": SideEffect.DESTRUCTIVE}
_NOT_A_CALL = {
    "IF", "WHILE", "IN", "EXISTS", "VALUES", "AS", "AND", "OR", "NOT", "ON", "RETURN", "RETURNS", "OVER",
    "WHEN", "THEN", "ELSE", "CASE", "SELECT", "WHERE", "JOIN", "USING", "TABLE", "INTO", "SET", "FROM",
}  # fmt: skip


def classify_writes(
    tokens: list[Token], dialect: Dialect, *, is_local: Callable[[list[str]], bool] | None = None
) -> BodyFacts:
    """The side-effect class of a routine body (see the module docstring for the rules)."""
    facts = BodyFacts()
    local_names: set[str] = set()
    n = len(tokens)

    def local(parts: list[str], token: Token | None) -> bool:
        if token is not None and token.kind in ("var", "temp"):
            return True
        if not parts:
            return True
        if parts[-1].lower() in local_names:
            return True
        return is_local(parts) if is_local is not None else False

    def target(i: int) -> tuple[list[str], Token | None, int]:
        j = i
        while j < n and (tokens[j].upper in _SKIP_BEFORE_TARGET or tokens[j].text == "("):
            if tokens[j].text == "(" or tokens[j].upper == "TOP":  # TOP (n)
                depth = 0
                while j < n:
                    depth += tokens[j].text == "("
                    depth -= tokens[j].text == ")"
                    j += 1
                    if depth <= 0 and tokens[j - 1].text == ")":
                        break
                continue
            j += 1
        first = tokens[j] if j < n else None
        parts, after = read_name(tokens, j)
        return parts, first, after

    for i, tok in enumerate(tokens):
        word = tok.upper
        if not word:
            continue
        prev = tokens[i - 1].upper if i else ""
        nxt = tokens[i + 1] if i + 1 < n else None
        where = f"(line {tok.line})"
        if word in _WRITE_WORDS or word in ("DELETE", "TRUNCATE"):
            if prev in ("FOR", "ON", "DO", "NO", "KEY", "OF", "THEN") or (
                nxt is not None and nxt.text == "(" and word == "UPDATE"
            ):
                continue  # FOR UPDATE, ON DELETE CASCADE, DO UPDATE, MERGE … THEN UPDATE, UPDATE(col)
            if word == "UPDATE" and nxt is not None and nxt.upper == "STATISTICS":
                facts.note(SideEffect.WRITE, f"UPDATE STATISTICS {where}")
                continue
            parts, first, _ = target(i + 1)
            if local(parts, first) or _local_alias(tokens, i, parts, lambda p, t: local(p, t)):
                continue
            effect = _WRITE_WORDS.get(word, SideEffect.DESTRUCTIVE)
            facts.note(effect, f"{word} {'.'.join(parts)} {where}")
            facts.tables.append(".".join(parts))
        elif word in _DDL:
            kind = nxt.upper if nxt is not None else ""
            if dialect is Dialect.POSTGRES and kind in ("TEMP", "TEMPORARY", "LOCAL", "GLOBAL"):
                parts, _first, _ = target(i + 3 if i + 2 < n and tokens[i + 2].upper == "TABLE" else i + 2)
                if parts:
                    local_names.add(parts[-1].lower())
                continue
            if kind in ("INDEX", "UNIQUE", "CLUSTERED", "NONCLUSTERED") and word == "CREATE":
                on = next((j for j in range(i + 2, min(n, i + 8)) if tokens[j].upper == "ON"), None)
                if on is not None:
                    parts, first, _ = target(on + 1)
                    if local(parts, first):
                        continue
            if kind == "TABLE":
                parts, first, _ = target(i + 2)
                skip = i + 2
                while parts and parts[0].upper() in ("IF", "NOT", "EXISTS") and skip < n:
                    skip += 1
                    parts, first, _ = target(skip)
                if local(parts, first):
                    continue
            facts.note(_DDL[word], f"{word} {kind} {where}".replace("  ", " "))
        elif word in ("GRANT", "REVOKE", "DENY") and prev not in ("WITH",):
            facts.note(SideEffect.WRITE, f"{word} {where}")
        elif word == "COPY" and dialect is Dialect.POSTGRES:
            facts.note(SideEffect.WRITE, f"COPY {where}")
        elif word == "INTO" and dialect is Dialect.TSQL and prev not in ("INSERT", "MERGE"):
            if _inside_insert(tokens, i):
                continue
            parts, first, _ = target(i + 1)
            if not local(parts, first):
                facts.note(SideEffect.WRITE, f"SELECT INTO {'.'.join(parts)} {where}")
        elif word == "NEXT" and nxt is not None and nxt.upper == "VALUE":
            facts.note(SideEffect.WRITE, f"NEXT VALUE FOR (sequence) {where}")
        elif word in ("NEXTVAL", "SETVAL") and nxt is not None and nxt.text == "(":
            facts.note(SideEffect.WRITE, f"{word.lower()}() {where}")
        elif word in ("EXEC", "EXECUTE"):
            _classify_exec(tokens, i, dialect, facts)
        elif word in ("FROM", "JOIN") and nxt is not None:
            parts, _ = read_name(tokens, i + 1)
            first = tokens[i + 1]
            if parts and not local(parts, first) and first.kind in ("word", "ident"):
                facts.tables.append(".".join(parts))
        elif nxt is not None and nxt.text == "(" and prev not in ("AS",) and word not in _NOT_A_CALL:
            facts.calls.append(tok.text)
        if tok.kind == "ident" and nxt is not None and nxt.text == "(":
            facts.calls.append(tok.text)
    _dotted_calls(tokens, facts)
    return facts


def _local_alias(
    tokens: list[Token], i: int, parts: list[str], local: Callable[[list[str], Token | None], bool]
) -> bool:
    """``UPDATE cc … FROM #t AS cc``: the target is an alias of a local table named later in the statement."""
    if len(parts) != 1:
        return False
    alias = parts[0].lower()
    depth = 0
    for j in range(i + 2, min(len(tokens) - 1, i + 400)):
        tok = tokens[j]
        depth += (tok.text == "(") - (tok.text == ")")
        if depth < 0 or tok.text == ";":
            return False
        if depth == 0 and tok.upper in ("FROM", "JOIN"):
            name, after = read_name(tokens, j + 1)
            if after < len(tokens) and tokens[after].upper == "AS":
                after += 1
            if after < len(tokens) and tokens[after].text.lower() == alias:
                return local(name, tokens[j + 1])
    return False


def _inside_insert(tokens: list[Token], i: int) -> bool:
    """``INTO`` belongs to an INSERT/MERGE a few tokens back (``INSERT TOP (5) INTO``) or is FETCH … INTO."""
    for j in range(i - 1, max(-1, i - 8), -1):
        if tokens[j].upper in ("INSERT", "MERGE", "FETCH"):
            return True
        if tokens[j].upper in ("SELECT", "FROM", "WHERE"):
            return False
    return False


def _classify_exec(tokens: list[Token], i: int, dialect: Dialect, facts: BodyFacts) -> None:
    where = f"(line {tokens[i].line})"
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    if nxt is None:
        return
    if dialect is Dialect.POSTGRES:
        facts.note(SideEffect.DESTRUCTIVE, f"dynamic SQL: EXECUTE {where}")
        return
    if nxt.text == "(":
        facts.note(SideEffect.DESTRUCTIVE, f"dynamic SQL: EXEC(...) {where}")
        return
    j = i + 1
    if nxt.kind == "var":
        if j + 1 < len(tokens) and tokens[j + 1].text == "=":
            j += 2  # EXEC @rc = proc
        else:
            facts.note(SideEffect.DESTRUCTIVE, f"dynamic SQL: EXEC {nxt.text} {where}")
            return
    parts, _ = read_name(tokens, j)
    if not parts:
        return
    name = ".".join(parts)
    if parts[-1].lower() == "sp_executesql":
        facts.note(SideEffect.DESTRUCTIVE, f"dynamic SQL: sp_executesql {where}")
        return
    facts.exec_calls.append(name)


def _dotted_calls(tokens: list[Token], facts: BodyFacts) -> None:
    """Qualified calls ``schema.fn(`` (PostgreSQL ``PERFORM bank.f(...)``, T-SQL ``dbo.f(...)``)."""
    for i in range(len(tokens) - 3):
        a, dot, b, paren = tokens[i : i + 4]
        if is_name(a) and dot.text == "." and is_name(b) and paren.text == "(":
            facts.calls.append(f"{a.text}.{b.text}")
