"""Navigation of a code snapshot (an SDK): keys resolved by documentation ID, alias or dotted name, cards
with overloads, exact structural search, and ``read_source``."""

from __future__ import annotations

from functools import cached_property

from apiatlas.catalog.model import Api
from apiatlas.code.keys import alias_digest, path_of
from apiatlas.errors import ReasonCode
from apiatlas.search.outcome import SearchOutcome
from apiatlas.search.structural import StructuralNames, with_structural
from apiatlas.server.code_card import CodeCard, OverloadInfo, code_card, member_record
from apiatlas.server.code_model import SdkModel
from apiatlas.server.tools.read_source import ReadSourceResult, SourceLine
from apiatlas.snapshot import CatalogReader

MAX_OVERLOADS = 24
SOURCE_PAGE = 80  # lines per read_source page unless asked


class CodeNavigator:
    """The code part of navigation over one snapshot (its keys are .NET documentation IDs)."""

    def __init__(self, snapshot: CatalogReader, prefix: str) -> None:
        self.snapshot = snapshot
        self.prefix = prefix

    @cached_property
    def keys(self) -> list[str]:
        return self.snapshot.all_api_keys()

    @cached_property
    def structural(self) -> StructuralNames:
        return StructuralNames(self.keys)

    @cached_property
    def model(self) -> SdkModel:
        """The SDK's types for check_code, each loaded on first use and kept (the snapshot is read-only)."""
        return SdkModel(self.snapshot, self.keys)

    @cached_property
    def _by_digest(self) -> dict[str, str]:
        return {alias_digest(k): k for k in self.keys}

    def resolve_key(self, name: str) -> str | None:
        """The key ``name`` means: an alias (``Type::kind::sha1``), or a dotted name (first overload)."""
        name = name.strip()
        if name.count("::") == 2:
            key = self._by_digest.get(name.rsplit("::", 1)[1])
            return key if key is not None and name.startswith(key_owner(key)) else None
        named = self.structural.lookup(name, limit=1)
        if named and path_of(named[0]).lower().endswith(path_of(name).lower()):
            return named[0]
        return None

    def card(self, api: Api) -> CodeCard | None:
        overloads: list[OverloadInfo] = []
        for key in list(api.extra.get("overloads") or [])[:MAX_OVERLOADS]:
            other = api if key == api.key else self.snapshot.get_api(key)
            record = member_record(other) if other is not None else None
            overloads.append(OverloadInfo(key=key, signature=str((record or {}).get("signature", ""))))
        return code_card(api, overloads)

    def search(self, query: str, outcome: SearchOutcome, limit: int, object_key: str | None) -> SearchOutcome:
        """``outcome`` with the entities the query names exactly first."""
        named = self.structural.lookup(query, limit=limit)
        titles = self.snapshot.api_titles(named) if named else {}
        if object_key:
            named = [k for k in named if titles.get(k, ("", ""))[0] == object_key]
        return with_structural(outcome, named, titles, limit)

    def read_source(self, api: Api, offset: int, limit: int | None) -> ReadSourceResult:
        """The entity's source lines (paged, with the few lines of context around it the snapshot keeps),
        or without sources its signature and facts."""
        card = self.card(api)
        record = member_record(api) or {}
        span = record.get("source")
        if not isinstance(span, dict) or not span.get("text"):
            return ReadSourceResult(
                key=api.key,
                card=card,
                has_source=False,
                message=f"{api.key}: no source in this snapshot (compiled from metadata and docs); "
                "the signature and the facts of its body are shown",
                reason=ReasonCode.NO_MATCH if card is None else None,
            )
        lines = str(span["text"]).split("\n")
        start = int(span.get("text_start") or span["start_line"])
        size = max(1, min(limit or SOURCE_PAGE, 400))
        page = lines[offset : offset + size]
        more = offset + size < len(lines)
        return ReadSourceResult(
            key=api.key,
            card=card,
            has_source=True,
            file=str(span["file"]),
            lines=[SourceLine(line=start + offset + i, text=t) for i, t in enumerate(page)],
            total_lines=len(lines),
            next_offset=offset + size if more else None,
            message=f"{span['file']}:{start + offset}-{start + offset + len(page) - 1} ({api.key})",
            next_actions=[f"call {self.prefix}read_source with offset={offset + size} for the next lines"]
            if more
            else [],
        )


def key_owner(key: str) -> str:
    """The alias's owner part of a key: the declaring type of a member, the type itself for a type."""
    path = path_of(key)
    return path if key.startswith("T:") else path.rsplit(".", 1)[0]
