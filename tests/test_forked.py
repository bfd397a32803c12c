"""``apiatlas.forked``: a result computed in a forked child, and the compiler's lexical arrays built that way
give the same snapshot, byte for byte, as built in the compiler's own process."""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import pytest

from apiatlas import forked, forked_parts
from apiatlas.build import compile_docs
from apiatlas.forked import Forked, can_fork
from apiatlas.forked_parts import ForkedParts

REPO = Path(__file__).resolve().parents[1]
BANK_DOCS = REPO / "examples" / "bank" / "docs"
BANK_CONFIG = REPO / "examples" / "bank" / "apiatlas.yaml"

index_pass = importlib.import_module("apiatlas.passes.index")  # the package exports the pass function

needs_fork = pytest.mark.skipif(not can_fork(), reason="no fork here (not Linux, or one usable core)")


@pytest.fixture(autouse=True)
def _room_for_children(monkeypatch: pytest.MonkeyPatch) -> None:
    """The children's memory budget out of the way: it depends on this process's size, which grows with the
    tests run before (``tests/test_forked_parts.py`` tests the budget itself)."""
    monkeypatch.setattr(forked_parts, "TREE_BUDGET_MIB", 10**9)


def _fail() -> int:
    raise ValueError("the work itself is wrong")


@needs_fork
def test_the_work_runs_in_a_child_and_its_result_comes_back() -> None:
    with Forked(lambda: (os.getpid(), list(range(100_000)))) as job:
        assert job.forked
        pid, numbers = job.result()
        assert pid != os.getpid()
        assert numbers == list(range(100_000))
        assert job.result() is job.result()  # read once


@needs_fork
def test_a_failure_in_the_child_is_raised_here() -> None:
    calls: list[int] = []

    def work() -> int:
        calls.append(os.getpid())
        return _fail()

    job = Forked(work)
    with pytest.raises(ValueError, match="the work itself is wrong"):
        job.result()
    assert calls == [os.getpid()]  # the child's own call happened in the child (its list is its own)
    job.close()


@needs_fork
def test_the_child_leaves_once_its_result_is_sent_before_it_is_asked_for() -> None:
    """A result larger than a pipe holds: the child has exited (a zombie holding no memory, left for
    ``result()`` to reap, so its pid is not reused meanwhile) while ``result()`` was never called."""
    import time

    job = Forked(lambda: b"x" * (8 << 20))
    pid = job._pid
    assert pid is not None
    exited = None
    deadline = time.monotonic() + 60
    while exited is None and time.monotonic() < deadline:
        exited = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        time.sleep(0.05)
    assert exited is not None and exited.si_pid == pid
    assert job.result() == b"x" * (8 << 20)
    with pytest.raises(ChildProcessError):  # reaped by result()
        os.waitpid(pid, os.WNOHANG)


@needs_fork
def test_close_before_result_stops_the_child() -> None:
    job = Forked(lambda: __import__("time").sleep(60))
    pid = job._pid
    assert pid is not None
    job.close()
    with pytest.raises(ChildProcessError):  # stopped and reaped: no zombie left behind
        os.waitpid(pid, os.WNOHANG)


def test_without_background_the_work_runs_here_at_once() -> None:
    calls: list[int] = []

    def work() -> int:
        calls.append(os.getpid())
        return 7

    job = Forked(work, background=False)
    assert calls == [os.getpid()] and not job.forked
    assert job.result() == 7


def test_one_core_means_no_fork(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked, "usable_cores", lambda: 1)
    assert not can_fork()
    assert not Forked(lambda: 1).forked


def _compile(out: Path, background_from: int, monkeypatch: pytest.MonkeyPatch) -> bytes:
    monkeypatch.setattr(index_pass, "BACKGROUND_FROM", background_from)
    out.parent.mkdir(parents=True)
    compile_docs(
        BANK_DOCS, overlays_dir=None, config_path=BANK_CONFIG, out=out, embeddings="none", write_report=False
    )
    return out.read_bytes()


@needs_fork
def test_lexical_arrays_from_a_child_give_the_same_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[bool] = []
    real = index_pass.lexical_parts

    def counted(catalog: object) -> object:
        job = real(catalog)
        calls.append(job.forked)
        return job

    monkeypatch.setattr(index_pass, "lexical_parts", counted)
    here = _compile(tmp_path / "here" / "bank.atlas", 10**9, monkeypatch)
    child = _compile(tmp_path / "child" / "bank.atlas", 0, monkeypatch)
    assert calls == [True]  # in a child for the second compile only
    assert here == child


@needs_fork
def test_the_lexical_child_starts_before_the_types_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The passes from the types' on leave the cards as they are: the child is forked as the types pass
    starts (building the arrays beside it and the graph's) and the index pass takes it over rather than
    forking again."""
    steps: list[str] = []
    forked_at: list[str] = []
    real = index_pass.lexical_parts

    def counted(catalog: object) -> object:
        forked_at.append(steps[-1])
        return real(catalog)

    monkeypatch.setattr(index_pass, "lexical_parts", counted)
    monkeypatch.setattr(index_pass, "BACKGROUND_FROM", 0)
    out = tmp_path / "bank.atlas"
    compile_docs(
        BANK_DOCS,
        overlays_dir=BANK_DOCS.parent / "overlays",
        config_path=BANK_CONFIG,
        out=out,
        embeddings="none",
        write_report=False,
        on_step=steps.append,
    )
    assert forked_at == ["pass types"]
    assert steps.index("pass types") < steps.index("pass index")


def test_only_the_passes_that_leave_the_cards_run_beside_the_lexical_child() -> None:
    passes = importlib.import_module("apiatlas.passes")
    by_name = {p.__name__: p for p in passes.PASSES}
    context = passes.PassContext()
    assert passes._cards_settled(by_name["types"], context)
    assert passes._cards_settled(by_name["graph"], context)
    assert passes._cards_settled(by_name["vocabulary"], context)
    assert not passes._cards_settled(by_name["funnel"], context)  # it decides which cards are kept
    assert not passes._cards_settled(by_name["overlays"], context)
    assert not passes._cards_settled(by_name["index"], context)


@needs_fork
def test_api_rows_from_a_child_give_the_same_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The APIs' bodies and contracts built in a forked child (spilled to a file, read back in chunks) while
    the writer inserts the other tables give the bytes they give when built in the writer's process."""
    rows = importlib.import_module("apiatlas.snapshot.api_rows")
    built: list[bool] = []
    real = rows.ForkedParts

    def counted(*args: object, **kwargs: object) -> object:
        job = real(*args, **kwargs)
        built.append(job.forked)
        return job

    monkeypatch.setattr(rows, "ForkedParts", counted)
    monkeypatch.setattr(rows, "BESIDE_FROM", 10**9)
    here = _compile(tmp_path / "here" / "bank.atlas", 10**9, monkeypatch)
    monkeypatch.setattr(rows, "BESIDE_FROM", 0)
    child = _compile(tmp_path / "child" / "bank.atlas", 10**9, monkeypatch)
    assert built == [False, True]
    assert here == child
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["bank.atlas", "bank.atlas", "child", "here"]


@needs_fork
def test_in_this_process_no_child_is_forked() -> None:
    with forked.in_this_process():
        assert not can_fork()
        job = Forked(os.getpid)
        assert not job.forked and job.result() == os.getpid()
    assert can_fork() and Forked(os.getpid).forked


@needs_fork
def test_compile_low_memory_forks_no_child_and_writes_the_same_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``apiatlas compile --low-memory``: the lexical arrays and the API rows are built in the compiling
    process (the bank's 30 APIs, with the thresholds for a child lowered to 0), byte for byte the same."""
    from typer.testing import CliRunner

    from apiatlas.cli import app
    from apiatlas.snapshot import api_rows

    made: list[bool] = []
    real, real_parts = forked.Forked.__init__, ForkedParts.__init__

    def counted(self: Forked[object], work: object, *, background: bool = True) -> None:
        real(self, work, background=background)  # type: ignore[arg-type]
        made.append(self.forked)

    def counted_parts(self: ForkedParts[object, object], *args: object, **kwargs: object) -> None:
        real_parts(self, *args, **kwargs)
        made.append(self.forked)

    monkeypatch.setattr(index_pass, "BACKGROUND_FROM", 0)
    monkeypatch.setattr(api_rows, "BESIDE_FROM", 0)
    monkeypatch.setattr(forked.Forked, "__init__", counted)
    monkeypatch.setattr(ForkedParts, "__init__", counted_parts)
    outs, children = [], []
    for flags in ([], ["--low-memory"]):
        made.clear()
        out = tmp_path / ("low" if flags else "default") / "bank.atlas"
        args = ["compile", str(BANK_DOCS), "--config", str(BANK_CONFIG), "-o", str(out)]
        result = CliRunner().invoke(app, [*args, "--embeddings", "none", *flags])
        assert result.exit_code == 0, result.output
        outs.append(out.read_bytes())
        children.append(sum(made))
    assert outs[0] == outs[1]
    assert children[0] >= 2 and children[1] == 0  # the lexical arrays' child and the rows' child, then none
