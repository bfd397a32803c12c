"""Atomic outputs: every file is built beside its target and renamed into place only when complete.

A failure of any kind (an exception, a refused build, SIGINT or SIGTERM turned into an exception by
``signals_raise``) removes the temporary file and leaves the previous target byte-identical.
"""

from __future__ import annotations

import os
import signal
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

TEMP_SUFFIX = ".tmp"


class Terminated(BaseException):
    """SIGTERM arrived: unwinds like KeyboardInterrupt so that every ``finally`` and cleanup runs."""


def temp_beside(target: Path) -> Path:
    """A fresh, empty temporary file in ``target``'s folder (same file system, so the rename is atomic)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=target.parent)
    os.close(fd)
    return Path(name)


def _fsync(path: Path) -> None:
    with path.open("rb") as handle:
        os.fsync(handle.fileno())


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _discard(tmp: Path) -> None:
    tmp.unlink(missing_ok=True)
    Path(f"{tmp}-journal").unlink(missing_ok=True)


class Staging:
    """Several outputs committed together: each gets a temporary path; ``commit`` renames them all."""

    def __init__(self) -> None:
        self._pending: dict[Path, Path] = {}  # target -> temporary file

    def path_for(self, target: Path) -> Path:
        """The temporary path to write instead of ``target``."""
        target = Path(target)
        if target not in self._pending:
            self._pending[target] = temp_beside(target)
        return self._pending[target]

    def commit(self) -> None:
        """fsync every temporary file, then rename each over its target."""
        for tmp in self._pending.values():
            if tmp.exists():
                _fsync(tmp)
        for target, tmp in list(self._pending.items()):
            if tmp.exists():
                os.replace(tmp, target)
                _fsync_folder(target.parent)
            del self._pending[target]

    def discard(self) -> None:
        """Remove every temporary file; the targets stay as they were."""
        for tmp in self._pending.values():
            _discard(tmp)
        self._pending.clear()


@contextmanager
def staged_outputs() -> Iterator[Staging]:
    """A ``Staging`` committed when the block ends normally and discarded on any exception or signal."""
    staging = Staging()
    try:
        yield staging
    except BaseException:
        staging.discard()
        raise
    staging.commit()


@contextmanager
def staged(target: Path) -> Iterator[Path]:
    """One output: yields the temporary path to write; renamed over ``target`` when the block succeeds."""
    with staged_outputs() as staging:
        yield staging.path_for(Path(target))


def write_text(target: Path, text: str, *, encoding: str = "utf-8", newline: str | None = None) -> None:
    """``Path.write_text``, atomically."""
    with staged(target) as tmp:
        tmp.write_text(text, encoding=encoding, newline=newline)


def write_bytes(target: Path, data: bytes) -> None:
    """``Path.write_bytes``, atomically."""
    with staged(target) as tmp:
        tmp.write_bytes(data)


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated(f"signal {signum}")


@contextmanager
def signals_raise() -> Iterator[None]:
    """While the block runs, SIGTERM raises ``Terminated`` and SIGINT ``KeyboardInterrupt``."""
    try:
        previous_term = signal.signal(signal.SIGTERM, _raise_terminated)
        previous_int = signal.signal(signal.SIGINT, signal.default_int_handler)
    except ValueError:  # not the main thread: signals cannot be caught here
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous_term)
        signal.signal(signal.SIGINT, previous_int)
