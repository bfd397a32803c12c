"""Load a bank HTML documentation folder into a Catalog: find the pages, parse them, assemble."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from apiatlas.catalog.model import Catalog
from apiatlas.errors import Location, ReasonCode, Severity, SourceError
from apiatlas.gc_phases import paused_collections
from apiatlas.sources.bank_html.alike import Alike, receiving
from apiatlas.sources.bank_html.assemble import assemble_catalog
from apiatlas.sources.bank_html.pages import PageKind, parse_page
from apiatlas.sources.bank_html.records import ParsedPage, finding, send_entities_compactly, share_texts
from apiatlas.sources.confine import is_inside

Progress = Callable[[int, int], None]

# (folder path from the docs root, file-name pattern, page kind); names match case-insensitively.
LAYOUT: tuple[tuple[tuple[str, ...], re.Pattern[str], PageKind], ...] = (
    (("BObjects",), re.compile(r"^BO_.+\.html?$", re.IGNORECASE), PageKind.OBJECT),
    (("BObjects", "Services"), re.compile(r"^API_.+\.html?$", re.IGNORECASE), PageKind.API),
    (("BObjects", "Services", "Tables"), re.compile(r"^T_.+\.html?$", re.IGNORECASE), PageKind.TABLE),
    (("Types",), re.compile(r"^DomainTypes\.html?$", re.IGNORECASE), PageKind.TYPES),
)
PARALLEL_FROM = 2000  # pages; below this, worker start-up costs more than it saves
_CHUNK = 256  # pages a task: fewer, larger results to receive (64: ~4 µs a page more in the loading process)
_READ_SIZE = 65_536  # bytes a read: a page is 1-2 KB, the types page more


def is_bank_docs(root: Path) -> bool:
    """True when ``root`` looks like a bank documentation folder (it has a ``BObjects`` folder)."""
    return _child_dir(root, "BObjects") is not None


def find_pages(root: Path) -> list[tuple[PageKind, str]]:
    """Every page of the docs as (kind, path relative to ``root`` in POSIX form), sorted by path."""
    return [(kind, file) for kind, file, _ in _found_pages(root)]


def _found_pages(root: Path) -> list[tuple[PageKind, str, bool]]:
    """``find_pages`` with, for each page, whether it (symlinks followed) lies inside ``root``: checked
    once per folder, and page by page only for a page that is itself a symlink."""
    pages: list[tuple[PageKind, str, bool]] = []
    for folders, pattern, kind in LAYOUT:
        folder: Path | None = root
        for name in folders:
            folder = _child_dir(folder, name) if folder is not None else None
        if folder is None:
            continue
        folder_inside = is_inside(folder, [root])
        prefix = folder.relative_to(root).as_posix() + "/"
        for entry in os.scandir(folder):
            if entry.is_file() and pattern.match(entry.name):
                inside = folder_inside and (not entry.is_symlink() or is_inside(Path(entry.path), [root]))
                pages.append((kind, prefix + entry.name, inside))
    return sorted(pages, key=lambda page: page[1])


def load_bank_docs(root: Path, *, progress: Progress | None = None, workers: int | None = None) -> Catalog:
    """Parse every page under ``root`` into a Catalog (source_kind 'bank_html').

    Bad pages never stop the load: each becomes a located diagnostic in ``catalog.diagnostics``.
    ``progress(done, total)`` is called as pages are parsed. ``workers`` is the number of
    processes (default: all cores when there are at least PARALLEL_FROM pages, else 1).
    The result does not depend on file-system order or on ``workers``.
    """
    root = Path(root)
    if not root.is_dir():
        raise SourceError(
            f"{root} is not a folder", code=ReasonCode.BAD_CONFIG, location=Location(file=str(root))
        )
    if not is_bank_docs(root):
        raise SourceError(
            f"{root} has no BObjects folder: not a bank HTML documentation set",
            code=ReasonCode.BAD_CONFIG,
            location=Location(file=str(root)),
        )
    pages = _found_pages(root)
    if workers is None:
        workers = (os.cpu_count() or 1) if len(pages) >= PARALLEL_FROM else 1
    with paused_collections():  # the pages only add objects: no collection walks them again and again
        parsed: list[ParsedPage] = []
        with receiving(Alike()) as alike:  # one instance of each alike parameter, column and error code
            for done, page in enumerate(_parse_all(root, pages, workers, alike.token), start=1):
                share_texts(page, alike.texts, alike)
                parsed.append(page)
                if progress is not None:
                    progress(done, len(pages))
        return assemble_catalog(parsed)


def _parse_all(
    root: Path, pages: list[tuple[PageKind, str, bool]], workers: int, token: int
) -> Iterator[ParsedPage]:
    """The pages parsed, in order; by ``workers`` processes sending their entities for the load of
    ``token`` (``alike.receiving``)."""
    jobs = [(kind, file, str(root), inside) for kind, file, inside in pages]
    if workers <= 1 or len(jobs) < 2:
        for job in jobs:
            yield _parse_one(job)
        return
    done = 0
    try:
        with ProcessPoolExecutor(workers, initializer=send_entities_compactly, initargs=(token,)) as pool:
            for parsed in pool.map(_parse_one, jobs, chunksize=_CHUNK):
                done += 1
                yield parsed
    except (OSError, BrokenProcessPool):  # no processes on this host: finish in this one
        for job in jobs[done:]:
            yield _parse_one(job)


def _parse_one(job: tuple[PageKind, str, str, bool]) -> ParsedPage:
    kind, file, root, inside = job
    if not inside:  # a symlink out of the documentation folder
        message = "the page is a link to outside the documentation folder; not read"
        diagnostic = finding(Severity.ERROR, ReasonCode.REF_OUTSIDE_SOURCE, message, file)
        return ParsedPage(file=file, sha256="", page=None, diagnostics=[diagnostic])
    path = os.path.join(root, file)
    try:
        data = _read_bytes(path)
    except OSError:
        data = None
    try:
        if data is None:  # read again by a file object: the diagnostic says what it says
            with open(path, "rb") as page:
                data = page.read()
    except OSError as error:
        return ParsedPage(
            file=file,
            sha256="",
            page=None,
            diagnostics=[finding(Severity.ERROR, ReasonCode.UNDECODABLE_FILE, f"cannot read: {error}", file)],
        )
    return parse_page(kind, file, data)


def _read_bytes(path: str) -> bytes:
    """The bytes of the file at ``path``, read by descriptor: a file object (``open``) and its buffer cost
    ~5 µs a page more, and ~10-15 µs more beside the parse (1-2 KB pages)."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        parts = [os.read(descriptor, _READ_SIZE)]
        while parts[-1] and (part := os.read(descriptor, _READ_SIZE)):  # until end of file: a read may
            parts.append(part)  # return less than asked before the end (a network share)
        return parts[0] if len(parts) == 1 else b"".join(parts)
    finally:
        os.close(descriptor)


def _child_dir(parent: Path, name: str) -> Path | None:
    """The sub-folder ``name`` of ``parent``, matched case-insensitively (docs come from Windows)."""
    exact = parent / name
    if exact.is_dir():
        return exact
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return None
    for entry in sorted(entries, key=lambda e: e.name):
        if entry.is_dir() and entry.name.lower() == name.lower():
            return Path(entry.path)
    return None
