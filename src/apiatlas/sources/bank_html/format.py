"""The bank HTML documentation format: its detection, loading, and the bank's build and serving defaults."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from apiatlas.catalog.model import Catalog, DomainType
from apiatlas.sources.format import Progress, SourceFormat

# the bank publishes read APIs by name (API_<Object>_Find…/Get…/Check…/Brows…) and flags each API's
# approval, implementation and prohibition on its page
READ_API_NAMES = r"^API_[A-Za-z0-9]+_(Find|Get|Check|Brows)"
BANK_FUNNEL: list[dict[str, Any]] = [
    {"name": "name", "field": "key", "operator": "matches", "value": READ_API_NAMES},
    {"name": "approved", "field": "approved", "operator": "equals", "value": True},
    {"name": "implemented", "field": "implemented", "operator": "equals", "value": True},
    {"name": "forbidden", "field": "forbidden", "operator": "not_equals", "value": True},
]  # fmt: skip
# the bank's person is an owner or a client of what it holds
BANK_ALIASES: list[dict[str, str]] = [
    {"consumer_field": "OwnerID", "producer_field": "PersonID"},
    {"consumer_field": "ClientID", "producer_field": "PersonID"},
    {"consumer_field": "PersonID", "producer_field": "OwnerID"},
    {"consumer_field": "ClientID", "producer_field": "OwnerID"},
]


class BankHtmlFormat(SourceFormat):
    """Bank core HTML documentation (windows-1251 pages); procedures run on the bank's database."""

    kind = "bank_html"
    description = "bank core HTML documentation, windows-1251 (docs/formats/bank-html.md)"
    display_name = "bank HTML documentation"
    tool_prefix = "bank_"
    executor = "sql"
    featured_api = "API_DealSecurity_FindListByID"  # the chain the bank demo relies on
    shares_field_sets = True  # records.py and assemble.py give each entity its class's set

    def detects(self, path: Path) -> bool:
        from apiatlas.sources.bank_html.loader import is_bank_docs

        return is_bank_docs(path)

    def load(self, path: Path, *, progress: Progress | None = None) -> Catalog:
        from apiatlas.sources.bank_html.loader import load_bank_docs

        return load_bank_docs(path, progress=progress)

    def build_defaults(self) -> dict[str, Any]:
        from apiatlas.sources.bank_html.domain_types import generic_names, user_value_names

        # a consumer field whose description names a producer field ("..., PersonID)") is an alias
        return {
            "funnel": BANK_FUNNEL,
            "aliases": BANK_ALIASES,
            "description_aliases": True,
            "generic_types": generic_names(),
            "user_value_types": user_value_names(),
        }

    def builtin_types(self) -> dict[str, DomainType]:
        from apiatlas.sources.bank_html.domain_types import BANK_TYPES

        return dict(BANK_TYPES)
