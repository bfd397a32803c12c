"""``check_code`` end to end: the draft's analysis against the snapshot (``code_check``), then, with Mono's
C# compiler installed, the draft compiled against the snapshot's own assemblies (checked by hash)."""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from apiatlas.code.csharp import TYPE_DECLARATIONS, parse, walk
from apiatlas.errors import ReasonCode
from apiatlas.server.code_check import DraftChecker
from apiatlas.server.code_navigation import CodeNavigator
from apiatlas.server.tools.check_code import CheckCodeResult, CodeDiagnostic, CompileStep

MAX_DRAFT = 200_000  # characters
COMPILE_SECONDS = 60
_MCS_LINE = re.compile(
    r"^(?P<file>[^(]*)\((?P<line>\d+),(?P<col>\d+)\): (?P<sev>error|warning) (?P<code>CS\d+): (?P<msg>.*)$"
)


def check_draft(code: CodeNavigator, draft: str, *, compile_step: bool = True) -> CheckCodeResult:
    if len(draft) > MAX_DRAFT:
        return CheckCodeResult(
            status="error",
            reason=ReasonCode.TOO_LARGE,
            message=f"the draft has {len(draft)} characters; at most {MAX_DRAFT} are checked",
        )
    checker = DraftChecker(code.model, draft)
    checker.run()
    step = compile_draft(code, draft) if compile_step else CompileStep(reason="not asked (compile=false)")
    ok = not checker.findings.diagnostics and (step.compiled or not step.ran)
    found = len(checker.findings.diagnostics)
    message = (
        f"{found} problem(s): "
        + "; ".join(f"{d.line}:{d.column} {d.message}" for d in checker.findings.diagnostics[:5])
        if found
        else f"no unknown symbols among {checker.findings.checked} checked uses"
    )
    message += f"; compile step: {step.reason}" if step.reason else ""
    return CheckCodeResult(
        ok=ok,
        diagnostics=checker.findings.diagnostics,
        unknown=checker.findings.unknown,
        checked_symbols=checker.findings.checked,
        compile=step,
        message=message,
        next_actions=["fix the reported symbols (the suggestions exist in this SDK) and check again"]
        if not ok
        else [],
    )


def snapshot_assemblies(code: CodeNavigator) -> tuple[list[Path], str]:
    """The snapshot's input assemblies where they were compiled from, each checked against the hash the
    manifest recorded; ``([], why)`` when any is missing or changed."""
    manifest = code.snapshot.manifest()
    root = Path(str(manifest.get("source_root") or ""))
    files = code.snapshot.source_files()
    wanted = sorted(f for f in files if f.lower().endswith((".dll", ".exe")))
    if not wanted:
        return [], "this snapshot was compiled without assemblies"
    paths: list[Path] = []
    for relative in wanted:
        path = root / relative if root.is_dir() else root.parent / relative
        if not path.is_file():
            return [], f"the snapshot's assembly {relative} is not at {path}"
        if hashlib.sha256(path.read_bytes()).hexdigest() != files[relative]:
            return [], f"{path} changed since the snapshot was compiled (sha256 differs)"
        paths.append(path)
    return paths, ""


def _as_compilation_unit(draft: str) -> tuple[str, int]:
    """The draft as a file mcs compiles: statements without a type go into a method of a class (the
    ``using`` lines stay on top); returns the text and how many lines were added before the draft's."""
    root = parse(draft.encode("utf-8")).root_node
    if any(n.type in TYPE_DECLARATIONS for n in walk(root)):
        return draft, 0
    lines = draft.split("\n")
    usings = [line for line in lines if line.strip().startswith("using ") and line.strip().endswith(";")]
    body = ["" if line in usings else line for line in lines]
    return "\n".join([*usings, "class DraftOfCheckCode { void Run () {", *body, "} }"]), len(usings) + 1


def compile_draft(code: CodeNavigator, draft: str) -> CompileStep:
    mcs = shutil.which("mcs")
    if mcs is None:
        return CompileStep(
            reason="not run: Mono's C# compiler (mcs, Debian package mono-mcs) is not installed"
        )
    assemblies, why = snapshot_assemblies(code)
    if not assemblies:
        return CompileStep(reason=f"not run: {why}")
    text, shift = _as_compilation_unit(draft)
    with tempfile.TemporaryDirectory(prefix="apiatlas-check-") as tmp:
        source = Path(tmp) / "Draft.cs"
        source.write_text(text, encoding="utf-8")
        command = [
            mcs,
            "-target:library",
            "-nologo",
            f"-out:{Path(tmp) / 'Draft.dll'}",
            *(f"-r:{p}" for p in assemblies),
            str(source),
        ]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=COMPILE_SECONDS, cwd=tmp)
        except subprocess.TimeoutExpired:
            return CompileStep(ran=True, reason=f"mcs did not finish in {COMPILE_SECONDS} s")
    errors = []
    for raw in (done.stdout + done.stderr).splitlines():
        match = _MCS_LINE.match(raw.strip())
        if match and match["sev"] == "error":
            errors.append(
                CodeDiagnostic(
                    code=match["code"],
                    message=match["msg"],
                    line=max(1, int(match["line"]) - shift),
                    column=int(match["col"]),
                )
            )
    compiled = done.returncode == 0
    summary = "compiled" if compiled else f"mcs reported {len(errors)} error(s)"
    return CompileStep(ran=True, compiled=compiled, reason=summary, errors=errors)
