"""Load the sample bank's hand-written evaluation sets (retrieval requests, gold call chains) from YAML."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import Any, Literal, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from apiatlas.errors import ApiatlasError, Location, ReasonCode

__all__ = [
    "BANK_EVAL_DIR",
    "ChainCase",
    "ChainSet",
    "EvalDataError",
    "KnownValue",
    "OutOfCatalogRequest",
    "RetrievalRequest",
    "RetrievalSet",
    "load_chain_set",
    "load_retrieval_set",
]

BANK_EVAL_DIR = Path(__file__).resolve().parents[3] / "examples" / "bank" / "eval"
"""``examples/bank/eval`` of the source checkout: ``retrieval.yaml`` and ``chains.yaml``."""

Lang = Literal["ru", "en"]
KnownValue = str | int | float | bool
_ID = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")
_LONG_INT_DIGITS = 10  # unquoted numbers this long are account numbers or INNs: YAML would mangle them


class EvalDataError(ApiatlasError):
    """An evaluation file is missing, is not YAML, or holds an entry that breaks the format."""

    code = ReasonCode.SCHEMA_ERROR


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(description="Stable id of the entry, lower case (e.g. 'acc-rest-03').")
    query: str = Field(min_length=3, description="The request as a user would type it.")
    lang: Lang = Field(default="ru", description="Language of the request.")
    note: str = Field(default="", description="Why the gold answer is what it is (for humans).")

    @field_validator("id")
    @classmethod
    def _id_shape(cls, value: str) -> str:
        if not _ID.match(value):
            raise ValueError(f"id {value!r} must be lower-case letters, digits, '-', '_' or '.'")
        return value

    @field_validator("query")
    @classmethod
    def _query_trimmed(cls, value: str) -> str:
        return " ".join(value.split())


def _distinct_keys(keys: list[str], what: str) -> list[str]:
    if any(not k.strip() for k in keys):
        raise ValueError(f"{what} holds an empty API key")
    if len(set(keys)) != len(keys):
        raise ValueError(f"{what} repeats an API key: {keys}")
    return keys


class RetrievalRequest(_Entry):
    """A request the catalog can serve, with the API(s) that answer it."""

    gold: list[str] = Field(min_length=1, max_length=3, description="API keys that answer the request.")

    @field_validator("gold")
    @classmethod
    def _gold_distinct(cls, value: list[str]) -> list[str]:
        return _distinct_keys(value, "gold")


class OutOfCatalogRequest(_Entry):
    """A request no kept API can serve: search should abstain."""

    kind: Literal["unrelated", "bank_absent", "dropped"] = Field(
        description="unrelated: not banking; bank_absent: banking, but the documentation has no such API; "
        "dropped: the documentation has it but the funnel removes it (write, not approved, forbidden, ...)."
    )
    absent_api: list[str] = Field(
        default_factory=list, description="For kind 'dropped': the documented APIs the funnel removed."
    )

    @field_validator("absent_api")
    @classmethod
    def _absent_distinct(cls, value: list[str]) -> list[str]:
        return _distinct_keys(value, "absent_api")


class ChainCase(_Entry):
    """A request with its gold call chain and the values the request itself gives."""

    known: dict[str, KnownValue] = Field(
        default_factory=dict, description="Input name -> value stated in the request (e.g. SurName: Михалов)."
    )
    chain: list[str] = Field(min_length=1, max_length=4, description="API keys in call order.")
    also_ok: list[list[str]] = Field(
        default_factory=list, description="Other chains that answer the request equally well (rare)."
    )

    @field_validator("known", mode="before")
    @classmethod
    def _known_values(cls, value: Any) -> Any:
        if not isinstance(value, dict):
            return value
        out: dict[Any, Any] = {}
        for name, item in value.items():
            if isinstance(item, date):
                item = item.isoformat()  # YAML reads 2026-03-31 as a date; inputs take ISO strings
            elif (
                isinstance(item, int)
                and not isinstance(item, bool)
                and len(str(abs(item))) >= _LONG_INT_DIGITS
            ):
                raise ValueError(
                    f"known value {name}: {item} is a long unquoted number; quote it "
                    "(account numbers and INNs are strings, YAML drops leading zeros)"
                )
            out[name] = item
        return out

    @field_validator("chain")
    @classmethod
    def _chain_distinct(cls, value: list[str]) -> list[str]:
        return _distinct_keys(value, "chain")

    @field_validator("also_ok")
    @classmethod
    def _alternatives(cls, value: list[list[str]]) -> list[list[str]]:
        for alternative in value:
            if not 1 <= len(alternative) <= 4:
                raise ValueError("every also_ok chain has 1 to 4 steps")
            _distinct_keys(alternative, "also_ok chain")
        return value


class RetrievalSet(BaseModel):
    """Requests with gold APIs, plus requests the catalog cannot serve."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    description: str = ""
    source: str = ""  # file the set was loaded from
    requests: list[RetrievalRequest]
    out_of_catalog: list[OutOfCatalogRequest] = Field(default_factory=list)

    def gold_keys(self) -> set[str]:
        """Every API key named as a gold answer."""
        return {key for q in self.requests for key in q.gold}


class ChainSet(BaseModel):
    """Requests with gold call chains."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    description: str = ""
    source: str = ""
    cases: list[ChainCase]

    def api_keys(self) -> set[str]:
        """Every API key used by a gold or alternative chain."""
        return {key for c in self.cases for chain in [c.chain, *c.also_ok] for key in chain}


# --- loading ---------------------------------------------------------------------------------------------

_E = TypeVar("_E", bound=_Entry)


def load_retrieval_set(path: Path | str) -> RetrievalSet:
    """Read ``retrieval.yaml``: ``name``, ``description``, ``requests`` and ``out_of_catalog`` lists.

    Raises ``EvalDataError`` (file, line, entry id) for a missing file, bad YAML, an unknown field,
    an entry without gold, a repeated id or a repeated request.
    """
    path = Path(path)
    data, lines = _read(path, sections=("requests", "out_of_catalog"))
    requests = _entries(path, data, lines, "requests", RetrievalRequest, required=True)
    outside = _entries(path, data, lines, "out_of_catalog", OutOfCatalogRequest, required=False)
    _check_unique(path, lines, [("requests", requests), ("out_of_catalog", outside)])
    return RetrievalSet(
        name=_header(path, data, "name"),
        description=str(data.get("description") or ""),
        source=str(path),
        requests=requests,
        out_of_catalog=outside,
    )


def load_chain_set(path: Path | str) -> ChainSet:
    """Read ``chains.yaml``: ``name``, ``description`` and a ``cases`` list (query, known, chain).

    Raises ``EvalDataError`` (file, line, entry id) for a missing file, bad YAML, an unknown field,
    an empty or over-long chain, a long unquoted number, a repeated id or a repeated request.
    """
    path = Path(path)
    data, lines = _read(path, sections=("cases",))
    cases = _entries(path, data, lines, "cases", ChainCase, required=True)
    _check_unique(path, lines, [("cases", cases)])
    return ChainSet(
        name=_header(path, data, "name"),
        description=str(data.get("description") or ""),
        source=str(path),
        cases=cases,
    )


def _read(path: Path, sections: tuple[str, ...]) -> tuple[dict[str, Any], dict[str, list[int]]]:
    """The top-level mapping of the file and, per section, the 1-based line of each list item."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise EvalDataError(
            f"evaluation file not found: {path}",
            code=ReasonCode.INVALID_ARGUMENT,
            location=Location(file=str(path)),
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise EvalDataError(f"cannot read evaluation file: {exc}", location=Location(file=str(path))) from exc
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        raise EvalDataError(f"not valid YAML: {exc}", location=Location(file=str(path), line=line)) from exc
    if not isinstance(data, dict) or not isinstance(root, yaml.MappingNode):
        raise EvalDataError(
            "the file must hold a mapping (name, description, lists)", location=Location(file=str(path))
        )
    lines: dict[str, list[int]] = {}
    for key_node, value_node in root.value:
        if (
            isinstance(key_node, yaml.ScalarNode)
            and key_node.value in sections
            and isinstance(value_node, yaml.SequenceNode)
        ):
            lines[key_node.value] = [item.start_mark.line + 1 for item in value_node.value]
    return data, lines


def _header(path: Path, data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise EvalDataError(f"missing or empty top-level '{key}'", location=Location(file=str(path), line=1))
    return value


def _entries(
    path: Path,
    data: dict[str, Any],
    lines: dict[str, list[int]],
    section: str,
    model: type[_E],
    *,
    required: bool,
) -> list[_E]:
    raw = data.get(section)
    if raw is None and not required:
        return []
    if not isinstance(raw, list) or (required and not raw):
        raise EvalDataError(
            f"'{section}' must be a non-empty list", location=Location(file=str(path), anchor=section)
        )
    out: list[_E] = []
    for index, item in enumerate(raw):
        line = lines.get(section, [])[index] if index < len(lines.get(section, [])) else None
        anchor = f"{section}[{index}]"
        if isinstance(item, dict) and isinstance(item.get("id"), str):
            anchor += f" id={item['id']}"
        location = Location(file=str(path), line=line, anchor=anchor)
        if not isinstance(item, dict):
            raise EvalDataError("each entry must be a mapping", location=location)
        try:
            out.append(model.model_validate(item))
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or 'entry'}: {err['msg']}" for err in exc.errors()
            )
            raise EvalDataError(f"bad entry: {problems}", location=location) from None
    return out


def _check_unique(path: Path, lines: dict[str, list[int]], sections: list[tuple[str, list[Any]]]) -> None:
    """Ids are unique across the file; a request text appears once."""
    seen_ids: dict[str, str] = {}
    seen_queries: dict[str, str] = {}
    for section, entries in sections:
        for index, entry in enumerate(entries):
            line_list = lines.get(section, [])
            location = Location(
                file=str(path),
                line=line_list[index] if index < len(line_list) else None,
                anchor=f"{section}[{index}] id={entry.id}",
            )
            if entry.id in seen_ids:
                raise EvalDataError(
                    f"id {entry.id!r} already used at {seen_ids[entry.id]}", location=location
                )
            seen_ids[entry.id] = f"{section}[{index}]"
            text = entry.query.casefold()
            if text in seen_queries:
                raise EvalDataError(
                    f"request {entry.query!r} already appears as {seen_queries[text]}", location=location
                )
            seen_queries[text] = entry.id
