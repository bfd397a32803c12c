"""The check_code tool: a C# draft checked against the snapshot's SDK: unknown types and members (with line,
column and close names), wrong argument counts, and, with Mono's compiler, the compiler's diagnostics."""

from typing import Annotated

from mcp_types import CallToolResult
from pydantic import Field

from apiatlas.server.results import Compact, ToolResult
from apiatlas.server.tools.common import AtlasTools, GuideLine, Handler, ToolSpec, answer, off_loop
from apiatlas.server.tools.examples import CatalogExamples


class CodeDiagnostic(Compact):
    code: str  # UNKNOWN_TYPE | UNKNOWN_MEMBER | WRONG_ARGUMENT_COUNT | SYNTAX_ERROR | compiler codes (CS0117)
    message: str
    line: int  # 1-based
    column: int  # 1-based
    symbol: str = ""  # Type.Member (or the type) the diagnostic is about
    suggestions: list[str] = Field(default_factory=list)  # close names that exist


class CompileStep(Compact):
    ran: bool = False
    compiled: bool = False
    reason: str = ""  # why it did not run, or the compiler's summary
    errors: list[CodeDiagnostic] = Field(default_factory=list)


class CheckCodeResult(ToolResult):
    ok: bool = False  # no diagnostics (and compiled, when the compile step ran)
    diagnostics: list[CodeDiagnostic] = Field(default_factory=list)
    unknown: list[str] = Field(default_factory=list)  # Type.Member names the snapshot does not have
    checked_symbols: int = 0  # member uses resolved against the snapshot
    compile: CompileStep = Field(default_factory=CompileStep)


def handler(core: AtlasTools, examples: CatalogExamples) -> Handler:
    async def check_code(
        code: Annotated[str, Field(description="a C# draft: a file, a class or a few statements")],
        compile: Annotated[
            bool, Field(description="also compile it against the snapshot's assemblies when mcs is installed")
        ] = True,
    ) -> Annotated[CallToolResult, CheckCodeResult]:
        body = off_loop(lambda: core.navigator.check_code(code, compile), core.search_slots)
        return await answer(CheckCodeResult, body)

    return check_code


TOOL = ToolSpec(
    name="check_code",
    description="Checks a C# draft against this SDK: every type, constructor, method, property, event and "
    "field it uses that does not exist, wrong argument counts, and the compiler's errors. "
    "Use before handing code over.",
    handler=handler,
    guide=GuideLine(45, "{p}check_code on every draft: fix what it reports before answering."),
    surfaces=("code",),
)
