"""What every eval dataset becomes: a catalog of APIs and queries with their gold API keys."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from enum import StrEnum

from apiatlas.catalog.model import Catalog


@dataclass(frozen=True)
class EvalQuery:
    """One request and the API keys that answer it (empty gold: out of catalog by construction)."""

    qid: str
    text: str
    gold: frozenset[str]
    kind: str = ""  # for a request out of catalog by nature: what kind (the bank's unrelated, dropped, ...)

    @property
    def split(self) -> str:
        """``dev`` or ``test``: a stable half of the queries by hash of the id."""
        return "dev" if int(hashlib.sha256(self.qid.encode()).hexdigest()[:8], 16) % 2 == 0 else "test"


@dataclass
class EvalSet:
    """A dataset loaded: its name, the catalog to index and the queries."""

    name: str
    catalog: Catalog
    queries: list[EvalQuery] = field(default_factory=list)


class OutOfCatalog(StrEnum):
    """What a fold's snapshot lacks for its requests to be out of catalog."""

    GOLD = "gold"  # the requests' gold APIs (and copies of them); their siblings stay
    OBJECT = "object"  # every API of the gold's business objects (a StableToolBench tool): a service absent
