"""Small hand-made catalogs for planner tests: APIs filed under their business objects."""

from __future__ import annotations

from apiatlas.catalog.model import Api, BusinessObject, Catalog


def catalog_of(apis: list[Api]) -> Catalog:
    """A test catalog holding ``apis``, each listed under its business object (created on demand)."""
    catalog = Catalog(source_kind="test")
    for api in apis:
        catalog.apis[api.key] = api
        catalog.objects.setdefault(api.object_key, BusinessObject(key=api.object_key)).api_keys.append(
            api.key
        )
    return catalog
