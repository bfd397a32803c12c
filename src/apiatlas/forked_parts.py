"""Work done beside this process in parts, each part in a short-lived child of its own (``apiatlas.forked``).

A forked child shares this process's pages until one of the two writes into one, and reading a Python
object writes its reference count: a child that reads the whole catalog ends with its own copy of most of
it, and so does a child that merely lives while this process goes over the catalog (the pages this process
writes meanwhile are copied for it, the child keeps the old ones). At 31,580 APIs the two children beside the
compiler (the lexical arrays, the APIs' rows) each held 350-400 MiB of such copies.

``ForkedParts(parts, part, finish)`` computes ``part(0, [])``, ``part(1, [r0])``, ...,
``part(n, [r0 .. rn-1])``, each in a child forked for that part alone, one after the other (a thread of this
process forks the next child when the last one's result is in), then ``finish([r0 .. rlast])`` in the last
part's child, or with ``finish_alone`` in a fresh interpreter (``finish_main``: it shares no page, it copies
none; its input is the parts' results, pickled). A child reads one part's objects and lives one part's time:
the pages it copies are about a part's, and they are freed when it leaves. Each fork costs time too (the page
tables of the whole process are copied: ~20-40 ms at 600 MiB), hence parts of thousands of APIs rather than
one child per API. The children of all ``ForkedParts`` take turns (``_TURN``): one beside this process at
a time.

Where no child can be forked (``forked.can_fork``) or ``background`` is false, every part and ``finish`` run
here, at once, in order: the same results. A step that fails in a child (or a child killed) is run again
here by ``result()``, with the steps after it, so an error is raised where it can be read.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Generic, TypeVar, cast

from apiatlas.forked import _FAILED, _OK, can_fork, fork_child, read_all

P = TypeVar("P")
T = TypeVar("T")


def part_bounds(count: int, size: int) -> list[range]:
    """``range(count)`` cut into consecutive ranges of ``size`` items (the last one shorter), at least one."""
    return [range(start, min(start + size, count)) for start in range(0, count, size)] or [range(0)]


# the children of every ``ForkedParts`` of this process take turns: one at a time beside it (the one started
# first goes first: the compiler asks for the lexical arrays before the APIs' rows), so that what they copy
# or hold is one child's at a time
_TURN = threading.Lock()


class ForkedParts(Generic[P, T]):
    """``finish`` of every ``part``'s result, each part in a forked child of its own, one after the other on
    a thread of this process (``background`` and ``can_fork()``), else all here now. ``finish`` runs in the
    last part's child, or with ``finish_alone`` in a child of its own after it (a ``finish`` that holds
    much while the parts' children hold little). ``result()`` returns it (waiting for the children);
    ``close()`` stops the children of a result never read."""

    def __init__(
        self,
        parts: int,
        part: Callable[[int, Sequence[P]], P],
        finish: Callable[[Sequence[P]], T],
        *,
        background: bool = True,
        finish_alone: bool = False,
    ) -> None:
        self._parts, self._part, self._finish = max(parts, 1), part, finish
        self._steps = self._parts + 1 if finish_alone and self._parts > 1 else self._parts
        self._done: list[P] = []  # the parts' results so far, in order
        self._value: T | None = None
        self._finished = False
        self._failed_at: int | None = None  # the step whose child failed (run again by ``result()``)
        self._child: int | None = None  # the pid of the child computing now (reaped by the relay thread)
        self._stopping = False
        self._lock = threading.Lock()
        self._relay: threading.Thread | None = None
        self.forked = background and can_fork()
        if self.forked:
            self._relay = threading.Thread(target=self._take_turn, name="forked-parts", daemon=True)
            self._relay.start()
        else:
            self._run_here(0)

    def result(self) -> T:
        if self._relay is not None:
            self._relay.join()
            self._relay = None
            if self._failed_at is not None:
                self._run_here(self._failed_at)
        if not self._finished:  # stopped by ``close()`` before the end
            raise RuntimeError("the parts were stopped before their result was read")
        return self._value  # type: ignore[return-value]  # set with _finished

    def close(self) -> None:
        """Stop the child computing now and fork no other (a no-op once the result is in)."""
        with self._lock:
            self._stopping = True
            if self._child is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self._child, signal.SIGKILL)  # not reaped yet: the pid is still that child's
        if self._relay is not None:
            self._relay.join()

    def __enter__(self) -> ForkedParts[P, T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _step(self, n: int) -> object:
        """Step ``n``'s work in its child: a part's result, or ``finish`` of them all for the last step."""
        if n == self._parts:  # ``finish_alone``
            return self._finish(self._done)
        value = self._part(n, self._done)
        return self._finish([*self._done, value]) if n == self._steps - 1 else value

    def _take_turn(self) -> None:
        """The relay thread: the steps' children once the other ``ForkedParts``' children are done."""
        while not _TURN.acquire(timeout=0.05):
            if self._stopping:
                return
        try:
            self._run_steps(range(self._steps))
        finally:
            _TURN.release()

    def _run_steps(self, steps: range) -> bool:
        """Start each step's child when the last one's result is in; False when one failed or was stopped."""
        for n in steps:
            with self._lock:
                if self._stopping:
                    return False
                alone = n == self._parts  # ``finish_alone``: in a fresh interpreter
                child = _fresh(self._finish, self._done) if alone else _forked(partial(self._step, n))
                self._child = child.pid
            try:
                ok, value = child.receive()
            finally:
                with self._lock:
                    self._child = None
                child.reap()  # only now: an unreaped child keeps its pid, so ``close()`` kills no other
            if not ok:
                self._failed_at = None if self._stopping else n
                return False
            if n == self._steps - 1:  # ``finish``'s value (what the steps' children send is unpickled here)
                self._value, self._finished, self._done = cast(T, value), True, []
            else:
                self._done.append(cast(P, value))
        return True

    def _run_here(self, start: int) -> None:
        """Steps ``start`` on, in this process."""
        for n in range(start, self._parts):
            self._done.append(self._part(n, self._done))
        self._value, self._finished = self._finish(self._done), True


@dataclass
class _Child:
    pid: int
    receive: Callable[[], tuple[bool, object]]  # (True, its result) or (False, None) when it failed
    reap: Callable[[], None]


def _forked(work: Callable[[], object]) -> _Child:
    pid, pipe = fork_child(work)

    def receive() -> tuple[bool, object]:
        try:
            data = read_all(pipe)
        finally:
            os.close(pipe)
        return (True, pickle.loads(memoryview(data)[1:])) if data[:1] == _OK else (False, None)

    def reap() -> None:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)

    return _Child(pid, receive, reap)


_FRESH = [sys.executable, "-c", "from apiatlas.forked_parts import finish_main; finish_main()"]


def _fresh(finish: Callable[[Sequence[P]], T], done: list[P]) -> _Child:
    """``finish(done)`` in a fresh interpreter (``finish_main``): it shares no page of this process, so
    nothing this process writes meanwhile is copied for it; its input is the parts' results (compact), sent
    one after the other."""
    process = subprocess.Popen(_FRESH, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def receive() -> tuple[bool, object]:
        assert process.stdin is not None and process.stdout is not None
        with contextlib.suppress(BrokenPipeError), process.stdin:  # broken: killed by ``close()``
            for item in (finish, len(done), *done):
                pickle.dump(item, process.stdin, protocol=pickle.HIGHEST_PROTOCOL)
        with process.stdout:  # read as it comes: the whole result's bytes are never held here
            try:
                return (True, pickle.load(process.stdout)) if process.stdout.read(1) == _OK else (False, None)
            except (EOFError, pickle.UnpicklingError):  # killed while it wrote
                return False, None

    def reap() -> None:
        process.wait()

    return _Child(process.pid, receive, reap)


def finish_main() -> None:
    """A fresh interpreter's ``finish``: on stdin, pickled one after the other, ``finish``, the number of
    results and each result; on stdout ``_OK`` and ``finish(results)`` pickled (``_FAILED`` if it fails: the
    parent runs it again and raises). ``finish`` is given an iterator: each result is read from stdin when
    reached, so no more than one is held here at a time."""
    source, out = sys.stdin.buffer, sys.stdout.buffer
    finish, count = pickle.load(source), pickle.load(source)
    try:
        value = finish(pickle.load(source) for _ in range(count))
    except BaseException:
        out.write(_FAILED)
    else:  # written as it is pickled: the whole result's bytes are never held here either
        out.write(_OK)
        pickle.dump(value, out, protocol=pickle.HIGHEST_PROTOCOL)
    out.flush()
