"""Confined references: a path a source names must stay inside the source's own folder."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from apiatlas.errors import Location, ReasonCode, SourceError

_URL = re.compile(r"^([a-z][a-z0-9+.-]*:|//)", re.IGNORECASE)


def is_inside(path: Path, roots: Sequence[Path]) -> bool:
    """Whether ``path`` (symlinks followed) lies inside one of ``roots`` (symlinks followed)."""
    real = Path(path).resolve()
    return any(real == root.resolve() or real.is_relative_to(root.resolve()) for root in roots)


def confined_path(named: str, base_folder: Path, roots: Sequence[Path], where: Location) -> Path:
    """The file ``named`` (relative to ``base_folder``) when it stays inside ``roots``.

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
    if not is_inside(target, roots):
        raise SourceError(
            f"{named!r} leads outside the source's folder ({', '.join(str(r) for r in roots)})",
            code=ReasonCode.REF_OUTSIDE_SOURCE,
            location=where,
        )
    return target
