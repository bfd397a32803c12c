"""The get_playbook tool: one playbook's body (the steps an expert wrote), fetched when about to follow it."""

from typing import Annotated

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field

from apiatlas.server.results import Compact, ToolResult
from apiatlas.server.tools.common import AtlasTools, Handler, ToolSpec, answer, session_store
from apiatlas.server.tools.examples import CatalogExamples


class PlaybookSummary(Compact):
    name: str
    trigger: str


class GetPlaybookResult(ToolResult):
    name: str = ""
    trigger: str = ""
    apis: list[str] = Field(default_factory=list)
    body: str = ""  # Markdown: the steps, in order
    playbooks: list[PlaybookSummary] = Field(default_factory=list)  # the names there are, when not found


def handler(core: AtlasTools, examples: CatalogExamples) -> Handler:
    async def get_playbook(
        name: str,
        ctx: Context,
    ) -> Annotated[CallToolResult, GetPlaybookResult]:
        store = session_store(core.evidence, ctx)
        return await answer(GetPlaybookResult, lambda: core.playbooks.get(name, store))

    return get_playbook


TOOL = ToolSpec(
    name="get_playbook",
    description="Returns a playbook's steps and tracks its progress. Use when a request matches its trigger.",
    handler=handler,
)  # no guide line: the playbook index at the end of the instructions says when to call it
