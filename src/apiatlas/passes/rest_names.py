"""Names in REST operations: resources named by parameters and paths, list containers, field nesting."""

from __future__ import annotations

import re

from apiatlas.catalog.model import Api, Param
from apiatlas.language.catalog import singular

PAGINATION = frozenset(
    {"page", "per_page", "page_size", "limit", "offset", "cursor", "total_pages", "total_results", "count"}
)
# names of a path parameter that identify the item of the collection before it (``/pods/{name}``)
ITEM_KEYS = frozenset({"id", "name", "key", "slug", "uid", "uuid", "code", "number"})
_WORD = re.compile(r"[A-Za-z][a-z0-9]*|[A-Z]+(?![a-z])")


def name_singular(word: str) -> str:
    """A field or parameter name's singular in lower case (``companies`` -> ``company``, ``people`` ->
    ``person``): ``language.catalog.singular``, a short name keeping its ``s`` (``ts``, ``ids``)."""
    return singular(word, short=False)


def is_identifier(domain_type: str) -> bool:
    """``string:id``, ``integer:id``: the type the sources give a field named as an identifier."""
    return domain_type.endswith(":id")


def id_resource(name: str) -> str | None:
    """``author_id`` / ``authorId`` -> ``author``; None when the name does not end in an id."""
    for suffix in ("_id", "-id", "Id", "ID"):
        if name.endswith(suffix) and len(name) > len(suffix):
            return name_singular(name[: -len(suffix)].rstrip("_-"))
    return None


def param_resource(api: Api, param: Param) -> str | None:
    """The resource a parameter names: from its own name, else the path segment before ``{param}``."""
    own = id_resource(param.name)
    if own:
        return own
    if param.location != "path":
        return None
    segments = str(api.extra.get("path", api.key.split(" ", 1)[-1])).strip("/").split("/")
    marker = "{" + param.name + "}"
    if marker in segments:
        at = segments.index(marker)
        before = [s for s in segments[:at] if not s.startswith("{")]
        if before and segments[at - 1] == before[-1]:
            resource = name_singular(before[-1])
            if param.name.casefold() in ITEM_KEYS or resource in words(param.name):
                return resource
    return None


def takes_ids(param: Param, resource: str) -> bool:
    """Whether the parameter holds the resource's ``id`` (``person_id``, ``{customer}``, ``{id}``),
    not another key of it (``{season_number}``, ``{name}``: exact names link those)."""
    name = param.name.casefold()
    return (
        id_resource(param.name) is not None
        or name in ("id", "uid", "uuid")
        or name_singular(name) == resource
    )


def nesting(field: str) -> tuple[bool, int, int]:
    """Rank of a field's place: one list level first (``results[].id``, ``items[].metadata.name``),
    then the top level, then deeper lists; fewer nested objects first."""
    lists = field.count("[]")
    return (lists != 1, lists, field.count("."))


def words(segment: str) -> list[str]:
    """``book_reviews`` -> [``book``, ``review``]; ``bookSeries`` -> [``book``, ``series``]."""
    return [name_singular(w) for w in _WORD.findall(segment)]


def container_of(field: str) -> tuple[str, str]:
    """``results[].id`` -> (``results[]``, ``id``); ``id`` -> ('', ``id``); ``a.b`` -> (``a``, ``b``)."""
    head, _, leaf = field.rpartition(".")
    if not head and field.endswith("[]"):
        return "", field[:-2]
    return head, leaf.replace("[]", "")


def path_of(api: Api) -> str:
    return str(api.extra.get("path", api.key.split(" ", 1)[-1]))


def method_of(api: Api) -> str:
    return str(api.extra.get("method", api.key.split(" ", 1)[0]))


_ALTERNATIVES = re.compile(r"_or_|(?<=[a-z0-9])Or(?=[A-Z])")


def qualified_leaves(name: str) -> list[str]:
    """Field names a parameter names beyond its own: each alternative of ``username_or_id_or_url``
    (``username``, ``url``: not a bare ``id``), and the identifier after a qualifier (``originSkyId`` →
    ``skyId``, ``origin_sky_id`` → ``sky_id``; not the bare ``Id``)."""
    parts = [p for p in _ALTERNATIVES.split(name) if p]
    out = [p for p in parts if len(parts) > 1 and p.casefold() not in ITEM_KEYS]
    if id_resource(name) is None:
        return out
    camel = [m.start() for m in re.finditer(r"[A-Z]", name) if m.start() > 0]
    snake = [m.end() for m in re.finditer(r"_", name)]
    for at in sorted(set(camel) | set(snake)):
        rest = name[at:]
        if id_resource(rest) is None:  # the bare ``Id`` / ``_id`` is no field of its own
            continue
        out.append(rest[0].lower() + rest[1:] if at in camel else rest)
    return out
