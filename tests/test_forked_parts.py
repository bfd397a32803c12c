"""``apiatlas.forked_parts``: work in parts, each part in a short-lived forked child of its own, one child at
a time beside this process, and the compiler's lexical arrays and API rows built that way give the same
snapshot, byte for byte, as built in the compiler's own process."""

from __future__ import annotations

import importlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Sequence
from functools import partial
from itertools import pairwise
from pathlib import Path
from typing import TypeVar

import pytest

from apiatlas import forked, forked_parts
from apiatlas.build import compile_docs
from apiatlas.forked import can_fork
from apiatlas.forked_parts import ForkedParts, budgeted_parts, part_bounds, part_size

REPO = Path(__file__).resolve().parents[1]
BANK_DOCS = REPO / "examples" / "bank" / "docs"
BANK_CONFIG = REPO / "examples" / "bank" / "apiatlas.yaml"

index_pass = importlib.import_module("apiatlas.passes.index")  # the package exports the pass function
api_rows = importlib.import_module("apiatlas.snapshot.api_rows")

needs_fork = pytest.mark.skipif(not can_fork(), reason="no fork here (not Linux, or one usable core)")


@pytest.fixture(autouse=True)
def _room_for_children(monkeypatch: pytest.MonkeyPatch) -> None:
    """The children's memory budget out of the way but where a test sets it: it depends on this process's
    size, which grows with the tests run before."""
    monkeypatch.setattr(forked_parts, "TREE_BUDGET_MIB", 10**9)

P = TypeVar("P")
T = TypeVar("T")
Stamp = tuple[int, int, float, float]  # part, pid, start, end


def _stamped(n: int) -> Stamp:
    start = time.monotonic()
    time.sleep(0.05)
    return n, os.getpid(), start, time.monotonic()


def _all(done: Sequence[Stamp]) -> list[Stamp]:
    return list(done)


def _children_done(job: ForkedParts[P, T]) -> ForkedParts[P, T]:
    """``job`` once its children took every part (asked for earlier, this process would take some)."""
    assert job._relay is not None
    job._relay.join()
    return job


def test_part_bounds_cut_the_range_in_order() -> None:
    assert part_bounds(10, 4) == [range(0, 4), range(4, 8), range(8, 10)]
    assert part_bounds(8, 4) == [range(0, 4), range(4, 8)]
    assert part_bounds(0, 4) == [range(0)]


def test_the_parts_are_as_large_as_the_budget_lets(monkeypatch: pytest.MonkeyPatch) -> None:
    """A small compiler: one part (the whole work in one child, as fast as one child); a larger one: parts of
    about equal size whose child fits beside it within the budget; one holding the budget alone: no child."""
    monkeypatch.setattr(forked_parts, "TREE_BUDGET_MIB", 1024)
    budget = forked_parts.TREE_BUDGET_MIB
    assert part_size(3000, resident=budget / 10) == 3000
    size = part_size(30000, resident=budget * 0.6)
    assert forked_parts.MIN_PART <= size < 30000 and size % forked_parts.ROUND == 0
    expected = forked_parts.COPY_FACTOR * budget * 0.6 / 30000 * size  # what one such child is taken to hold
    assert budget * 0.6 + expected <= budget
    assert part_size(30000, resident=budget * 0.6, beside_mib=budget * 0.3) < size  # room taken beside
    assert part_size(100000, resident=budget * 1.2) == 0
    cut = budgeted_parts(1000, 300)
    assert cut is not None and [len(r) for r in cut] == [250, 250, 250, 250]  # four parts, evenly
    assert [r.start for r in cut] == [0, 250, 500, 750]


@needs_fork
def test_each_part_runs_in_a_child_of_its_own_one_after_the_other() -> None:
    with ForkedParts(4, _stamped, _all) as job:
        assert job.forked
        stamps = _children_done(job).result()
    assert [s[0] for s in stamps] == [0, 1, 2, 3]
    pids = {s[1] for s in stamps}
    assert len(pids) == 4 and os.getpid() not in pids
    assert all(a[3] <= b[2] for a, b in pairwise(stamps))  # never two at once


def _slow_part(n: int) -> tuple[int, int]:
    time.sleep(0.3)
    return n, os.getpid()


@needs_fork
def test_asked_early_this_process_takes_the_parts_left_from_the_last_one_back() -> None:
    job = ForkedParts(6, _slow_part, list)
    done = job.result()  # asked at once: the children take the first parts, this process the last ones
    assert [n for n, _ in done] == list(range(6))
    here = [n for n, pid in done if pid == os.getpid()]
    assert here and here == list(range(6 - len(here), 6))  # a run of the last parts
    assert done[0][1] != os.getpid()


@needs_fork
def test_finish_fresh_runs_in_a_fresh_interpreter() -> None:
    """``finish`` (picklable by reference) gets every part's result in a process that was not forked from
    this one: ``sorted`` of the parts' pids, computed there, is the same list."""
    job = ForkedParts(3, lambda n: os.getpid(), sorted, finish_fresh=True)
    pids = job.result()
    assert len(pids) == 3 and pids == sorted(pids)


@needs_fork
def test_the_children_of_two_jobs_take_turns() -> None:
    first, second = ForkedParts(3, _stamped, _all), ForkedParts(3, _stamped, _all)
    a, b = _children_done(first).result(), _children_done(second).result()
    assert a[-1][3] <= b[0][2]  # the second job's first child started after the first job's last one left


def _fails_at_two(n: int) -> int:
    if n == 2:
        raise ValueError(f"part {n} is wrong")
    return os.getpid()


@needs_fork
def test_a_failing_part_is_run_again_here_and_its_error_raised_here() -> None:
    job = ForkedParts(4, _fails_at_two, list)
    with pytest.raises(ValueError, match="part 2 is wrong"):
        job.result()


@needs_fork
def test_close_stops_the_child_and_forks_no_other() -> None:
    job = ForkedParts(3, lambda n: time.sleep(60), list)
    deadline = time.monotonic() + 30
    while job._child is None and time.monotonic() < deadline:
        time.sleep(0.01)
    pid = job._child
    assert pid is not None
    job.close()
    with pytest.raises(ChildProcessError):  # stopped and reaped: no zombie left behind
        os.waitpid(pid, os.WNOHANG)
    with pytest.raises(RuntimeError, match="stopped"):
        job.result()


def test_without_background_every_part_runs_here_at_once() -> None:
    calls: list[int] = []

    def part(n: int) -> int:
        calls.append(n)
        return os.getpid()

    job = ForkedParts(3, part, list, background=False, finish_fresh=True)
    assert calls == [0, 1, 2] and not job.forked
    assert job.result() == [os.getpid()] * 3


def _compile(out: Path) -> bytes:
    out.parent.mkdir(parents=True)
    compile_docs(
        BANK_DOCS, overlays_dir=None, config_path=BANK_CONFIG, out=out, embeddings="none", write_report=False
    )
    return out.read_bytes()


@needs_fork
def test_lexical_arrays_and_api_rows_in_parts_give_the_same_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bank's 263 APIs (kept and dropped) cut into parts of 64 (5 children each, the lexical arrays
    finished in a fresh interpreter; the writer takes the rows' parts no child took yet when it asks for
    them) write the bytes the compiling process writes alone, and so does a compile whose budget leaves no
    room for a child."""
    made: list[tuple[int, bool]] = []
    real = ForkedParts.__init__

    def counted(self: ForkedParts[object, object], parts: int, *args: object, **kwargs: object) -> None:
        real(self, parts, *args, **kwargs)
        made.append((parts, self.forked))

    monkeypatch.setattr(ForkedParts, "__init__", counted)
    monkeypatch.setattr(index_pass, "PART_APIS", 64)
    monkeypatch.setattr(api_rows, "PART_APIS", 64)
    with forked.in_this_process():
        here = _compile(tmp_path / "here" / "bank.atlas")
    monkeypatch.setattr(index_pass, "BACKGROUND_FROM", 0)
    monkeypatch.setattr(api_rows, "BESIDE_FROM", 0)
    in_parts = _compile(tmp_path / "parts" / "bank.atlas")
    assert made == [(1, False), (5, True), (5, True)]  # the rows here; the lexical arrays and rows in parts
    assert here == in_parts
    made.clear()
    monkeypatch.setattr(index_pass, "PART_APIS", None)
    monkeypatch.setattr(api_rows, "PART_APIS", None)
    monkeypatch.setattr(forked_parts, "TREE_BUDGET_MIB", 0)  # this process holds more than that alone
    assert _compile(tmp_path / "none" / "bank.atlas") == here
    assert made == [(1, False)]  # the lexical arrays built in the index pass, the rows in the writer
    names = ["bank.atlas", "bank.atlas", "bank.atlas", "here", "none", "parts"]
    assert sorted(p.name for p in tmp_path.rglob("*")) == names


def _index(n: int) -> int:
    return n


def _where_json_is(done: Iterable[int]) -> tuple[list[int], int, str]:
    """The parts' results, this process's pid and where its ``json`` module is (a finish run fresh)."""
    import json

    return list(done), os.getpid(), json.__file__


@needs_fork
def test_the_fresh_interpreter_imports_what_this_process_imports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fresh interpreter finds the modules this process finds, where it finds them: not a ``json`` of a
    PYTHONPATH set since this process started (or that it was started to ignore: ``python -I``) or of the
    current directory (the compiler's ``json.dumps`` writes the lexical arrays), and this test's own module
    (on a ``sys.path`` entry pytest added at run time)."""
    (tmp_path / "json.py").write_text("raise ImportError('a json that is not this process')\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    done, pid, where = ForkedParts(3, _index, _where_json_is, finish_fresh=True).result()
    assert done == [0, 1, 2]
    assert pid != os.getpid()  # finished fresh, not here again after the fresh interpreter failed
    assert where == json.__file__


@needs_fork
def test_a_fresh_finish_that_leaves_results_unread_still_returns() -> None:
    """``finish`` reads the first of three results of 1 MiB and returns it: the fresh interpreter reads the
    other two before it writes (else it would wait on a full pipe while this process waits to write them).
    In a process of its own, stopped if it ever hangs."""
    code = (
        "from apiatlas.forked_parts import ForkedParts\n"
        "r = ForkedParts(3, lambda n: bytes([n]) * 2**20, next, finish_fresh=True).result()\n"
        "assert r == bytes(2**20), r[:4]\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    done = subprocess.run([sys.executable, "-c", code], env=env, timeout=60, capture_output=True, check=False)
    assert done.returncode == 0, done.stderr.decode()


def _pid_noted(folder: Path, n: int) -> int:
    (folder / f"{n}-{os.getpid()}.pid").write_text(str(os.getpid()))
    return n


@needs_fork
@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_fresh_interpreter_that_cannot_start_leaves_no_child_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Python's executable gone (a virtual environment rebuilt during a long compile): the finish runs here,
    and every child forked for a part is reaped, the one forked just before the interpreter was to start
    too."""
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python-gone"))
    job = ForkedParts(3, partial(_pid_noted, tmp_path), list, finish_fresh=True)
    assert _children_done(job).result() == [0, 1, 2]  # the children went as far as they could
    children = {int(p.read_text()) for p in tmp_path.glob("*.pid")} - {os.getpid()}
    assert children
    for pid in children:
        with pytest.raises(ChildProcessError):  # reaped: no child left running or as a zombie
            os.waitpid(pid, os.WNOHANG)


class _Stopped(Exception):
    pass


def _stop_at_graph(step: str) -> None:
    if step == "pass graph":  # the lexical parts were started before the pass before it (types)
        raise _Stopped(step)


def _children_of_this_process() -> set[int]:
    """The pids of this process's children (running or not reaped), from ``/proc``."""
    mine = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # left meanwhile
            continue
        if int(fields[1]) == os.getpid():  # its parent
            mine.add(int(stat.parent.name))
    return mine


@needs_fork
def test_a_compile_stopped_in_the_passes_stops_the_lexical_parts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A compile that fails (or is interrupted) in a pass after the lexical parts were started early leaves no
    child or fresh interpreter of theirs running, nor their relay thread."""
    monkeypatch.setattr(index_pass, "PART_APIS", 64)
    monkeypatch.setattr(index_pass, "BACKGROUND_FROM", 0)
    before = _children_of_this_process()  # those of tests before (a server's, say)
    with pytest.raises(_Stopped):
        compile_docs(
            BANK_DOCS,
            overlays_dir=None,
            config_path=BANK_CONFIG,
            out=tmp_path / "bank.atlas",
            embeddings="none",
            write_report=False,
            on_step=_stop_at_graph,
        )
    assert not [t for t in threading.enumerate() if t.name == "forked-parts"]
    assert _children_of_this_process() <= before


@needs_fork
@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_finish_the_fresh_interpreter_cannot_be_given_runs_here() -> None:
    """A ``finish`` that does not pickle (a lambda) is run here; the interpreter started for it and the
    parts' children are all stopped and reaped."""
    before = _children_of_this_process()  # those of tests before (a server's, say)
    job = ForkedParts(3, _index, lambda done: [n * 2 for n in done], finish_fresh=True)
    assert _children_done(job).result() == [0, 2, 4]
    assert _children_of_this_process() <= before


def _cannot_be_read(n: int) -> int:
    raise ValueError(f"part {n}'s result cannot be read back")


class _Unreadable:
    """A part's result that pickles but cannot be unpickled: as a child killed (by the kernel when memory
    runs out) while it wrote its result leaves a payload cut short."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return _cannot_be_read, (self.n,)


def _unreadable_in_a_child(parent: int, n: int) -> object:
    return _Unreadable(n) if os.getpid() != parent else n


@needs_fork
@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_child_result_that_cannot_be_read_is_computed_here() -> None:
    """The part is run again here, like the part of a child that failed; the relay thread ends quietly."""
    job = ForkedParts(3, partial(_unreadable_in_a_child, os.getpid()), list)
    assert _children_done(job).result() == [0, 1, 2]


def _slow_index(n: int) -> int:
    time.sleep(0.5)
    return n


def _pids_and_parts(done: Iterable[int]) -> tuple[list[int], int]:
    return list(done), os.getpid()


@needs_fork
def test_ctrl_c_is_left_to_this_process_by_the_fresh_interpreter() -> None:
    """Ctrl-C reaches every process of the terminal's group: the fresh interpreter goes on (this process
    decides, and stops it with ``close()``) rather than print a traceback of its own."""
    job = ForkedParts(2, _slow_index, _pids_and_parts, finish_fresh=True)
    deadline = time.monotonic() + 30
    while job._fresh is None and time.monotonic() < deadline:  # started with the last part's child
        time.sleep(0.01)
    assert job._fresh is not None
    time.sleep(0.3)  # into its imports
    os.kill(job._fresh._process.pid, signal.SIGINT)
    done, pid = _children_done(job).result()
    assert done == [0, 1] and pid != os.getpid()
