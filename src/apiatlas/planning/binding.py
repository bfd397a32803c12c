"""Which input of an API a stated value fills: by the caller's name for it, or by kind, name and type."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

from apiatlas.catalog.model import CREDENTIAL_PARAMS, Api, SideEffect
from apiatlas.language.actions import ACTION_WORDS
from apiatlas.language.catalog import singular
from apiatlas.language.routes import input_role, said_role
from apiatlas.language.words import NEWEST_WORDS, ORDINALS, PLAIN_WORDS, SENTENCE_WORDS
from apiatlas.planning import values as v
from apiatlas.planning.draft import hint_fit, is_identifier
from apiatlas.planning.lookups import names_fill
from apiatlas.planning.model import InputOrigin
from apiatlas.planning.said_body import says_text
from apiatlas.text import stem

_SEARCHED = re.compile(r"^(search)?(query|q|term|keyword)$|^search$")
_ENTITY_PARAM = re.compile(r"^((search)?(query|q|term|keyword|text)|search|name|title|fullname|shortname)$")


@dataclass(frozen=True)
class Slot:
    """One input of an API: a scalar parameter, or a column of an input table."""

    name: str
    table: str | None
    domain_type: str
    required: bool
    json_type: str = ""
    enum: tuple[str, ...] = ()  # a closed list of values: one of them may be named in the request
    dated: bool = False  # its schema or description says it takes a date (``takes_date``)
    texted: bool = False  # a write's input its name or description says is a text (``says_text``)
    read: bool = False  # an input of a read: a quoted text said after a mark is what any quote is to it


def slots(api: Api) -> list[Slot]:
    """Every input of ``api``: parameters, then input-table columns (a table counts as required)."""
    inputs = frozenset(p.name for p in api.params)
    out = [
        Slot(
            p.name,
            None,
            p.domain_type,
            p.required and p.default is None and p.name.lower() not in CREDENTIAL_PARAMS,
            str(p.json_schema.get("type", "")) if isinstance(p.json_schema, dict) else "",
            tuple(str(e) for e in (p.json_schema.get("enum") or ()) if e is not None)
            or _values_named(described_choices(p.description or ""), inputs),
            takes_date(p.json_schema if isinstance(p.json_schema, dict) else {}, p.description or ""),
            api.side_effect is not SideEffect.READ and says_text(p.name, p.description or ""),
            api.side_effect is SideEffect.READ,
        )
        for p in api.params
    ]
    for table in api.input_tables:
        out.extend(Slot(c.name, table.name, c.domain_type, True) for c in table.columns)
    return out


# alternatives a description names in code marks: "Either `on` or `off`", "`asc`, `desc` or `none`"
_CHOICES = re.compile(r"`([\w.-]+)`(?:(?:\s*,\s*|\s*,?\s+or\s+)`[\w.-]+`)+")
_MARKED = re.compile(r"`([\w.-]+)`")


def _values_named(choices: tuple[str, ...], inputs: frozenset[str]) -> tuple[str, ...]:
    """``choices`` unless one is an input of the API: "Either `text` or `blocks` is required" names the
    inputs to give, no values of this one."""
    return () if inputs.intersection(choices) else choices


@lru_cache(maxsize=8192)
def described_choices(description: str) -> tuple[str, ...]:
    """The closed list of values a string input's description names as alternatives in code marks, joined
    by "or" ("Either `on` or `off`"); () when it names none."""
    run = _CHOICES.search(description)
    if run is None or " or " not in run.group(0):
        return ()
    return tuple(_MARKED.findall(run.group(0)))


@lru_cache(maxsize=8192)
def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9а-я]", "", name.lower())


# a description that opens by naming a date ("Check-in date.", "Departure or travel date") or gives a
# date's format ("Format: YYYY-MM-DD")
_DATE_SAID = re.compile(r"^(?:[\w-]+\s+){0,3}date\b|\byyyy-mm-dd\b", re.IGNORECASE)


def takes_date(schema: dict[str, Any], description: str) -> bool:
    """An input whose JSON schema's format is a date, or whose description says it takes one."""
    return schema.get("format") in ("date", "date-time") or bool(_DATE_SAID.search(description.strip()))


def _is_date(slot: Slot) -> bool:
    return slot.dated or "date" in slot.domain_type.lower() or _norm(slot.name).endswith("date")


def accepts(value: v.ExtractedValue, slot: Slot) -> bool:
    """Whether a value of this kind can fill this input (by the input's name and domain type)."""
    name, dtype = _norm(slot.name), slot.domain_type.lower()
    kind = value.kind
    if kind == v.SURNAME:
        return name in ("surname", "lastname", "familyname") or ("fullname" in dtype and "name" in name)
    if kind == v.FIRST_NAME:
        return name in ("firstname", "givenname", "name") and "surname" not in name
    if kind == v.PATRONYMIC:
        return name in ("patronymic", "middlename")
    if kind == v.DATE_FROM:
        return _is_date(slot) and bool(re.search(r"(from|start|begin)", name))
    if kind == v.DATE_TO:
        return _is_date(slot) and bool(re.search(r"(to|end|till)$", name))
    if kind == v.DATE:
        return (
            _is_date(slot)
            and not re.search(r"(from|start|begin|to|end|birth)$", name)
            and "birth" not in name
        )
    if kind == v.ACCOUNT_NUMBER:
        return "accnumber" in dtype or name in ("accnumber", "accountnumber")
    if kind == v.INN:
        return "inn" in dtype or name == "inn"
    if kind == v.ISIN:
        return "isin" in dtype or name == "isin"
    if kind == v.BODY:  # the text of a thing written: an input of text
        return slot.table is None and slot.json_type in ("", "string") and slot.texted
    if kind == v.ENTITY:
        return (
            slot.table is None and dtype.startswith(("string", "dsvar")) and bool(_ENTITY_PARAM.match(name))
        )
    if kind == v.DOC_NUMBER:  # or the text a required search looks for ("notes mentioning TCK-42")
        said = bool(re.search(r"(number|num|code)$", name)) or (slot.required and bool(_SEARCHED.match(name)))
        return slot.table is None and said and "acc" not in name
    if kind == v.EMAIL:
        return slot.table is None and "email" in name and slot.json_type in ("", "string")
    if kind == v.URL:  # an input taking a web address: ``url``, ``uri``; ``image_url`` when said "image …"
        return (
            slot.table is None and name.endswith(("url", "uri")) and slot.json_type in ("", "string")
            and said_for(slot.name, value.qualifier)
        )  # fmt: skip
    if kind == v.IDENTIFIER:  # "the customer cus_123" → customer; without a noun, an input named …id
        hint = _norm(value.hint)
        # any scalar type: a path's id often has a type of its own ("customer")
        if slot.table is not None or dtype in ("array", "object", "boolean", "number") or "date" in dtype:
            return False
        if hint:  # by the input's name, or by its type: ``GET /v1/events/{id}``'s id is of type "event"
            nouns = (hint, hint.removesuffix("s"), _norm(value.qualifier + hint))  # "payment box": paymentbox
            return name in (*nouns, *(n + "id" for n in nouns)) or _norm(dtype) in nouns
        return name.endswith("id")
    if kind == v.AMOUNT:  # "20 USD": its code is a currency
        return slot.table is None and name == "currency" and slot.json_type in ("", "string")
    if kind == v.NUMBER:  # "the second season" → season_number; an ordinal is never an id ("the first movie")
        return (
            bool(value.hint)
            and value.hint.rstrip("s") in name
            and ("int" in dtype or "number" in dtype)
            and not name.endswith("id")
        )
    return False


_NAME_WORD = re.compile(r"[A-Z]?[a-z]+")


def said_for(name: str, before: str) -> bool:
    """Whether a web address said after ``before`` is for the input ``name``: a plain ``url`` or ``uri``
    takes any, a ``success_url`` one said after "success", a ``return_url`` one after "returning to" (a
    link posted is no ``icon_url``, "success url X" no ``cancel_url``)."""
    words = {w.lower() for w in _NAME_WORD.findall(name)} - {"url", "uri"}
    said = {stem(w) for w in before.split() if len(w) > 2}
    return not words or any(stem(w) in said for w in words)


def _as_input(value: v.ExtractedValue) -> Any:
    """What a stated value passes to the input it fills: an amount's currency code ("20 USD": usd), as
    ``accepts`` lets an amount fill only a currency."""
    return str(value.value).rsplit(" ", 1)[-1].lower() if value.kind == v.AMOUNT else value.value


def fills(value: v.ExtractedValue, slot: Slot) -> bool:
    """Whether a stated value may fill this input (``accepts``; a name of a thing, or a value said to be
    found elsewhere, only a required one)."""
    return _fills(value.kind, value.hint, slot, value.qualifier)


@lru_cache(maxsize=65536)
def _fills(kind: str, hint: str, slot: Slot, qualifier: str = "") -> bool:
    """``fills`` by what it reads of a value: its kind, hint and qualifier."""
    if kind == v.BODY and slot.read:  # "messages with the text "deploy failed"": a search's text, as quoted
        kind = v.ENTITY
    return accepts(v.ExtractedValue(kind, "", "", hint=hint, qualifier=qualifier), slot) and (
        slot.required or (kind != v.ENTITY and hint != v.ELSEWHERE)
    )


@dataclass(frozen=True)
class Bound:
    """A value for one input: given by the caller (``known``) or read from the request (``request``)."""

    origin: InputOrigin
    value: Any
    index: int = -1  # which extracted value (request) it is
    known_as: str = ""  # the caller's name for a known value
    choice: bool = False  # one value of a closed list, named by a request word


def enum_choice(slot: Slot, words: list[str]) -> str | None:
    """The value of a closed list the request names ("web" in "the most visited web page", "day" in
    "today")."""
    for word in words:
        for value in slot.enum:
            low = value.lower()
            if word == low or (len(low) >= 3 and len(word) <= len(low) + 3 and word.endswith(low)):
                return value
    return None


def _choice_named(slot: Slot, found: list[v.ExtractedValue], used: set[int]) -> tuple[int, str] | None:
    """A value of a closed list the request states where a name stands ("Set my presence to away": away,
    read as a name, no request word), and its index in ``found``."""
    for index, value in enumerate(found):
        if index not in used and value.kind in (v.NAME, v.ENTITY):
            choice = enum_choice(slot, [str(value.value).lower()])
            if choice is not None:
                return index, choice
    return None


_TEXT_WORD = re.compile(r"[\w'’-]+")
MIN_NOUN = 5  # shorter input names (id, q, name, type, time) are too generic to say a value beside them


def named_beside(slot: Slot, text: str, kinds: frozenset[str] = frozenset()) -> str | None:
    """A name said beside the noun its input is named for: "the india subreddit", "the channel
    releases", "in namespace shop" -> the word after the noun, else the one before it, when that word is
    no function, asking or action word, no rate's unit ("per month") and names no kind of thing of the
    catalog. Only for a required
    string input named by one word of at least five letters that the request says."""
    noun = slot.name.lower()
    if not (slot.required and slot.table is None and slot.json_type in ("", "string")) or slot.enum:
        return None
    if len(noun) < MIN_NOUN or not noun.isalpha():
        return None
    said, lowered = _said(text)
    if noun not in lowered:
        return None
    at = lowered.index(noun)
    for index in (at + 1, at - 1):
        if index > 0 and lowered[index - 1] == "per":  # "a $20 per month price": a rate's unit
            continue
        if 0 <= index < len(said) and _a_name(lowered[index], noun, kinds):
            return str(said[index]).strip("'’")
    return None


@lru_cache(maxsize=256)
def _said(text: str) -> tuple[list[str], list[str]]:
    """The request's words as written and lower-cased (read once per request, not per input)."""
    said = _TEXT_WORD.findall(text)
    return said, [w.lower() for w in said]


def _a_name(word: str, noun: str, kinds: frozenset[str]) -> bool:
    return (
        word != noun
        and word not in PLAIN_WORDS
        and word not in SENTENCE_WORDS
        and word not in ACTION_WORDS
        and word not in NEWEST_WORDS  # "the latest invoice": which one, said by a list's first item
        and word not in ORDINALS
        and word not in kinds
        and singular(word) not in kinds  # "the channel messages": a kind, plural
        and not word.isdigit()
    )


def _said_for_end(slot: Slot, found: list[v.ExtractedValue], used: set[int], text: str) -> list[int]:
    """The stated names said for the end of a route an input is named for (``from_currency`` takes the
    name said after "from"; identifiers such as ``originSkyId`` come from a lookup, not the text)."""
    role = input_role(slot.name) if text and slot.table is None else ""
    if not role or slot.json_type not in ("", "string") or is_identifier(slot.name, slot.domain_type):
        return []
    return [
        i
        for i, f in enumerate(found)
        if f.kind == v.ENTITY and i not in used and said_role(text, f.text) == role
    ]


def bind(
    api: Api,
    found: list[v.ExtractedValue],
    known: dict[str, Any],
    words: list[str] | None = None,
    kinds: frozenset[str] = frozenset(),
    text: str = "",
    looked_up: Callable[[str], bool] = lambda name: False,
    inputs: list[Slot] | None = None,
) -> dict[tuple[str | None, str], Bound]:
    """The inputs of ``api`` that known or stated values fill: (table, name) -> value (``kinds``: the
    catalog's kinds of things, which a value's hint names; ``text``: the request, whose names said beside
    an input's noun fill it, ``named_beside``; ``looked_up``: whether a list of named items gives an
    input its id, so a name said of the thing is picked from that list, not passed: ``lookups``;
    ``inputs``: ``slots(api)`` when the caller keeps them)."""
    out: dict[tuple[str | None, str], Bound] = {}
    lowered = {k.lower(): val for k, val in known.items()}
    used: set[int] = set()
    for slot in slots(api) if inputs is None else inputs:
        key = (slot.table, slot.name)
        for spelled in (f"{api.key}.{slot.name}".lower(), slot.name.lower()):
            if spelled in lowered:
                out[key] = Bound("known", lowered[spelled], known_as=spelled)
                break
        if key in out:
            continue
        ends = _said_for_end(slot, found, used, text)
        if ends:  # "from Ethereum to USD" into from_currency and to_currency
            out[key] = Bound("request", found[ends[0]].value, ends[0])
            used.add(ends[0])
            continue
        fits = [i for i, value in enumerate(found) if i not in used and fills(value, slot)]
        if fits:  # the value said to be what the API is about ("the band X" to a band search)
            index = (
                fits[0]
                if len(fits) == 1
                else max(fits, key=lambda i: (hint_fit(found[i].hint, api, kinds), -i))
            )
            out[key] = Bound("request", _as_input(found[index]), index)
            used.add(index)
        if key not in out and slot.enum and slot.required:
            choice = enum_choice(slot, words or [])
            if choice is not None:
                out[key] = Bound("request", choice, choice=True)
            elif (named := _choice_named(slot, found, used)) is not None:  # "set my presence to away"
                out[key] = Bound("request", named[1], named[0], choice=True)
                used.add(named[0])
        if key not in out and slot.table is None:
            names = [
                i
                for i, f in enumerate(found)
                if f.kind == v.NAME
                and i not in used
                and names_fill(api, slot.name, f.hint, partial(looked_up, slot.name), kinds)
            ]
            if names:
                out[key] = Bound("request", found[names[0]].value, names[0])
                used.add(names[0])
        if (
            key not in out
            and text
            and (beside := named_beside(slot, text, kinds)) is not None
            and not looked_up(slot.name)
        ):
            out[key] = Bound("request", beside)
    return out
