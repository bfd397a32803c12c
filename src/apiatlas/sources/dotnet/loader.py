"""Load a .NET SDK (a file or a folder holding any mix of assemblies, ECMA doc archives, compiler XML
docs and C# sources) into a Catalog; every input file's sha256 goes to the manifest."""

from __future__ import annotations

import hashlib
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from apiatlas.catalog.model import Catalog
from apiatlas.errors import ConfigError, Location
from apiatlas.sources.dotnet.assemble import join_members, to_catalog
from apiatlas.sources.dotnet.assemblies import AssemblyReader
from apiatlas.sources.dotnet.csharp_sources import read_sources
from apiatlas.sources.dotnet.ecma_docs import is_ecma_archive, read_ecma_archive
from apiatlas.sources.dotnet.metadata_tables import is_assembly
from apiatlas.sources.dotnet.model import Member, MemberDocs
from apiatlas.sources.dotnet.xml_docs import is_compiler_doc, read_compiler_docs
from apiatlas.sources.format import Progress

_SKIPPED_DIRS = {"bin", "obj", ".git", ".vs", "node_modules"}
_SIDECARS = (".tree", ".source")  # an ECMA archive's index and source description: hashed with it


@dataclass
class DotnetInputs:
    root: Path
    assemblies: list[Path] = field(default_factory=list)
    archives: list[Path] = field(default_factory=list)
    compiler_docs: list[Path] = field(default_factory=list)
    sources: list[Path] = field(default_factory=list)

    def files(self) -> list[Path]:
        sidecars = [a.with_suffix(s) for a in self.archives for s in _SIDECARS if a.with_suffix(s).is_file()]
        return sorted({*self.assemblies, *self.archives, *sidecars, *self.compiler_docs, *self.sources})

    def relative(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix() if path != self.root else path.name

    def empty(self) -> bool:
        return not (self.assemblies or self.archives or self.compiler_docs or self.sources)


def find_inputs(path: Path) -> DotnetInputs:
    """The inputs under ``path`` (or ``path`` itself), by what each file is."""
    root = path if path.is_dir() else path.parent
    inputs = DotnetInputs(root)
    candidates = [path] if path.is_file() else _walk(path)
    for file in candidates:
        suffix = file.suffix.lower()
        if suffix == ".cs":
            inputs.sources.append(file)
        elif is_ecma_archive(file):
            inputs.archives.append(file)
        elif suffix in (".dll", ".exe") and is_assembly(file):
            inputs.assemblies.append(file)
        elif suffix == ".xml" and is_compiler_doc(file):
            inputs.compiler_docs.append(file)
    return inputs


def _walk(folder: Path) -> list[Path]:
    out: list[Path] = []
    for current, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_DIRS)
        out += [Path(current) / f for f in sorted(files)]
    return out


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _read_assembly(job: tuple[Path, str, bool]) -> list[Member]:
    path, relative, include_internal = job
    return AssemblyReader(path, relative, include_internal=include_internal).members()


def _assembly_members(
    inputs: DotnetInputs, include_internal: bool, progress: Progress | None
) -> list[Member]:
    """Every assembly's members, the larger ones first, over the machine's cores (dnfile is pure Python)."""
    jobs = [
        (p, inputs.relative(p), include_internal)
        for p in sorted(inputs.assemblies, key=lambda p: -p.stat().st_size)
    ]
    workers = min(len(jobs), os.cpu_count() or 1)
    if workers <= 1:
        results = [_read_assembly(job) for job in jobs]
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(_read_assembly, jobs))
    by_name = dict(zip([j[1] for j in jobs], results, strict=True))
    members: list[Member] = []
    for done, relative in enumerate(sorted(by_name), 1):  # in path order: the same merge every build
        members += by_name[relative]
        if progress is not None:
            progress(done, len(by_name))
    return members


TYPE_SOURCE_LINES = 60  # a type's card keeps its declaration's first lines; its members keep their own
MEMBER_SOURCE_LINES = 400
CONTEXT_LINES = 3  # around each member's lines, for read_source


def _attach_source_text(root: Path, members: dict[str, Member]) -> None:
    """Each member's source lines, so that the snapshot alone answers read_source."""
    files: dict[str, list[str]] = {}
    for member in members.values():
        span = member.source
        if span is None:
            continue
        if span.file not in files:
            files[span.file] = (
                (root / span.file).read_text(encoding="utf-8-sig", errors="replace").splitlines()
            )
        limit = TYPE_SOURCE_LINES if member.is_type else MEMBER_SOURCE_LINES
        end = min(span.end_line, span.start_line + limit - 1) + CONTEXT_LINES
        span.text_start = max(1, span.start_line - CONTEXT_LINES)
        span.text = "\n".join(files[span.file][span.text_start - 1 : end])


def load_dotnet(path: Path, *, include_internal: bool = False, progress: Progress | None = None) -> Catalog:
    inputs = find_inputs(path)
    if inputs.empty():
        raise ConfigError(
            "no .NET inputs found (assemblies, ECMA doc archives with a .tree index, compiler XML "
            "docs or .cs sources)",
            location=Location(file=str(path)),
        )
    metadata = _assembly_members(inputs, include_internal, progress)
    if inputs.sources:
        metadata += read_sources(inputs.root, inputs.sources, include_internal=include_internal)
    described: list[Member] = []
    for archive in inputs.archives:
        described += read_ecma_archive(archive, inputs.relative(archive))
    docs: dict[str, MemberDocs] = {}
    for doc_file in inputs.compiler_docs:
        docs.update(read_compiler_docs(doc_file))
    members = join_members(metadata, described, docs)
    _attach_source_text(inputs.root, members)
    catalog = to_catalog(members, {inputs.relative(f): sha256_of(f) for f in inputs.files()})
    catalog.stats["dotnet"] = {
        "by_kind": catalog.stats["dotnet"],
        "inputs": {
            "assemblies": len(inputs.assemblies),
            "ecma_archives": len(inputs.archives),
            "compiler_docs": len(inputs.compiler_docs),
            "sources": len(inputs.sources),
        },
        "documented": sum(1 for m in members.values() if not m.docs.empty()),
        "with_source": sum(1 for m in members.values() if m.source is not None),
        "with_facts": sum(1 for m in members.values() if not m.facts.empty()),
        "include_internal": include_internal,
    }
    return catalog
