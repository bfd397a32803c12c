"""Members from every input joined into one entity per documentation ID, then written as a Catalog:
one business object per type, one API per type and member, overloads listed together."""

from __future__ import annotations

import re
from collections import defaultdict

from apiatlas.catalog.model import Api, BusinessObject, Catalog, DomainType, ExecutorBinding, Param
from apiatlas.errors import Location
from apiatlas.sources.dotnet.docids import entity_alias, path_of
from apiatlas.sources.dotnet.model import Member, MemberDocs, merge_into

KIND = "dotnet"
_SENTENCE = re.compile(r"(?<=[.!?])\s")
_DESCRIPTION_CHARS = 1200


def join_members(
    metadata: list[Member], described: list[Member], docs: dict[str, MemberDocs]
) -> dict[str, Member]:
    """One member per documentation ID: ``metadata`` (assemblies, then sources) first; ``described``
    (ECMA docs) adds docs to them, and adds members of types no metadata input declares; ``docs``
    (compiler XML) adds docs by ID."""
    joined: dict[str, Member] = {}
    for member in metadata:
        if member.doc_id in joined:
            merge_into(joined[member.doc_id], member)
        else:
            joined[member.doc_id] = member
    declared_types = {m.doc_id[2:] for m in joined.values() if m.is_type}
    for member in described:
        if member.doc_id in joined:
            merge_into(joined[member.doc_id], member)
        elif not joined or member.owner not in declared_types:  # documented, no metadata says otherwise
            joined[member.doc_id] = member
    for doc_id, member_docs in docs.items():
        if doc_id in joined and not member_docs.empty():
            member = joined[doc_id]
            member.docs = member_docs if member.docs.empty() else member.docs
            for p in member.params:
                p.doc = p.doc or member_docs.params.get(p.name, "")
    return joined


def first_sentence(text: str) -> str:
    line = text.split("\n", 1)[0].strip()
    return _SENTENCE.split(line, maxsplit=1)[0].strip()


def to_catalog(members: dict[str, Member], source_files: dict[str, str]) -> Catalog:
    catalog = Catalog(source_kind=KIND, source_files=source_files)
    overloads: dict[str, list[str]] = defaultdict(list)
    for member in members.values():
        if not member.is_type:
            overloads[member.owner + "." + member.name].append(member.doc_id)
    enums = {m.doc_id[2:] for m in members.values() if m.kind == "enum"}
    for doc_id, member in sorted(members.items()):
        api = _api(member, sorted(overloads.get(member.owner + "." + member.name, [])))
        if member.kind == "field" and member.owner in enums:
            # an enum's values (a sixth of GTK#'s members) are found by their words and names; embedded,
            # they crowded the dense ranking of requests that share a word with one
            api.extra["embedded"] = False
        catalog.apis[doc_id] = api
        if member.is_type:
            catalog.objects[member.owner] = BusinessObject(
                key=member.owner,
                name=member.name,
                title=first_sentence(member.docs.summary),
                description=member.docs.summary[:_DESCRIPTION_CHARS],
                source=api.source,
            )
    for api in catalog.apis.values():
        if api.object_key not in catalog.objects:  # a member whose type no input declares
            catalog.objects[api.object_key] = BusinessObject(
                key=api.object_key, name=api.object_key.rsplit(".", 1)[-1]
            )
        catalog.objects[api.object_key].api_keys.append(api.key)
    for api in catalog.apis.values():  # the .NET types parameters have, as the catalog's domain types
        for p in api.params:
            catalog.types.setdefault(
                p.domain_type, DomainType(name=p.domain_type, meaning=f".NET type {p.domain_type}")
            )
    catalog.stats["dotnet"] = kind_counts(members.values())
    return catalog


def kind_counts(members: object) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for member in members:  # type: ignore[attr-defined]
        counts[member.kind] += 1
    return dict(sorted(counts.items()))


def _api(member: Member, overloads: list[str]) -> Api:
    docs = member.docs
    title = first_sentence(docs.summary) or member.signature
    description = "\n".join(t for t in (docs.summary, docs.remarks) if t)[:_DESCRIPTION_CHARS]
    source = Location(file=member.source.file, line=member.source.start_line) if member.source else None
    if source is None and member.inputs:
        source = Location(file=member.inputs[0], anchor=member.doc_id)
    return Api(
        key=member.doc_id,
        object_key=member.owner,
        title=title,
        description=description,
        params=[
            Param(name=p.name, domain_type=p.display or p.type, required=not p.optional, description=p.doc)
            for p in member.params
        ],
        executor=ExecutorBinding(kind=KIND, target=member.doc_id),
        source=source,
        extra={
            "card_name": f"{path_of(member.doc_id)} {member.kind}",
            "alias": entity_alias(member.doc_id, member.kind, member.owner),
            "overloads": overloads if len(overloads) > 1 else [],
            "member": member.model_dump(
                mode="json", exclude_defaults=True, exclude={"docs": {"summary", "remarks"}}
            ),  # the summary and remarks are the API's title and description
        },
    )
