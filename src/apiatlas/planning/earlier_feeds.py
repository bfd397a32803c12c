"""A later action's inputs taken from the steps of the actions before it (``combined.join_chains``): an
input the user was to give fed by an earlier step an edge leads from, or given as an earlier step's
same-named input was, or a search text by the name an earlier step found; a name said again taken from
the earlier step's result that names it."""

from __future__ import annotations

import re

from apiatlas.planning.lookups import OWN_ID_FIELDS, singular_kind
from apiatlas.planning.model import LEVEL_CONFIDENCE, InputSource, PlannedStep
from apiatlas.planning.snapshot_reads import SnapshotCache


def fed_from_earlier(
    source: InputSource, api: str, earlier: list[PlannedStep], cache: SnapshotCache, searched: bool = False
) -> InputSource:
    """A later action's input the user was to give, fed by the nearest earlier step an edge leads from
    (the strongest edge first), else as the same-named input of an earlier step is (the namespace a
    thing was created in is the one to act in next); else (``searched``) a search text (``query``,
    ``q``) by the name of the thing the first earlier step given a stated name found (``_own_name``:
    "I need hotel options" after the weather of Miami searches Miami); else as it was."""
    strongest = cache.strongest_by_producer(api, source.table, source.name)
    best: tuple[int, int] | None = None
    for index in range(len(earlier) - 1, -1, -1):
        edge = strongest.get(earlier[index].api)
        if edge is not None:
            rank = (edge.rank, len(earlier) - index)
            if best is None or rank < best:
                best = (rank[0], index)
    if best is not None:
        edge = strongest[earlier[best[1]].api]
        return source.model_copy(
            update={
                "origin": "step", "from_step": best[1], "from_table": edge.producer_table,
                "from_field": edge.producer_field, "level": edge.level.value,
                "confidence": LEVEL_CONFIDENCE[edge.level.value],
            }
        )  # fmt: skip
    name = source.name.lower()
    for step in reversed(earlier):
        given = next((s for s in step.inputs if s.name.lower() == name and s.origin != "user"), None)
        if given is not None:  # the same value: as stated, or from the same field of the same step
            kept = ("origin", "value", "from_step", "from_table", "from_field", "level", "confidence")
            return source.model_copy(update={k: getattr(given, k) for k in kept})
    named = _field_named(source, earlier, cache)
    if named is not None:
        return named
    return _searched_by_name(source, earlier, cache) if searched else source


def _field_named(source: InputSource, earlier: list[PlannedStep], cache: SnapshotCache) -> InputSource | None:
    """An input named for a kind of the catalog (``report``) fed by the nearest earlier step whose result
    has a field of that name at its top ("Approve draft D, then show the report it made": the approved
    draft's ``report``), where the graph holds no edge from it (a large catalog's graph keeps a few edges
    into each input); None when none has, and for an input ``id``: every result has an ``id`` of its own
    thing, no id of the thing the input takes ("Retrieve payout P, then the balance transaction it made")."""
    name = source.name.lower()
    if name in OWN_ID_FIELDS or singular_kind(name) not in cache.vocabulary.kind_set:
        return None
    for index in range(len(earlier) - 1, -1, -1):
        api = cache.api(earlier[index].api)
        table = next(
            (t.name for t in (api.output_tables if api is not None else []) for c in t.columns
             if c.name.lower() == name),
            None,
        )  # fmt: skip
        if table is not None:
            return source.model_copy(
                update={"origin": "step", "from_step": index, "from_table": table, "from_field": source.name,
                        "level": "name_type", "confidence": LEVEL_CONFIDENCE["name_type"]}
            )  # fmt: skip
    return None


_SEARCH_TEXT = re.compile(r"^(?:search)?(?:query|q|term|keyword|text)$|^search$")


def _searched_by_name(source: InputSource, earlier: list[PlannedStep], cache: SnapshotCache) -> InputSource:
    """A search text no earlier step feeds, taken from the first earlier step given a stated name, as
    that step's result names the thing (``_own_name``); else as it was."""
    if not _SEARCH_TEXT.match(re.sub(r"[^a-z]", "", source.name.lower())):
        return source
    for index, step in enumerate(earlier):
        if not any(i.origin == "request" and isinstance(i.value, str) for i in step.inputs):
            continue
        found = _own_name(cache, step.api)
        if found is not None:
            return source.model_copy(
                update={"origin": "step", "from_step": index, "from_table": found[0], "from_field": found[1],
                        "level": "alias", "confidence": LEVEL_CONFIDENCE["alias"]}
            )  # fmt: skip
    return source


NAMED_KINDS = frozenset(("entity", "name"))  # ``values.ENTITY``, ``values.NAME``: things said by name


def named_again(
    source: InputSource, earlier: list[PlannedStep], cache: SnapshotCache, names: set[str]
) -> InputSource:
    """A name an earlier action's step was given too ("the forecast … for Cape Town, and its time zone
    for Cape Town"; "New York City" then "New York"), taken from that step's result where it names the
    thing it was asked about (a ``name`` field of its output, outside any list: ``location.name``): one
    place looked up once, every later call on the name that call found. Else as it was."""
    said = str(source.value).lower() if source.origin == "request" else ""
    if not said or said not in names:
        return source
    for index, step in enumerate(earlier):
        if not any(_same_name(said, i) for i in step.inputs):
            continue
        found = _own_name(cache, step.api)
        if found is not None:
            table, field = found
            return source.model_copy(
                update={"origin": "step", "value": None, "from_step": index, "from_table": table,
                        "from_field": field, "level": "alias", "confidence": LEVEL_CONFIDENCE["alias"]}
            )  # fmt: skip
    return source


def _same_name(said: str, given: InputSource) -> bool:
    """An input given the same name, or one whose words hold the other's ("New York City", "New York")."""
    if given.origin != "request" or not isinstance(given.value, str):
        return False
    one, other = f" {said} ", f" {given.value.lower()} "
    return one in other or other in one


def _own_name(cache: SnapshotCache, key: str) -> tuple[str, str] | None:
    """The output field naming what the API returns about: a string ``name`` outside any list, the
    shallowest first."""
    api = cache.api(key)
    fields = [
        (c.name.count("."), t.name, c.name)
        for t in (api.output_tables if api is not None else [])
        for c in t.columns
        if c.name.split(".")[-1].lower() == "name" and "[]" not in c.name
    ]
    return (min(fields)[1], min(fields)[2]) if fields else None
