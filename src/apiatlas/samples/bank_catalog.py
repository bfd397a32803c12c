"""The curated sample bank as one DocSet: core APIs, per-object API families and analysts' funnel flags."""

from __future__ import annotations

import zlib
from dataclasses import replace

from apiatlas.samples.api_families import build_family
from apiatlas.samples.bank_core import CORE_API_NAMES, CORE_APIS
from apiatlas.samples.bank_objects import OBJECTS, CuratedObject
from apiatlas.samples.domain_types import DOMAIN_TYPES
from apiatlas.samples.spec import ApiSpec, DocSet, ObjectSpec

# Methods that kept an older name prefix: they belong to DSec although they read API_DealSecurity_*.
LEGACY_NAMES: dict[str, str] = {
    "API_DSec_FindByNumber": "API_DealSecurity_FindByNumber",
    "API_DSec_GetHistory": "API_DealSecurity_GetHistory",
    "API_DSec_Confirm": "API_DealSecurity_Confirm",
}

_NOT_APPROVED = ("Не Ok", "На доработке", "")


def analyst_flags(name: str) -> tuple[str, bool, bool]:
    """Visa, implemented and forbidden flags of a non-core API, fixed by its name.

    Roughly one API in nine lacks the architect's visa, one in fourteen is not implemented and one
    in fifty is forbidden — the proportions the real documentation shows behind its name filter.
    """
    h = zlib.crc32(name.encode("utf-8")) % 1000
    if h < 115:
        return _NOT_APPROVED[h % 3], True, False
    if h < 185:
        return "Ok", False, False
    if h < 205:
        return "Ok", True, True
    return "Ok", True, False


def object_apis(obj: CuratedObject) -> list[ApiSpec]:
    """The core APIs of ``obj`` followed by its family APIs, with legacy names and funnel flags."""
    key = obj.profile.key
    apis = [a for a in CORE_APIS if a.object_key == key]
    seen = {a.name for a in apis}
    for family in obj.families:
        for api in build_family(obj.profile, family):
            name = LEGACY_NAMES.get(api.name, api.name)
            if name in seen or name in CORE_API_NAMES:
                continue
            seen.add(name)
            visa, implemented, forbidden = analyst_flags(name)
            apis.append(replace(api, name=name, visa=visa, implemented=implemented, forbidden=forbidden))
    return apis


def object_spec(obj: CuratedObject) -> ObjectSpec:
    p = obj.profile
    return ObjectSpec(key=p.key, name=p.name, title=obj.title, description=obj.description, visa=obj.visa)


def sample_bank(core_only: bool = False) -> DocSet:
    """The curated sample bank; ``core_only`` keeps just the core APIs and their objects."""
    doc = DocSet(types=list(DOMAIN_TYPES))
    core_keys = {a.object_key for a in CORE_APIS}
    for obj in OBJECTS:
        if core_only and obj.profile.key not in core_keys:
            continue
        doc.objects.append(object_spec(obj))
        if core_only:
            doc.apis += [a for a in CORE_APIS if a.object_key == obj.profile.key]
        else:
            doc.apis += object_apis(obj)
    return doc
