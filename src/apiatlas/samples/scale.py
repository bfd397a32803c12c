"""Seeded generator of a bank documentation set of any size, in the real system's proportions."""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, replace

from apiatlas.errors import ApiatlasError, ReasonCode
from apiatlas.samples.api_families import READ_FAMILIES, WRITE_FAMILIES, build_family
from apiatlas.samples.bank_catalog import sample_bank
from apiatlas.samples.bank_core import CORE_APIS
from apiatlas.samples.bank_objects import OBJECTS, CuratedObject
from apiatlas.samples.families import EntityProfile, Noun, ParentLink
from apiatlas.samples.scale_vocab import EXTRA_TABLES, MODULES, QUALIFIERS, Module, Qualifier
from apiatlas.samples.spec import ApiSpec, DocSet, ObjectSpec, ParamSpec, TableSpec

# The real documentation set: 264 business objects, 3,158 APIs, 7,807 table pages.
REAL_OBJECTS, REAL_APIS, REAL_TABLES = 264, 3158, 7807
# Funnel shares behind the name filter (1,354 -> 1,194 -> 1,114 -> 1,098).
P_READ_NAME = 0.38
P_NO_VISA = 0.118
P_NOT_IMPLEMENTED = 0.067
P_FORBIDDEN = 0.014
P_OBJECT_NO_VISA = 0.13
MAX_EXTRA_TABLES = 3
P_DECLARED = 0.05  # share of parent lookups whose docs name the producing API
MAX_OBJECT_APIS = 180


@dataclass(frozen=True)
class ScaleTargets:
    objects: int
    apis: int
    tables: int


def targets_for(apis: int) -> ScaleTargets:
    """Object and table-page counts proportional to the real system for ``apis`` APIs."""
    return ScaleTargets(
        objects=max(1, round(REAL_OBJECTS * apis / REAL_APIS)),
        apis=apis,
        tables=round(REAL_TABLES * apis / REAL_APIS),
    )


class _Generator:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.names: set[str] = set()
        self.keys: set[str] = set()
        self.obj_names: set[str] = set()
        self._pairs: list[tuple[Module, CuratedObject]] = []
        self._generation = 0

    def flags(self) -> tuple[str, bool, bool]:
        r = self.rng.random()
        if r < P_NO_VISA:
            return self.rng.choice(("Не Ok", "На доработке", "")), self.rng.random() < 0.5, False
        r = self.rng.random()
        if r < P_NOT_IMPLEMENTED:
            return "Ok", False, False
        return "Ok", True, self.rng.random() < P_FORBIDDEN

    def profiles(self, count: int, base: list[ObjectSpec]) -> list[tuple[EntityProfile, str, str]]:
        """``count`` new (profile, title, description) triples: module x entity, never repeating a name."""
        self.keys |= {o.key for o in base}
        self.obj_names |= {o.name for o in base}
        made: list[tuple[EntityProfile, str, str]] = []
        while len(made) < count:
            if not self._pairs:
                self._generation += 1
                self._pairs = [(m, o) for m in MODULES for o in OBJECTS]
                self.rng.shuffle(self._pairs)
            module, obj = self._pairs.pop()
            made.append(
                self._profile(module, obj.profile, obj.title, obj.description, self._generation, made)
            )
        return made

    def _profile(
        self,
        module: Module,
        entity: EntityProfile,
        title: str,
        description: str,
        generation: int,
        made: list[tuple[EntityProfile, str, str]],
    ) -> tuple[EntityProfile, str, str]:
        tail = "" if generation == 1 else str(generation)
        name = f"{module.name}{entity.name}{tail}"
        key = f"{module.code}{entity.key}{tail}"
        assert key not in self.keys and name not in self.obj_names, key
        self.keys.add(key)
        self.obj_names.add(name)
        version = "" if generation == 1 else f", контур {generation}"
        suffix = f" ({module.title}{version})"
        noun = Noun(entity.noun.nom + suffix, entity.noun.gen + suffix, entity.noun.gen_pl + suffix)
        parents = entity.parents
        if made and self.rng.random() < 0.35:  # hang under an earlier generated object: deeper chains
            up = self.rng.choice(made)[0]
            parents = (
                *parents,
                ParentLink(up.id_field, up.id_field, f"API_{up.key}_FindByID", f"{up.key}ID", up.noun),
            )
        profile = replace(
            entity,
            key=key,
            name=name,
            noun=noun,
            id_field=f"{name}ID",
            parents=parents,
            error_base=60000 + len(self.keys) * 100,
        )
        return profile, f"{title}{suffix}", f"Модуль «{module.title}». {description}"

    def sizes(self, total: int, count: int) -> list[int]:
        """Split ``total`` APIs over ``count`` objects: a few very large objects, many small ones."""
        if count == 0:
            return []
        floor = min(3, total // count)
        weights = [min(self.rng.paretovariate(1.4), 60.0) for _ in range(count)]
        spare = total - floor * count
        scale = spare / sum(weights)
        sizes = [floor + int(w * scale) for w in weights]
        i = 0
        while sum(sizes) < total:
            sizes[i % count] += 1
            i += 1
        cap = max(MAX_OBJECT_APIS, -(-total // count))
        excess = sum(max(0, n - cap) for n in sizes)
        sizes = [min(n, cap) for n in sizes]
        i = 0
        while excess:
            if sizes[i % count] < cap:
                sizes[i % count] += 1
                excess -= 1
            i += 1
        return sizes

    def object_apis(self, p: EntityProfile, size: int) -> list[ApiSpec]:
        read_families = (*READ_FAMILIES, "FindByNumber", "FindListByParent", "FindListByListParent")
        reads = self._candidates(p, read_families)
        writes = self._candidates(p, WRITE_FAMILIES)
        out: list[ApiSpec] = []
        while len(out) < size and (reads or writes):
            pick_read = not out or self.rng.random() < P_READ_NAME
            pool = reads if (pick_read and reads) or not writes else writes
            plain, qualifier = pool.popleft()
            api = plain if qualifier is None else _qualify(plain, qualifier)
            if api.name in self.names:
                continue
            self.names.add(api.name)
            visa, implemented, forbidden = self.flags()
            api = replace(api, visa=visa, implemented=implemented, forbidden=forbidden)
            out.append(self._maybe_declare(p, api))
        return out

    def _maybe_declare(self, p: EntityProfile, api: ApiSpec) -> ApiSpec:
        """Now and then an analyst wrote where a parent ID comes from: ``(из API_X.Field)``."""
        for link in p.parents:
            if (
                api.verb == f"FindListBy{link.method}"
                and link.source_api in self.names
                and self.rng.random() < P_DECLARED
            ):
                first, *rest = api.params
                declared = replace(
                    first, description=f"{first.description} (из {link.source_api}.{link.source_field})"
                )
                return replace(api, params=(declared, *rest))
        return api

    def _candidates(
        self, p: EntityProfile, families: tuple[str, ...]
    ) -> deque[tuple[ApiSpec, Qualifier | None]]:
        """Plain family methods first, then their qualified variants in a seeded order (built lazily)."""
        plain = [api for f in families for api in build_family(p, f)]
        variants: list[tuple[ApiSpec, Qualifier | None]] = [(api, q) for api in plain for q in QUALIFIERS]
        self.rng.shuffle(variants)
        return deque([(api, None) for api in plain] + variants)

    def pad_tables(self, apis: list[ApiSpec], missing: int) -> list[ApiSpec]:
        """Add ``missing`` extra output tables over the given APIs (at most MAX_EXTRA_TABLES each)."""
        extra = [0] * len(apis)
        per_api = MAX_EXTRA_TABLES if missing <= MAX_EXTRA_TABLES * len(apis) else len(EXTRA_TABLES)
        slots = [i for i in range(len(apis)) for _ in range(per_api)]
        for i in self.rng.sample(slots, min(missing, len(slots))):
            extra[i] += 1
        padded = []
        for api, n in zip(apis, extra, strict=True):
            if n:
                obj = api.name.split("_")[1]
                added = tuple(
                    TableSpec(f"pAPI_{obj}_{api.verb}_{kind}", "out", title, cols)
                    for kind, title, cols in EXTRA_TABLES[:n]
                )
                api = replace(api, output_tables=api.output_tables + added)
            padded.append(api)
        return padded


def _qualify(api: ApiSpec, q: Qualifier) -> ApiSpec:
    have = {p.name for p in api.params}
    params: tuple[ParamSpec, ...] = api.params + tuple(p for p in q.params if p.name not in have)
    return replace(api, name=api.name + q.suffix, title=api.title + q.title, params=params)


def generate_doc_set(apis: int, seed: int = 0) -> DocSet:
    """A documentation set of exactly ``apis`` APIs: the sample bank plus seeded generated objects.

    At 3,158 APIs it has 264 business objects and 7,807 table pages, like the real system; other sizes
    scale both proportionally. It always contains the core APIs of docs/sample-bank.md (and the whole
    curated sample bank once ``apis`` is large enough), so the dependency chains exist at every scale.
    """
    if apis < len(CORE_APIS):
        raise ApiatlasError(
            f"--apis must be at least {len(CORE_APIS)} (the core APIs of the sample bank), got {apis}",
            code=ReasonCode.INVALID_ARGUMENT,
        )
    goal = targets_for(apis)
    doc = sample_bank()
    if len(doc.apis) > apis:
        doc = sample_bank(core_only=True)
    gen = _Generator(seed)
    gen.names |= {a.name for a in doc.apis}
    remaining = apis - len(doc.apis)
    n_objects = max(goal.objects - len(doc.objects), 1 if remaining else 0)
    n_objects = min(n_objects, remaining)
    new_apis: list[ApiSpec] = []
    for (profile, title, description), size in zip(
        gen.profiles(n_objects, doc.objects), gen.sizes(remaining, n_objects), strict=True
    ):
        visa = "Ok" if gen.rng.random() >= P_OBJECT_NO_VISA else gen.rng.choice(("Не Ok", "На доработке"))
        doc.objects.append(ObjectSpec(profile.key, profile.name, title, description, visa))
        new_apis += gen.object_apis(profile, size)
    if len(new_apis) != remaining:
        raise ApiatlasError(
            f"generated {len(new_apis)} APIs instead of {remaining}: too few objects for that many APIs",
            code=ReasonCode.INVALID_ARGUMENT,
        )
    missing = goal.tables - doc.table_count() - sum(a.table_count() for a in new_apis)
    if missing > 0:
        new_apis = gen.pad_tables(new_apis, missing)
    doc.apis += new_apis
    return doc
