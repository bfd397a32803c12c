"""Identifiers stay within the service that mints them. A catalog gathered from several services (each
API naming its ``host``) links an output field to an input of another service only by what means the
same thing everywhere — a name, a code, a date —, never by an identifier: an author id of a review site
is no author id of a book site, a business id no product id. The type and alias rules that link fields
by name alone cannot see that; the hosts can. A catalog of one service (no host, or one) loses nothing."""

from __future__ import annotations

from urllib.parse import urlsplit

from apiatlas.catalog.model import Api, Catalog, Edge

_DEFAULT_PORTS = {"http": (80,), "https": (443,), "": (80, 443)}  # a bare host: either web default


def service(api: Api | None) -> str:
    """The host an API is served from ('' when it names none), as one service is named however its source
    writes it: case-blind, without a scheme, a path, a trailing dot or the scheme's default port
    ("https://API.example.com:443/v1" is "api.example.com"); another port stays another service."""
    raw = str((api.extra or {}).get("host") or "").strip() if api is not None else ""
    if not raw:
        return ""
    parts = urlsplit(raw if "//" in raw else f"//{raw}")
    try:
        port = parts.port
    except ValueError:
        return raw.lower()  # no host[:port] to read: the text as written, case-blind
    host = (parts.hostname or "").rstrip(".")
    default = port is None or port in _DEFAULT_PORTS.get(parts.scheme.lower(), ())
    return host if default else f"{host}:{port}"


def _identifier(catalog: Catalog, edge: Edge) -> bool:
    consumer, producer = catalog.apis.get(edge.consumer), catalog.apis.get(edge.producer)
    taken = [p.domain_type for p in consumer.params if p.name == edge.consumer_field] if consumer else []
    given = [
        c.domain_type
        for t in (producer.output_tables if producer else [])
        for c in t.columns
        if c.name == edge.producer_field
    ]
    return any(t.endswith(":id") for t in [edge.domain_type, *taken, *given])


def ids_within_services(catalog: Catalog) -> None:
    """Drop the edges that feed an identifier from one service to another."""
    catalog.edges = [
        e
        for e in catalog.edges
        if not (
            (a := service(catalog.apis.get(e.producer)))
            and (b := service(catalog.apis.get(e.consumer)))
            and a != b
            and _identifier(catalog, e)
        )
    ]
