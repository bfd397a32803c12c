"""The dotnet format: .NET assemblies, XML docs (compiler and ECMA/monodoc) and C# sources, served as a
code surface (navigation, search, ``read_source``, ``check_code``; nothing executes)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from apiatlas.catalog.model import Catalog
from apiatlas.sources.format import Progress, SourceFormat


class DotnetFormat(SourceFormat):
    """A .NET SDK: one entity per documentation ID (``M:Ns.Type.Method(System.Int32)``)."""

    kind = "dotnet"
    description = (
        "a .NET SDK: a folder (or file) of assemblies (.dll), ECMA/monodoc doc archives (.zip + .tree), "
        "compiler XML docs (.xml) and C# sources (.cs)"
    )
    display_name = ".NET SDK"
    tool_prefix = "code_"
    surface = "code"

    def detects(self, path: Path) -> bool:
        from apiatlas.sources.dotnet.loader import find_inputs

        if path.is_file() and path.suffix.lower() not in (".dll", ".exe", ".zip", ".xml", ".cs"):
            return False
        return not find_inputs(path).empty()

    def load(self, path: Path, *, progress: Progress | None = None) -> Catalog:
        from apiatlas.sources.dotnet.loader import load_dotnet

        return load_dotnet(path, progress=progress)

    def load_with(self, path: Path, options: dict[str, Any], *, progress: Progress | None = None) -> Catalog:
        from apiatlas.sources.dotnet.loader import load_dotnet

        unknown = sorted(set(options) - {"include_internal"})
        if unknown:
            return super().load_with(path, {k: options[k] for k in unknown}, progress=progress)
        return load_dotnet(path, include_internal=bool(options.get("include_internal")), progress=progress)

    def compile_notes(self, catalog: Catalog) -> list[str]:
        stats = catalog.stats.get("dotnet")
        if not stats:
            return []
        kinds = ", ".join(f"{n} {k}" for k, n in stats["by_kind"].items())
        return [
            f".NET entities: {kinds}; {stats['documented']} documented, {stats['with_source']} with source, "
            f"{stats['with_facts']} with body facts."
        ]
