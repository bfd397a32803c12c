"""Work done beside this process in parts, each part in a short-lived child of its own (``apiatlas.forked``).

A forked child shares this process's pages until one of the two writes into one, and reading a Python
object writes its reference count: a child that reads the whole catalog ends with its own copy of most of
it, and so does a child that merely lives while this process goes over the catalog (the pages this process
writes meanwhile are copied for it, the child keeps the old ones). At 31,580 APIs the two children beside the
compiler (the lexical arrays, the APIs' rows) each held 350-400 MiB of such copies.

``ForkedParts(parts, part, finish)`` computes ``part(0)``, ``part(1)``, ..., each in a child forked for that
part alone, one after the other (a thread of this process forks the next child when the last one's result
is in), and ``finish([r0 .. rlast])`` in the last part's child (the others' results inherited: they should be
compact). A child reads one part's objects and lives one part's time: the pages it copies are about a
part's, and they are freed when it leaves. When this process asks for the result while parts are left, it
takes them itself from the last one back (the children go on from the first; ``finish`` then runs here), so
the time it would wait is spent on the work. Each fork costs time too (the page tables of the whole process
are copied, the forking thread holding the interpreter's lock: ~50 ms at 600 MiB), hence parts as large as
the memory budget lets (``part_size``: one part, i.e. one child, while the compiler is small; none, the work
in this process, when the compiler alone holds the budget). The children of all ``ForkedParts`` take turns
(``_TURN``): one beside this process at a time.

Where no child can be forked (``forked.can_fork``) or ``background`` is false, every part and ``finish`` run
here, at once, in order: the same results. A part that fails in a child (or a child killed) is run again
here by ``result()``, with what is left, so an error is raised where it can be read.
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


# what the whole process tree may hold (this process and its children beside it, by proportional set size):
# children are forked beside this process only as far as they are expected to stay within it; a process
# that holds it alone already does their work itself (``part_size``)
TREE_BUDGET_MIB = 1024
# a part's child holds about this many times the compiler's memory per API of its part: the pages of the
# objects it reads (reference counts) and those the compiler writes while it lives (measured: a rows child of
# 8,192 APIs beside the writer at 31,580 APIs held up to 1.75x its share of the compiler's memory)
COPY_FACTOR = 2.0
# the smallest part worth a fork: each fork copies the page tables of the whole process (~50 ms at 600 MiB,
# ~100 at 1 GiB, the forking thread holding the interpreter's lock), a part of 4,096 APIs' rows ~0.6 s of work
MIN_PART = 4096
ROUND = 1024  # part sizes in multiples of this


def resident_mib() -> float | None:
    """This process's resident memory (MiB), None where ``/proc`` does not say it."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return None


def part_size(count: int, *, beside_mib: float = 0.0, resident: float | None = None) -> int:
    """How many of ``count`` items (APIs) a part's child may take so that the tree stays within
    ``TREE_BUDGET_MIB``: this process's resident memory (``resident``, else now) and ``beside_mib`` already
    expected beside it (another child), the rest for one child holding ``COPY_FACTOR`` times this
    process's memory per item of its part. ``count`` (one part: the whole work in one child) when the rest
    holds it all or the platform does not say; 0 when not even ``MIN_PART`` items fit: no child, the work
    in this process."""
    resident = resident_mib() if resident is None else resident
    if resident is None or count <= 0:
        return max(count, 1)
    room = TREE_BUDGET_MIB - resident - beside_mib
    per_item = COPY_FACTOR * resident / count
    size = int(room / per_item) if room > 0 else 0
    if size >= count:
        return count
    return size // ROUND * ROUND if size >= MIN_PART else 0


def budgeted_parts(count: int, fixed: int | None = None, *, beside_mib: float = 0.0) -> list[range] | None:
    """``range(count)`` in parts of about equal size for children beside this process: of ``fixed`` items
    when given, else as many as ``part_size`` lets (one part: the whole work in one child); None when no
    part fits (the work is this process's)."""
    size = fixed or part_size(count, beside_mib=beside_mib)
    if size <= 0:
        return None
    parts = -(-count // size)
    return part_bounds(count, -(-count // parts)) if count else [range(0)]


# the children of every ``ForkedParts`` of this process take turns: one at a time beside it (the one started
# first goes first: the compiler asks for the lexical arrays before the APIs' rows), so that what they copy
# or hold is one child's at a time
_TURN = threading.Lock()


class ForkedParts(Generic[P, T]):
    """``finish`` of every ``part``'s result, each part in a forked child of its own, one after the other on
    a thread of this process (``background`` and ``can_fork()``), else all here now. ``finish`` runs in the
    child of the last part when the others' results are in by then (they are inherited: results should be
    compact), else here in ``result()``. ``result()`` returns it: while parts are left that no child took,
    this process takes them from the last one back (the children go on from the first), so the time it
    would wait for them is spent on them. ``close()`` stops the children of a result never read."""

    def __init__(
        self,
        parts: int,
        part: Callable[[int], P],
        finish: Callable[[Sequence[P]], T],
        *,
        background: bool = True,
        finish_here: bool = False,
        finish_fresh: bool = False,
    ) -> None:
        self._parts, self._part, self._finish = max(parts, 1), part, finish
        self._finish_here = finish_here and self._parts > 1
        self._fresh_wanted = finish_fresh and self._parts > 1 and fresh_possible()
        self._fresh: _Fresh | None = None  # started with the last part's child: it imports meanwhile
        self._results: dict[int, P] = {}
        self._front, self._back = 0, self._parts  # the next part a child takes; this process's from _back on
        self._value: T | None = None
        self._finished = False
        self._failed = False  # a child failed (or was killed): ``result()`` runs what is missing here
        self._child: int | None = None  # the pid of the child computing now (reaped by the relay thread)
        self._stopping = False
        self._lock = threading.Condition()
        self._relay: threading.Thread | None = None
        self.forked = background and can_fork()
        if self.forked:
            self._finish_here = self._finish_here or self._fresh_wanted
            self._relay = threading.Thread(target=self._take_turn, name="forked-parts", daemon=True)
            self._relay.start()
        else:
            self._run_here()

    def result(self) -> T:
        if self._relay is not None:
            self._take_back()
            self._relay.join()
            self._relay = None
            if self._stopping:
                raise RuntimeError("the parts were stopped before their result was read")
            self._run_here()  # what a failed child left (its error raised here), and ``finish`` if still due
        if not self._finished:  # stopped by ``close()`` before the end
            raise RuntimeError("the parts were stopped before their result was read")
        return self._value  # type: ignore[return-value]  # set with _finished

    def close(self) -> None:
        """Stop the child computing now and fork no other (a no-op once the result is in)."""
        with self._lock:
            self._stopping = True
            self._lock.notify_all()
            if self._child is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self._child, signal.SIGKILL)  # not reaped yet: the pid is still that child's
        if self._relay is not None:
            self._relay.join()

    def __enter__(self) -> ForkedParts[P, T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _in_child(self, n: int, finish: bool) -> object:
        """Part ``n`` in its child, and ``finish`` of every part's result with ``finish`` (the others' in)."""
        value = self._part(n)
        if not finish:
            return value
        return self._finish([value if m == n else self._results[m] for m in range(self._parts)])

    def _take_turn(self) -> None:
        """The relay thread: the parts' children from the first on, once the other ``ForkedParts``' children
        are done."""
        while not _TURN.acquire(timeout=0.05):
            if self._stopping:
                return
        try:
            while (step := self._next_front()) is not None:
                n, finish = step
                try:
                    child = _forked(partial(self._in_child, n, finish))
                except OSError:  # no child to be had (no memory, process or file left): the rest here
                    with self._lock:
                        self._failed = True
                        self._lock.notify_all()
                    return
                if self._fresh_wanted and self._fresh is None and n == self._back - 1:
                    self._start_fresh()  # once ``child`` is forked: it holds none of the interpreter's pipes
                if not self._run_child(n, finish, child):
                    return
            if self._fresh_wanted and self._fresh is None:
                self._start_fresh()
            if self._fresh is not None:
                with self._lock:  # the parts this process took from the back
                    while len(self._results) < self._parts and not self._stopping:
                        self._lock.wait()
                    if self._stopping or self._finished:
                        return
                    results = [self._results[m] for m in range(self._parts)]
                self._run_child(self._parts, True, self._fresh.child(results))
        finally:
            if self._fresh is not None:
                self._fresh.close()
            _TURN.release()

    def _start_fresh(self) -> None:
        """The fresh interpreter for ``finish`` started, or none wanted when it cannot start (Python's
        executable gone, no memory or process left) or be given ``finish``: it then runs in ``result()``."""
        try:
            self._fresh = _Fresh(self._finish)
        except Exception:  # also a ``finish`` that does not pickle (by reference)
            self._fresh_wanted = False

    def _next_front(self) -> tuple[int, bool] | None:
        """The next part for a child, and whether that child finishes too (the last part, the others in)."""
        with self._lock:
            if self._stopping or self._front >= self._back:
                return None
            self._front += 1
            n = self._front - 1
            last = n == self._back - 1 and len(self._results) == self._parts - 1
            return n, last and not self._finish_here

    def _run_child(self, n: int, finish: bool, child: _Child) -> bool:
        """Child ``n``'s result stored (with ``finish``: ``finish``'s); False if it failed or was stopped."""
        with self._lock:
            self._child = child.pid
            if self._stopping:  # ``close()`` came between the fork and now: it killed no child
                with contextlib.suppress(ProcessLookupError):
                    os.kill(child.pid, signal.SIGKILL)
        try:
            ok, value = child.receive()
        finally:
            with self._lock:
                self._child = None
            child.reap()  # only now: an unreaped child keeps its pid, so ``close()`` kills no other
        with self._lock:
            if not ok:
                self._failed = True
                return False
            if finish:  # ``finish``'s value
                self._value, self._finished = cast(T, value), True
                self._results.clear()
            else:
                self._results[n] = cast(P, value)
            self._lock.notify_all()
        return True

    def _take_back(self) -> None:
        """The parts no child took yet, here, from the last one back (the relay's children go on from the
        front meanwhile)."""
        while True:
            with self._lock:
                if self._stopping or self._failed or self._back <= self._front:
                    return
                self._back -= 1
                n = self._back
            value = self._part(n)
            with self._lock:
                self._results[n] = value
                self._lock.notify_all()

    def _run_here(self) -> None:
        """Every part not in yet, here in order, then ``finish`` (when no child gave it)."""
        if self._finished:
            return
        for n in range(self._parts):
            if n not in self._results:
                self._results[n] = self._part(n)
        self._value = self._finish([self._results[n] for n in range(self._parts)])
        self._finished = True
        self._results.clear()


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
        try:
            return (True, pickle.loads(memoryview(data)[1:])) if data[:1] == _OK else (False, None)
        except Exception:  # cut short (the child killed while it wrote: no memory left): as if it failed
            return False, None

    def reap() -> None:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)

    return _Child(pid, receive, reap)


# the fresh interpreter imports what this process imports, from where it does: it is started isolated (``-I``:
# no PYTHON* variable, no user site, no current directory of its own), given this process's ``sys.path`` first
# (on stdin: a PYTHONPATH set since this process started, or that it was started to ignore, a directory
# added at run time, all as here); Ctrl-C (sent to the terminal's whole process group) is this process's to
# handle: it stops the interpreter with ``close()``
_FRESH_CODE = (
    "import pickle, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); "
    "sys.path[:] = pickle.load(sys.stdin.buffer); "
    "from apiatlas.forked_parts import finish_main; finish_main()"
)


def fresh_possible() -> bool:
    """True where this Python can start a fresh interpreter of its own (not a frozen application, whose
    executable runs the application, not ``-c``)."""
    return bool(sys.executable) and not getattr(sys, "frozen", False)


class _Fresh:
    """A fresh interpreter for ``finish`` (``finish_main``), started ahead: it shares no page of this process,
    so nothing this process writes is copied for it. ``finish`` is sent at once (the interpreter imports what
    it needs while the parts are computed), the parts' results (compact) later, one after the other."""

    def __init__(self, finish: Callable[[Sequence[P]], T]) -> None:
        command = [sys.executable, "-I", "-c", _FRESH_CODE]
        self._process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self._process.stdin is not None
        try:
            with contextlib.suppress(BrokenPipeError):
                pickle.dump(list(sys.path), self._process.stdin, protocol=pickle.HIGHEST_PROTOCOL)
                pickle.dump(finish, self._process.stdin, protocol=pickle.HIGHEST_PROTOCOL)
                self._process.stdin.flush()
        except BaseException:  # ``finish`` does not pickle: no interpreter left waiting for it
            self.close()
            raise

    def child(self, done: list[P]) -> _Child:
        process = self._process

        def receive() -> tuple[bool, object]:
            assert process.stdin is not None and process.stdout is not None
            with contextlib.suppress(BrokenPipeError), process.stdin:  # broken: killed by ``close()``
                for item in (len(done), *done):
                    pickle.dump(item, process.stdin, protocol=pickle.HIGHEST_PROTOCOL)
            with process.stdout:  # read as it comes: the whole result's bytes are never held here
                try:
                    ok = process.stdout.read(1) == _OK
                    return (True, pickle.load(process.stdout)) if ok else (False, None)
                except Exception:  # cut short: killed while it wrote
                    return False, None

        def reap() -> None:
            process.wait()

        return _Child(process.pid, receive, reap)

    def close(self) -> None:
        """Stop the interpreter if its finish was never asked for (a no-op once it has left)."""
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()
        for pipe in (self._process.stdin, self._process.stdout):
            if pipe is not None:
                with contextlib.suppress(BrokenPipeError):  # what was left unsent: it has left
                    pipe.close()


def finish_main() -> None:
    """A fresh interpreter's ``finish``: on stdin, pickled one after the other (after ``sys.path``, read by
    ``_FRESH_CODE``), ``finish``, the number of results and each result; on stdout ``_OK`` and
    ``finish(results)`` pickled (``_FAILED`` if it fails: the parent runs it again and raises). ``finish`` is
    given an iterator: each result is read from stdin when reached, so no more than one is held here at a
    time."""
    source, out = sys.stdin.buffer, sys.stdout.buffer
    try:
        finish = pickle.load(source)
        count = pickle.load(source)
    except EOFError:  # not needed after all (the parent's parts failed or were stopped)
        return
    results = (pickle.load(source) for _ in range(count))
    try:
        value = finish(results)
        for _ in results:  # what ``finish`` left unread: the parent writes it all before it reads (else both
            pass  # would wait, writing into a full pipe)
    except BaseException:
        out.write(_FAILED)
    else:  # written as it is pickled: the whole result's bytes are never held here either
        out.write(_OK)
        pickle.dump(value, out, protocol=pickle.HIGHEST_PROTOCOL)
    out.flush()

