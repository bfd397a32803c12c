"""A scored path before it becomes a chain, and the rules on its steps (on_many, pass-through, kind fit)."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from typing import Any, Literal

from apiatlas.catalog.model import Api
from apiatlas.language.catalog import singular
from apiatlas.planning.model import CandidateChain, InputOrigin, InputSource, PlannedStep
from apiatlas.planning.values import CODE_HINT


@dataclass(frozen=True, slots=True)
class StepInput:
    """Where one input of a draft's step comes from (an ``InputSource`` once the chain is kept)."""

    name: str
    table: str | None
    origin: InputOrigin
    value: Any = None
    from_step: int | None = None
    from_table: str | None = None
    from_field: str | None = None
    level: str | None = None
    confidence: float = 1.0
    required: bool = True
    domain_type: str = ""
    pick_field: str | None = None  # the list's name field the item is picked by (``lookups``)
    pick_value: Any = None
    pick_first: bool = False  # the list's first item: the newest one the request asks for (``lookups``)

    def shifted(self, by: int) -> StepInput:
        """This input with its producer step ``by`` steps later (steps were put before it)."""
        if self.origin != "step" or self.from_step is None:
            return self
        return replace(self, from_step=self.from_step + by)

    def source(self) -> InputSource:
        return InputSource(**asdict(self))


StepInputs = list[StepInput]


@dataclass
class Draft:
    """A scored path before it becomes a ``CandidateChain`` (only the best few are built)."""

    apis: list[Api]
    inputs: list[StepInputs]
    score: float
    confidence: float
    missing: list[str]
    why: list[str]
    terms: dict[str, float] = field(default_factory=dict)  # the score's parts by name (for tuning)
    used: frozenset[int] = frozenset()  # the stated values (indexes) its steps take
    unused: frozenset[int] = frozenset()  # stated names and numbers none of its steps takes
    covered: float = 0.0  # share of the request words its steps cover (each by its strength)
    uncovered: float = 0.0  # request words its steps do not cover, each by the strength it lacks

    def build(self) -> CandidateChain:
        steps = [
            PlannedStep(
                api=api.key,
                title=api.title,
                inputs=[i.source() for i in inputs],
                on_many=on_many(self.inputs, inputs),
            )
            for api, inputs in zip(self.apis, self.inputs, strict=True)
        ]
        return CandidateChain(
            steps=steps, score=self.score, entry_point=self.apis[0].key, target=self.apis[-1].key,
            confidence=self.confidence, missing=self.missing, why=self.why, covered=self.covered,
            uncovered=self.uncovered,
        )  # fmt: skip


def on_many(chain: list[StepInputs], inputs: StepInputs) -> Literal["all", "first", "stop", "each"]:
    """What a step does when a mapped argument gets several values.

    From an entry step's matches for a stated name or number: the first match of a ranked list
    (``results[].id``), else stop and ask the user which one (fifteen people of one surname);
    from any later step: fan out, once per value (the balance of each of his accounts).
    """
    mapped = [i for i in inputs if i.origin == "step" and i.table is None]
    if not mapped:
        return "all"
    if any(i.pick_first for i in mapped):
        return "first"  # "the latest message": the first item of the list
    source = mapped[0]
    producer = chain[source.from_step or 0]
    entry_looks_up = not any(i.origin == "step" for i in producer) and any(
        i.origin in ("request", "known") and not is_identifier(i.name, "") for i in producer
    )  # a name, a number or a title: its matches are candidates for one thing, not a list to go through
    if entry_looks_up:
        return "first" if "[]" in str(source.from_field) else "stop"
    return "each"


FOREIGN_KEY_FACTOR = 0.8  # a field that is another entity's id (a deposit's AccountID) feeds less surely
_ID_NAME = re.compile(r"(^id$|ID$|_id$|Id$|\.id$|\[\]\.id$)")


def passes_through(producer_inputs: StepInputs, source: StepInput) -> bool:
    """Whether ``source`` reads back a value its producer step was itself given by the step before.

    A status lookup between a lookup of a thing and the thing's orders only returns the id it
    received; ``GET /book/{book_id}/keywords`` only hands on the book's ``id``.
    """
    field = source.from_field or ""
    if "." in field or "[]" in field:
        return False
    received = [i for i in producer_inputs if i.origin == "step"]
    if not received:
        return False
    names = {i.name.lower() for i in received}
    return field.lower() in names or (field.lower() == "id" and len(received) == 1)


def nested_list(field: str) -> bool:
    """Whether ``field`` lies in a list inside each row of a list (``results[].known_for[].id``: the
    things each matched person is known for): things the rows mention in passing, not ones the request
    picks; "his latest book" is read from the API that lists them (``/author/{id}/books``)."""
    return field.count("[]") >= 2


def is_identifier(name: str, domain_type: str) -> bool:
    return "IDENTIFIER" in domain_type.upper() or domain_type.endswith(":id") or bool(_ID_NAME.search(name))


_ALTERNATIVES = re.compile(r"_or_|(?<=[a-z0-9])Or(?=[A-Z])")


@lru_cache(maxsize=65536)
def takes_an_identifier(name: str, domain_type: str) -> bool:
    """An identifier input, or one named as alternatives of which one is an identifier
    (``username_or_id_or_url``, ``nameOrId``): a hop into it reaches the thing, not a shared attribute."""
    parts = [p for p in _ALTERNATIVES.split(name) if p]
    return is_identifier(name, domain_type) or (len(parts) > 1 and any(is_identifier(p, "") for p in parts))


def ids_only(api: Api) -> float:
    """1 when every output column is an identifier (an id list is a step towards data, not the data)."""
    columns = [c for t in api.output_tables for c in t.columns]
    return 1.0 if columns and all(is_identifier(c.name, c.domain_type) for c in columns) else 0.0


def own_key(api: Api, table: str | None, field: str) -> bool:
    """Whether ``field`` identifies the rows the producer returns (its first column, or the items' ``id``)."""
    found = next((t for t in api.output_tables if t.name == table), None)
    if found is None or not found.columns:
        return True
    if found.columns[0].name == field:
        return True
    parts = field.split(".")
    return parts[-1] == "id" and field.count("[]") <= 1 and len(parts) <= 2


def hint_fit(hint: str, api: Api, kinds_of_catalog: frozenset[str]) -> float:
    """+1 when a named value goes to an API about the kind of thing the request says it is, -1 when not
    (``kinds_of_catalog``: ``CatalogVocabulary.kind_set``)."""
    if not hint:
        return 0.0
    if hint.startswith(CODE_HINT):
        return code_fit(hint[len(CODE_HINT) :], api)
    words = set(re.findall(r"[a-z]+", re.sub(r"\{[^}]*\}", " ", api.key.lower())))
    kinds = words & kinds_of_catalog
    if hint.startswith("-"):
        return -1.0 if hint[1:] in kinds else 0.0
    if not kinds or hint in {singular(w) for w in words}:
        return 1.0 if hint in kinds else 0.0  # ``/charges/{charge}/dispute`` is about a charge too
    return 1.0 if hint in kinds else -0.6


_CAMEL = re.compile(r"[A-Z][a-z0-9]*|[a-z0-9]+")


def code_fit(prefix: str, api: Api) -> float:
    """+1 when a number's letter prefix abbreviates the API's object or name (DS- → ``DSec``,
    ``DealSecurity``; FX- → ``DFx``), -0.6 when it does not (a repo deal's lookup for DS-…)."""
    low = prefix.lower()
    segments = [s for s in api.key.split("_") if s and s.upper() != "API"][:1]
    return 1.0 if any(_abbreviates(low, name) for name in [api.object_key, *segments]) else -0.6


@lru_cache(maxsize=1 << 14)
def _abbreviates(low: str, name: str) -> bool:
    """Whether the lower-case letters ``low`` are the initials of the words of ``name`` or open some of
    its last words (remembered: a catalog's APIs share their objects' names)."""
    parts = _CAMEL.findall(name)
    if not parts:
        return False
    initials = "".join(p[0] for p in parts).lower()
    return initials == low or any("".join(parts[i:]).lower().startswith(low) for i in range(len(parts)))
