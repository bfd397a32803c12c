"""Small hand-made catalogs for planner tests: APIs filed under their business objects."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from apiatlas.catalog.model import Api, BusinessObject, Catalog, Column, Direction, Param, SessionTable
from apiatlas.language.catalog import CatalogVocabulary, derive_vocabulary
from apiatlas.passes.config import BuildConfig

# the movie database's words as its build config gives them (RestBench's TMDB, the planner tests' domain)
MEDIA_CONFIG = Path(__file__).resolve().parents[1] / "examples" / "restbench" / "apiatlas.yaml"


@lru_cache(maxsize=1)
def media_vocabulary() -> CatalogVocabulary:
    """The vocabulary of ``examples/restbench/apiatlas.yaml``."""
    return BuildConfig.load(MEDIA_CONFIG, source_kind="openapi").vocabulary


def catalog_of(apis: list[Api], vocabulary: CatalogVocabulary | None = None) -> Catalog:
    """A test catalog holding ``apis``, each listed under its business object (created on demand), with
    the vocabulary the vocabulary pass would record (derived, amended by ``media_vocabulary`` or the
    one given)."""
    catalog = Catalog(source_kind="test")
    for api in apis:
        catalog.apis[api.key] = api
        catalog.objects.setdefault(api.object_key, BusinessObject(key=api.object_key)).api_keys.append(
            api.key
        )
    return with_vocabulary(catalog, vocabulary)


def with_vocabulary(catalog: Catalog, vocabulary: CatalogVocabulary | None = None) -> Catalog:
    """``catalog`` with ``stats["vocabulary"]`` as the vocabulary pass records it."""
    given = vocabulary if vocabulary is not None else media_vocabulary()
    catalog.stats["vocabulary"] = derive_vocabulary(catalog.apis.values()).amended(given).model_dump()
    return catalog


def http_get(
    key: str, param: str, table: str, *columns: str, title: str | None = None, ptype: str | None = None
) -> Api:
    """An HTTP-style API (``GET /kind/...``) with one required input and one output table; ids are
    integers, everything else strings, unless ``ptype`` says the input's type."""
    return Api(
        key=key,
        object_key=key.split("/")[1],
        title=title if title is not None else key,
        params=[
            Param(
                name=param,
                domain_type=ptype or ("integer" if param.endswith("id") else "string"),
                required=True,
            )
        ],
        output_tables=[
            SessionTable(
                name=table,
                direction=Direction.OUT,
                columns=[
                    Column(name=c, domain_type="integer" if c.endswith("id") else "string") for c in columns
                ],
            )
        ],
    )


def _type_of(name: str) -> str:
    return "integer" if name.endswith("id") else "string"
