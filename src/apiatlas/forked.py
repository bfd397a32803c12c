"""A result computed on another core while this process goes on: a forked child that returns it by a pipe.

The compiler's last stages run one after the other in one process while the machine's other cores wait;
some of their work reads the finished catalog and nothing else (the lexical arrays of the index pass,
read only when the snapshot writer reaches the search tables). ``Forked(work)`` forks a child that runs
``work()`` on the catalog it inherits (copy-on-write: nothing is pickled on the way in), pickles the
result into a pipe and exits; ``result()`` reads it. Where the platform has no ``fork`` (Windows; macOS,
where it is unsafe) or the process may use one core only, ``work()`` runs in this process, at once.

The parent drains the pipe on a thread as soon as the child writes: the child leaves the moment its result
is sent (a child waiting on a full pipe until ``result()`` is asked for keeps its copy-on-write share of
the catalog alive, up to the whole catalog again, since reading an object writes its reference count).

The child runs only the given function and leaves by ``os._exit``: no ``atexit`` handler, no flush of
the parent's buffers, no lock of another thread taken (the work neither logs nor prints). When ``work``
fails in the child, ``result()`` runs it again here, so its error is raised where it can be read.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import signal
import sys
import threading
import warnings
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

T = TypeVar("T")

_OK, _FAILED = b"o", b"f"


# Python >= 3.12 warns of a fork in a process that runs threads (the drain and relay threads here): the
# child runs only the work it is given (see above); the warning is silenced for this module's forks alone
warnings.filterwarnings("ignore", message=r".*fork\(\)", category=DeprecationWarning, module=__name__)


def fork_child(work: Callable[[], object]) -> tuple[int, int]:
    """Fork a child that runs ``work()``, writes ``_OK`` and its pickled result (or ``_FAILED``) into a pipe
    and leaves by ``os._exit``; returns the child's pid and the pipe's reading end. The child runs without
    automatic collections: a collection would walk (and write into) objects it shares with this process,
    and the child leaves before garbage could matter."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: compute, send, leave
        os.close(read)
        status = 0
        try:
            gc.disable()
            try:
                payload = _OK + pickle.dumps(work(), protocol=pickle.HIGHEST_PROTOCOL)
            except BaseException:  # the parent runs it again and raises it there
                payload, status = _FAILED, 1
            with os.fdopen(write, "wb") as pipe:
                pipe.write(payload)
        finally:
            os._exit(status)
    os.close(write)
    return pid, read


def read_all(pipe: int) -> bytes:
    """Everything written into ``pipe`` until its writer closes it."""
    chunks = []
    while chunk := os.read(pipe, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def usable_cores() -> int:
    """The cores this process may run on (its affinity where the platform says, else the machine's)."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else (os.cpu_count() or 1)


_in_this_process = 0  # how many ``in_this_process`` blocks are open


@contextlib.contextmanager
def in_this_process() -> Iterator[None]:
    """Within it every ``Forked`` work runs here, at once: no child beside (``apiatlas compile
    --low-memory``). A child reads its inherited copy of the catalog, and reading a Python object writes its
    reference count, so a child ends up with its own copy of most of what it reads: the memory traded for
    the time it saves."""
    global _in_this_process
    _in_this_process += 1
    try:
        yield
    finally:
        _in_this_process -= 1


def one_process(wanted: bool) -> contextlib.AbstractContextManager[None]:
    """``in_this_process()`` when ``wanted``, else nothing."""
    return in_this_process() if wanted else contextlib.nullcontext()


def can_fork() -> bool:
    """True where a forked child can compute beside this process: Linux with two usable cores or more,
    outside ``in_this_process``."""
    return (
        not _in_this_process
        and sys.platform.startswith("linux")
        and hasattr(os, "fork")
        and usable_cores() >= 2
    )


class Forked(Generic[T]):
    """``work()`` computed in a forked child (``background`` and ``can_fork()``), else in this process now.

    ``result()`` returns it (waiting for the child the first time); ``close()`` stops a child whose result
    was never read (a build that failed meanwhile). Use it as a context manager or call ``close()``.
    """

    def __init__(self, work: Callable[[], T], *, background: bool = True) -> None:
        self._work = work
        self._pid: int | None = None
        self._pipe: int | None = None
        self._done = False
        self._value: T | None = None
        self._received: list[bytes] = []
        self._drain: threading.Thread | None = None
        if background and can_fork():
            self._start()
        else:
            self._value, self._done = work(), True

    @property
    def forked(self) -> bool:
        """True when the work runs (or ran) in a child process."""
        return self._pid is not None

    def result(self) -> T:
        if not self._done:
            self._value, self._done = self._read(), True
        return self._value  # type: ignore[return-value]  # set with _done

    def close(self) -> None:
        """Stop the child if its result was not read (a no-op after ``result()``)."""
        if self._pid is not None and not self._done:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self._pid, signal.SIGKILL)
            if self._drain is not None:
                self._drain.join()  # the killed child's pipe ends
            self._reap()  # only now: an unreaped child keeps its pid, so the kill above hit no other process
            self._done, self._received = True, []
        if self._pipe is not None:
            os.close(self._pipe)
            self._pipe = None

    def __enter__(self) -> Forked[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _start(self) -> None:
        self._pid, self._pipe = fork_child(self._work)
        self._drain = threading.Thread(target=self._receive, name="forked-result", daemon=True)
        self._drain.start()

    def _receive(self) -> None:
        """The drain thread: read the child's payload as it comes (reaped by ``_read`` or ``close``)."""
        assert self._pipe is not None
        while chunk := os.read(self._pipe, 1 << 20):
            self._received.append(chunk)

    def _read(self) -> T:
        assert self._pipe is not None and self._drain is not None
        self._drain.join()
        self._reap()
        os.close(self._pipe)
        self._pipe = None
        data = b"".join(self._received)
        self._received = []
        if data[:1] == _OK:
            value: T = pickle.loads(memoryview(data)[1:])
            return value
        return self._work()  # the child failed (or was killed): the same work here, its error raised here

    def _reap(self) -> None:
        if self._pid is not None:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(self._pid, 0)
