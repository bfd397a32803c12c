"""Confined references: a path a source names must stay inside the source's own folder.

A build config may name extra folders a source's references may read (``ref_folders``); the build
sets them around loading the source with ``allowed_ref_folders``, so a source format's ``load`` (a
plugin's too) keeps its signature, and ``confined_path`` accepts them beside the source's own roots.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from apiatlas.errors import Location, ReasonCode, SourceError

_URL = re.compile(r"^([a-z][a-z0-9+.-]*:|//)", re.IGNORECASE)
_EXTRA_ROOTS: ContextVar[tuple[Path, ...]] = ContextVar("apiatlas_ref_folders", default=())


@contextmanager
def allowed_ref_folders(folders: Sequence[Path]) -> Iterator[None]:
    """While loading a source, references may also read files inside ``folders`` (resolved)."""
    token = _EXTRA_ROOTS.set(tuple(Path(f).resolve() for f in folders))
    try:
        yield
    finally:
        _EXTRA_ROOTS.reset(token)


def is_inside(path: Path, roots: Sequence[Path]) -> bool:
    """Whether ``path`` (symlinks followed) lies inside one of ``roots`` (symlinks followed)."""
    real = Path(path).resolve()
    return any(real == root.resolve() or real.is_relative_to(root.resolve()) for root in roots)


def confined_path(named: str, base_folder: Path, roots: Sequence[Path], where: Location) -> Path:
    """The file ``named`` (relative to ``base_folder``) when it stays inside ``roots`` or a folder the
    build config allows (``allowed_ref_folders``).

    A URL, an absolute path, a ``..`` escape or a symlink leading out is a
    SourceError(REF_OUTSIDE_SOURCE) at ``where``.
    """
    if _URL.match(named) and not re.match(r"^[a-z]:[\\/]", named, re.IGNORECASE):
        raise SourceError(
            f"{named!r} is a URL: only files inside the source's folder are read (offline build)",
            code=ReasonCode.REF_OUTSIDE_SOURCE,
            location=where,
        )
    if Path(named).is_absolute() or re.match(r"^([a-z]:)?[\\/]", named, re.IGNORECASE):
        raise SourceError(
            f"{named!r} is an absolute path: only files inside the source's folder are read",
            code=ReasonCode.REF_OUTSIDE_SOURCE,
            location=where,
        )
    target = (base_folder / named).resolve()
    extra = _EXTRA_ROOTS.get()
    if not is_inside(target, [*roots, *extra]):
        allowed = ", ".join(str(r) for r in [*roots, *extra])
        raise SourceError(
            f"{named!r} leads outside the source's folder ({allowed}; "
            "the build config's ref_folders may allow more)",
            code=ReasonCode.REF_OUTSIDE_SOURCE,
            location=where,
        )
    return target
