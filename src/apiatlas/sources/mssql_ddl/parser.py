"""Parses one T-SQL file: CREATE PROCEDURE/FUNCTION, CREATE TYPE … AS TABLE, sp_addextendedproperty."""

from __future__ import annotations

from dataclasses import dataclass, field

from apiatlas.sources.sql_body import Dialect, Token, is_name, read_name, tokenize

DESCRIPTION_PROPERTIES = ("MS_Description", "Description")


@dataclass
class RoutineParam:
    name: str  # without '@'
    type_name: str  # e.g. 'nvarchar(100)', 'Website.OrderList'
    default: str | None = None  # the default as written (None: no default)
    output: bool = False
    readonly: bool = False  # table-valued parameter


@dataclass
class Routine:
    schema: str
    name: str
    kind: str  # procedure | function
    params: list[RoutineParam]
    body: list[Token]
    line: int
    returns: str | None = None  # functions: scalar type, 'TABLE' or '@var TABLE'


@dataclass
class TableTypeColumn:
    name: str
    type_name: str
    nullable: bool = True


@dataclass
class TableType:
    schema: str
    name: str
    columns: list[TableTypeColumn]
    line: int


@dataclass
class ExtendedProperty:
    name: str
    value: str
    levels: list[tuple[str, str]]  # [(level type upper, object name), ...] level0 first
    line: int


@dataclass
class SqlFile:
    """What one .sql file defines."""

    routines: list[Routine] = field(default_factory=list)
    table_types: list[TableType] = field(default_factory=list)
    properties: list[ExtendedProperty] = field(default_factory=list)
    problems: list[tuple[int, str]] = field(default_factory=list)  # (line, message)


def parse_sql_file(text: str) -> SqlFile:
    """Everything ``text`` (one file, batches separated by GO) defines; never raises on bad SQL."""
    tokens = tokenize(text, Dialect.TSQL)
    result = SqlFile()
    starts = [i for i, t in enumerate(tokens) if t.upper == "CREATE" or t.upper in ("EXEC", "EXECUTE")]
    batch_ends = [i for i, t in enumerate(tokens) if t.upper == "GO"] + [len(tokens)]
    for i in starts:
        end = next(e for e in batch_ends if e > i)
        try:
            _parse_statement(tokens, i, end, result)
        except (IndexError, ValueError) as exc:
            result.problems.append((tokens[i].line, f"could not parse the statement: {exc}"))
    return result


def _parse_statement(tokens: list[Token], i: int, end: int, out: SqlFile) -> None:
    word = tokens[i].upper
    if word == "CREATE":
        j = i + 1
        if tokens[j].upper == "OR" and tokens[j + 1].upper == "ALTER":
            j += 2
        kind = tokens[j].upper
        if kind in ("PROC", "PROCEDURE", "FUNCTION") and _starts_batch(tokens, i):
            out.routines.append(_routine(tokens, j, end, "function" if kind == "FUNCTION" else "procedure"))
        elif kind == "TYPE":
            table_type = _table_type(tokens, j + 1, end)
            if table_type is not None:
                out.table_types.append(table_type)
    elif i + 1 < end:
        parts, after = read_name(tokens, i + 1)
        if parts and parts[-1].lower() == "sp_addextendedproperty":
            prop = _extended_property(tokens, after, end)
            if prop is not None:
                out.properties.append(prop)


def _starts_batch(tokens: list[Token], i: int) -> bool:
    """CREATE PROCEDURE must be the first statement of its batch (a CREATE inside a body is not one)."""
    return i == 0 or tokens[i - 1].upper == "GO"


def _routine(tokens: list[Token], j: int, end: int, kind: str) -> Routine:
    line = tokens[j].line
    parts, k = read_name(tokens, j + 1)
    if not parts or k > end:
        raise ValueError(f"CREATE {kind.upper()} without a name")
    schema, name = (parts[-2], parts[-1]) if len(parts) >= 2 else ("dbo", parts[-1])
    params: list[RoutineParam] = []
    wrapped = tokens[k].text == "("
    if wrapped:
        k += 1
    while k < end and tokens[k].kind == "var":
        param, k = _param(tokens, k, end)
        params.append(param)
        if tokens[k].text == ",":
            k += 1
    if wrapped and tokens[k].text == ")":
        k += 1
    returns: str | None = None
    if kind == "function" and tokens[k].upper == "RETURNS":
        k += 1
        if tokens[k].kind == "var":
            returns = f"{tokens[k].text} TABLE"
            k += 2
            k = _skip_parens(tokens, k)
        else:
            returns, k = _type_name(tokens, k)
    while k < end and tokens[k].upper != "AS":  # WITH EXECUTE AS OWNER, WITH SCHEMABINDING, FOR REPLICATION
        if tokens[k].upper == "EXECUTE" and tokens[k + 1].upper == "AS":
            k += 3
            continue
        k += 1
    return Routine(schema=schema, name=name, kind=kind, params=params, body=tokens[k + 1 : end], line=line,
                   returns=returns)  # fmt: skip


def _param(tokens: list[Token], k: int, end: int) -> tuple[RoutineParam, int]:
    name = tokens[k].text.lstrip("@")
    k += 1
    if tokens[k].upper == "AS":
        k += 1
    type_name, k = _type_name(tokens, k)
    param = RoutineParam(name=name, type_name=type_name)
    while k < end and tokens[k].text not in (",", ")") and tokens[k].upper not in ("AS", "WITH", "FOR"):
        word = tokens[k].upper
        if tokens[k].text == "=":
            k += 1
            start = k
            depth = 0
            while k < end and (depth > 0 or (tokens[k].text not in (",", ")") and tokens[k].upper not in (
                    "OUT", "OUTPUT", "READONLY", "AS", "WITH", "FOR"))):  # fmt: skip
                depth += (tokens[k].text == "(") - (tokens[k].text == ")")
                k += 1
            param.default = " ".join(_show(t) for t in tokens[start:k])
            continue
        if word in ("OUT", "OUTPUT"):
            param.output = True
        elif word == "READONLY":
            param.readonly = True
        k += 1
    return param, k


def _type_name(tokens: list[Token], k: int) -> tuple[str, int]:
    parts, k = read_name(tokens, k)
    text = ".".join(parts)
    if k < len(tokens) and tokens[k].text == "(":
        close = _skip_parens(tokens, k)
        text += "(" + "".join(t.text for t in tokens[k + 1 : close - 1]) + ")"
        k = close
    if k < len(tokens) and tokens[k].upper == "VARYING":
        k += 1
    return text.lower() if len(parts) == 1 else text, k


def _skip_parens(tokens: list[Token], k: int) -> int:
    """Index after the parenthesised group opening at ``k`` (``k`` itself when no '(' is there)."""
    if k >= len(tokens) or tokens[k].text != "(":
        return k
    depth = 0
    while k < len(tokens):
        depth += (tokens[k].text == "(") - (tokens[k].text == ")")
        k += 1
        if depth == 0:
            return k
    return k


def _show(token: Token) -> str:
    return f"'{token.text}'" if token.kind == "string" else token.text


def _table_type(tokens: list[Token], k: int, end: int) -> TableType | None:
    line = tokens[k].line
    parts, k = read_name(tokens, k)
    if not (tokens[k].upper == "AS" and tokens[k + 1].upper == "TABLE" and tokens[k + 2].text == "("):
        return None
    schema, name = (parts[-2], parts[-1]) if len(parts) >= 2 else ("dbo", parts[-1])
    close = _skip_parens(tokens, k + 2)
    columns: list[TableTypeColumn] = []
    k += 3
    while k < close - 1:
        if is_name(tokens[k]) and tokens[k].upper not in (
            "PRIMARY",
            "INDEX",
            "UNIQUE",
            "CONSTRAINT",
            "CHECK",
        ):
            col_name = tokens[k].text
            type_name, k = _type_name(tokens, k + 1)
            nullable = True
            depth = 0
            while k < close - 1 and (depth > 0 or tokens[k].text != ","):
                depth += (tokens[k].text == "(") - (tokens[k].text == ")")
                if tokens[k].upper == "NOT" and tokens[k + 1].upper == "NULL":
                    nullable = False
                k += 1
            columns.append(TableTypeColumn(col_name, type_name, nullable))
        else:
            depth = 0
            while k < close - 1 and (depth > 0 or tokens[k].text != ","):
                depth += (tokens[k].text == "(") - (tokens[k].text == ")")
                k += 1
        k += 1
    return TableType(schema=schema, name=name, columns=columns, line=line)


_PROPERTY_ARGS = ("name", "value", "level0type", "level0name", "level1type", "level1name", "level2type",
                  "level2name")  # fmt: skip


def _extended_property(tokens: list[Token], k: int, end: int) -> ExtendedProperty | None:
    line = tokens[k - 1].line
    values: dict[str, str] = {}
    position = 0
    while k < end and tokens[k].text != ";" and tokens[k].upper not in ("EXEC", "EXECUTE", "GO"):
        if tokens[k].kind == "var" and k + 1 < end and tokens[k + 1].text == "=":
            key = tokens[k].text.lstrip("@").lower()
            values[key] = tokens[k + 2].text if tokens[k + 2].upper != "NULL" else ""
            k += 3
        elif tokens[k].text == ",":
            k += 1
            continue
        else:
            if position < len(_PROPERTY_ARGS):
                values[_PROPERTY_ARGS[position]] = tokens[k].text if tokens[k].upper != "NULL" else ""
            position += 1
            k += 1
            continue
        position += 1
    if "name" not in values or "value" not in values:
        return None
    levels: list[tuple[str, str]] = []
    for n in range(3):
        level_type, level_name = values.get(f"level{n}type", ""), values.get(f"level{n}name", "")
        if not level_type:
            break
        levels.append((level_type.upper(), level_name))
    return ExtendedProperty(name=values["name"], value=values["value"], levels=levels, line=line)
