"""Finds the result columns of a T-SQL body when knowable: a final SELECT with a named column list."""

from __future__ import annotations

from dataclasses import dataclass

from apiatlas.sources.sql_body import Token, read_name

_SET_OPERATORS = {"UNION", "ALL", "EXCEPT", "INTERSECT"}
_ITEM_END = {"FROM", "WHERE", "GROUP", "ORDER", "HAVING", "FOR", "OPTION", "UNION", "EXCEPT", "INTERSECT"}
_STATEMENT_START = {
    "INSERT", "UPDATE", "DELETE", "MERGE", "SET", "DECLARE", "IF", "WHILE", "BEGIN", "END", "RETURN", "EXEC",
    "EXECUTE", "PRINT", "RAISERROR", "THROW", "COMMIT", "ROLLBACK", "DROP", "CREATE", "ALTER", "TRUNCATE",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class ResultColumn:
    name: str
    source_table: str | None  # 'Sales.Orders' when the column is read straight from a named table
    source_column: str | None


def final_select_columns(body: list[Token]) -> list[ResultColumn] | None:
    """Columns of the last top-level SELECT returning rows; None when unknowable (``*``, FOR JSON)."""
    candidates: list[int] = []
    depth = 0
    in_insert = False
    for i, tok in enumerate(body):
        if tok.text == "(":
            depth += 1
        elif tok.text == ")":
            depth -= 1
        word = tok.upper
        if word in ("INSERT", "MERGE"):
            in_insert = True
        elif word == "SELECT" and depth == 0:
            prev = body[i - 1].upper if i else ""
            if in_insert or prev in _SET_OPERATORS:
                in_insert = False
                continue
            candidates.append(i)
        elif word in _STATEMENT_START and word not in ("INSERT", "MERGE"):
            in_insert = False
    for start in reversed(candidates):
        columns = _select_list(body, start)
        if columns is not None:
            return columns or None
    return None


def _select_list(body: list[Token], start: int) -> list[ResultColumn] | None:
    """The columns of the SELECT at ``start``; None when it is not a row-returning SELECT."""
    i = start + 1
    while i < len(body) and body[i].upper in ("DISTINCT", "ALL", "TOP"):
        if body[i].upper == "TOP":
            i += 1
            if body[i].text == "(":
                while body[i].text != ")":
                    i += 1
            i += 1
            if i < len(body) and body[i].upper == "PERCENT":
                i += 1
            continue
        i += 1
    items: list[list[Token]] = [[]]
    depth = 0
    end = i
    while end < len(body):
        tok = body[end]
        if depth == 0 and (tok.upper in _ITEM_END or tok.upper == "INTO" or tok.text == ";"
                           or (tok.upper in _STATEMENT_START and items[-1])):  # fmt: skip
            break
        if tok.text == "(":
            depth += 1
        elif tok.text == ")":
            depth -= 1
        if depth == 0 and tok.text == ",":
            items.append([])
        else:
            items[-1].append(tok)
        end += 1
    if end < len(body) and body[end].upper == "INTO":
        return None  # SELECT … INTO: fills a table or variables
    tail = _statement_tail(body, end)
    if "FOR" in tail:
        return []  # FOR JSON / FOR XML: one generated column, not knowable by name
    aliases = _table_aliases(body, end)
    columns: list[ResultColumn] = []
    for item in items:
        column = _column(item, aliases)
        if column is None:
            return []
        if column.name.startswith("@"):
            return None  # SELECT @x = …: an assignment
        columns.append(column)
    return columns


def _statement_tail(body: list[Token], end: int) -> set[str]:
    words: set[str] = set()
    depth = 0
    for tok in body[end:]:
        depth += (tok.text == "(") - (tok.text == ")")
        if depth < 0 or tok.text == ";" or (depth == 0 and tok.upper in _STATEMENT_START):
            break
        if depth == 0 and tok.upper:
            words.add(tok.upper)
    return words


def _table_aliases(body: list[Token], end: int) -> dict[str, str]:
    """alias (lower) -> table name for FROM/JOIN items of the statement starting at ``end``."""
    aliases: dict[str, str] = {}
    depth = 0
    i = end
    while i < len(body):
        tok = body[i]
        depth += (tok.text == "(") - (tok.text == ")")
        if depth < 0 or tok.text == ";" or (depth == 0 and tok.upper in _STATEMENT_START):
            break
        if depth == 0 and tok.upper in ("FROM", "JOIN"):
            parts, after = read_name(body, i + 1)
            if parts and body[i + 1].kind in ("word", "ident"):
                table = ".".join(parts)
                aliases[parts[-1].lower()] = table
                if after < len(body) and body[after].upper == "AS":
                    after += 1
                if after < len(body) and body[after].kind in ("word", "ident") and body[after].upper not in (
                        "WHERE", "INNER", "LEFT", "RIGHT", "JOIN", "ON", "CROSS", "OUTER", "GROUP", "ORDER",
                        "WITH", "FULL", "FOR", "OPTION", "UNION"):  # fmt: skip
                    aliases[body[after].text.lower()] = table
            i = after
            continue
        i += 1
    return aliases


def _column(item: list[Token], aliases: dict[str, str]) -> ResultColumn | None:
    if not item:
        return None
    if len(item) >= 3 and item[1].text == "=" and item[0].kind in ("word", "ident", "var", "string"):
        return _sourced(item[0].text, item[2:], aliases)  # alias = expression (or @var = … assignment)
    if len(item) >= 3 and item[-2].upper == "AS" and item[-1].kind in ("word", "ident", "string"):
        return _sourced(item[-1].text, item[:-2], aliases)
    if item[-1].text == "*":
        return None
    if (
        len(item) >= 2
        and item[-1].kind in ("word", "ident")
        and item[-2].text != "."
        and item[-2].kind != "op"
    ):
        return _sourced(item[-1].text, item[:-1], aliases)
    if item[-1].kind in ("word", "ident") and (len(item) == 1 or item[-2].text == "."):
        return _sourced(item[-1].text, item, aliases)
    return None


def _sourced(name: str, expression: list[Token], aliases: dict[str, str]) -> ResultColumn:
    """A column read straight from ``alias.column`` (or from the only table) keeps its source."""
    if len(expression) == 3 and expression[1].text == "." and expression[0].text.lower() in aliases:
        return ResultColumn(name, aliases[expression[0].text.lower()], expression[2].text)
    tables = set(aliases.values())
    if len(expression) == 1 and expression[0].kind in ("word", "ident") and len(tables) == 1:
        return ResultColumn(name, next(iter(tables)), expression[0].text)
    return ResultColumn(name, None, None)
