"""Small hand-made catalogs for planner tests: APIs filed under their business objects."""

from __future__ import annotations

from apiatlas.catalog.model import Api, BusinessObject, Catalog, Column, Direction, Param, SessionTable


def catalog_of(apis: list[Api]) -> Catalog:
    """A test catalog holding ``apis``, each listed under its business object (created on demand)."""
    catalog = Catalog(source_kind="test")
    for api in apis:
        catalog.apis[api.key] = api
        catalog.objects.setdefault(api.object_key, BusinessObject(key=api.object_key)).api_keys.append(
            api.key
        )
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
