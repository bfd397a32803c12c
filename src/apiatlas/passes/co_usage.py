"""Co-usage pass: members called one after the other in the SDK's own method bodies (the facts of the
dotnet source) become edges of their own level, so ``dependency_chain`` answers "what is typically called
before / after this" for code. A catalog without body facts gets nothing."""

from __future__ import annotations

from collections import Counter, defaultdict
from itertools import pairwise

from apiatlas.catalog.model import Api, Catalog, Edge, EdgeLevel
from apiatlas.code.keys import path_of
from apiatlas.passes.config import BuildConfig
from apiatlas.passes.context import PassContext

MAX_PER_MEMBER = 8  # strongest successors kept per member
_ACCESSORS = ("get_", "set_", "add_", "remove_")


def _names(catalog: Catalog) -> tuple[dict[str, str], dict[str, str]]:
    """Dotted name -> its first key, and member name -> its key when only one member has that name."""
    by_path: dict[str, str] = {}
    by_member: dict[str, set[str]] = defaultdict(set)
    for key in sorted(catalog.apis):
        if not catalog.apis[key].funnel.kept or key.startswith("T:"):
            continue
        path = path_of(key)
        by_path.setdefault(path, key)
        by_member[path.rsplit(".", 1)[-1]].add(path)
    unique = {name: by_path[next(iter(paths))] for name, paths in by_member.items() if len(paths) == 1}
    return by_path, unique


def _resolve(call: str, by_path: dict[str, str], unique: dict[str, str]) -> str | None:
    """``Gtk.Window.set_Title`` -> ``P:Gtk.Window.Title``; ``writer.WriteValue`` -> the one WriteValue."""
    owner, _, member = call.rpartition(".")
    for prefix in _ACCESSORS:
        if member.startswith(prefix):
            member = member[len(prefix) :]
            break
    return by_path.get(f"{owner}.{member}") or unique.get(member)


def _calls(api: Api) -> list[str]:
    """The calls of the API's body facts in order (none for an API without them)."""
    facts = (api.extra.get("member") or {}).get("facts") or {}
    calls: list[str] = facts.get("calls", [])
    return calls


def co_usage(catalog: Catalog, config: BuildConfig, context: PassContext) -> None:
    bodies = [(api.key, calls) for api in catalog.kept_apis() if (calls := _calls(api))]
    if not bodies:
        return  # no body facts: no names to resolve
    by_path, unique = _names(catalog)
    pairs: Counter[tuple[str, str]] = Counter()
    example: dict[tuple[str, str], str] = {}
    for key, calls in bodies:
        called = [k for k in (_resolve(c, by_path, unique) for c in calls) if k]
        called = list(dict.fromkeys(called))
        for before, after in pairwise(called):
            if before != after:
                pairs[(before, after)] += 1
                example.setdefault((before, after), key)
    successors: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for (before, after), count in pairs.items():
        successors[before].append((count, after))
    edges: list[Edge] = []
    for before in sorted(successors):
        for count, after in sorted(successors[before], key=lambda p: (-p[0], p[1]))[:MAX_PER_MEMBER]:
            edges.append(
                Edge(
                    producer=before,
                    producer_field="(called)",
                    consumer=after,
                    consumer_field="(then)",
                    level=EdgeLevel.CO_USAGE,
                    reason=f"called one after the other in {count} bod{'y' if count == 1 else 'ies'}, "
                    f"e.g. {example[(before, after)]}",
                )
            )
    catalog.edges += edges
    if edges or pairs:
        catalog.stats["co_usage"] = {"edges": len(edges), "pairs": len(pairs)}
