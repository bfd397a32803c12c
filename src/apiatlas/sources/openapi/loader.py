"""Load an OpenAPI 3.x or Swagger 2.0 spec file into a Catalog (entry point of the ``openapi`` source)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from apiatlas.catalog.model import BusinessObject, Catalog, DomainType
from apiatlas.errors import Diagnostic, Location, ReasonCode, Severity, SourceError
from apiatlas.sources import Progress
from apiatlas.sources.openapi.assemble import ApiAssembler
from apiatlas.sources.openapi.documents import SPEC_SUFFIXES, SpecDocuments
from apiatlas.sources.openapi.operations import OperationReader, count_operations
from apiatlas.sources.openapi.references import path_kinds
from apiatlas.sources.openapi.schemas import SchemaWalker, short

SOURCE_KIND = "openapi"
_MARKER = re.compile(rb'(^|[{,\s])"?(openapi|swagger)"?\s*:\s*["\']?[23]', re.MULTILINE)


def is_openapi_spec(path: Path) -> bool:
    """A ``.json``/``.yaml``/``.yml`` file that declares ``openapi: 3.x`` or ``swagger: 2.0``."""
    path = Path(path)
    if not path.is_file() or path.suffix.lower() not in SPEC_SUFFIXES:
        return False
    try:
        return _MARKER.search(path.read_bytes()) is not None
    except OSError:
        return False


def _spec_version(root: Any, where: Location) -> str:
    if not isinstance(root, dict):
        raise SourceError("a spec must be a mapping at the top level", location=where)
    version = str(root.get("openapi") or root.get("swagger") or "")
    if not version.startswith(("2.", "3.")):
        raise SourceError(
            f"not an OpenAPI 3.x or Swagger 2.0 spec (openapi/swagger field is {version or 'missing'!r})",
            location=where,
        )
    return version


def load_openapi(root: Path, *, progress: Progress | None = None) -> Catalog:
    """Every operation of the spec at ``root`` as an API; problems become located diagnostics."""
    root = Path(root)
    where = Location(file=root.name)
    if not root.is_file():
        raise SourceError(f"{root} is not a spec file", code=ReasonCode.INVALID_ARGUMENT, location=where)
    docs = SpecDocuments.open(root)
    version = _spec_version(docs.root, where)
    walker = SchemaWalker(docs)
    reader = OperationReader(walker, swagger2=version.startswith("2."))
    assembler = ApiAssembler(walker, source_file=root.name)
    catalog = Catalog(source_kind=SOURCE_KIND)
    in_spec = count_operations(docs.root)
    found = list(reader.operations())
    walker.kinds = path_kinds(op.path for op, _ in found if op is not None)
    for op, op_where in found:
        if op is not None:
            assembler.learn_resource(op, op_where)
    for done, (op, op_where) in enumerate(found, start=1):
        if op is None:
            catalog.add_diagnostic(
                Diagnostic(
                    severity=Severity.ERROR,
                    code=ReasonCode.MALFORMED_PAGE,
                    message="path item is not a mapping or its $ref is broken",
                    location=op_where,
                )
            )
            continue
        try:
            api = assembler.api(op)
        except (SourceError, ValueError, TypeError, AttributeError, KeyError) as exc:
            catalog.add_diagnostic(
                Diagnostic(
                    severity=Severity.ERROR,
                    code=ReasonCode.MALFORMED_PAGE,
                    message=f"operation skipped: {exc}",
                    location=op_where,
                )
            )
            continue
        catalog.apis[api.key] = api
        if progress is not None and (done % 50 == 0 or done == len(found)):
            progress(done, len(found))
    catalog.objects = _objects(docs.root, catalog, root.name)
    catalog.types = {
        name: DomainType(
            name=name,
            base_type=base,
            json_schema={"type": base} if base != "null" else {},
            meaning=f"JSON {base}" + (f" ({name})" if name != base else ""),
            generic=True,
        )
        for name, base in sorted({**walker.ref_types, **assembler.used_types}.items())
        if name
    }
    catalog.diagnostics.extend(walker.diagnostics)
    catalog.diagnostics.extend(assembler.diagnostics)
    catalog.source_files = dict(docs.hashes)
    info: dict[str, Any] = docs.root["info"] if isinstance(docs.root.get("info"), dict) else {}
    catalog.stats["openapi"] = {
        "spec_version": version,
        "title": str(info.get("title", "")),
        "version": str(info.get("version", "")),
        "servers": reader.servers(),
        "security_schemes": _security_schemes(docs.root),
        "security": docs.root.get("security"),
        "operations_in_spec": in_spec,
        "operations": len(catalog.apis),
        "cycles_cut": walker.cycles_cut,
        "files": len(docs.files),
    }
    if len(catalog.apis) != in_spec:
        catalog.add_diagnostic(
            Diagnostic(
                severity=Severity.WARNING,
                code=ReasonCode.MISSING_SECTION,
                message=f"{len(catalog.apis)} APIs from {in_spec} operations written in the spec",
                location=where,
            )
        )
    return catalog


def _objects(root: dict[str, Any], catalog: Catalog, file: str) -> dict[str, BusinessObject]:
    tags = {str(t.get("name")): t for t in root.get("tags") or [] if isinstance(t, dict) and t.get("name")}
    objects: dict[str, BusinessObject] = {}
    for key in sorted(catalog.apis):
        api = catalog.apis[key]
        obj = objects.get(api.object_key)
        if obj is None:
            tag = tags.get(api.object_key, {})
            text = str(tag.get("description") or "")
            obj = objects[api.object_key] = BusinessObject(
                key=api.object_key,
                name=api.object_key,
                title=short(text.split("\n", 1)[0]) or api.object_key,
                description=text,
                approved=True,
                source=Location(file=file, anchor=f"tag {api.object_key}"),
            )
        obj.api_keys.append(key)
    return objects


def _security_schemes(root: dict[str, Any]) -> dict[str, Any]:
    components: dict[str, Any] = root["components"] if isinstance(root.get("components"), dict) else {}
    schemes = components.get("securitySchemes") or root.get("securityDefinitions") or {}
    return dict(schemes) if isinstance(schemes, dict) else {}
