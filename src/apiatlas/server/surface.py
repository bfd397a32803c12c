"""The MCP surface beside the tools: resources (API contracts, playbooks, a session's evidence), resource
links in execution answers whose rows were cut, and the icon every tool and the server carry."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.resources import FunctionResource
from mcp_types import CallToolResult, Icon, ResourceLink

from apiatlas.server.tools.common import session_store

if TYPE_CHECKING:
    from apiatlas.server.app import AtlasServer
    from apiatlas.server.tools.common import AtlasTools

SCHEME = "apiatlas"
# one small mark, inlined (stdio clients have no server URL to fetch it from); ~45 tokens a tool
ICON = Icon(
    src="data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'><circle r='8' cx='8' cy='8'/></svg>",
    mime_type="image/svg+xml",
)


def api_uri(key: str) -> str:
    return f"{SCHEME}://api/{quote(key, safe='')}"


def evidence_uri(evidence_id: str) -> str:
    return f"{SCHEME}://evidence/{quote(evidence_id, safe='')}"


def playbook_uri(name: str) -> str:
    return f"{SCHEME}://playbook/{quote(name, safe='')}"


def add_resources(server: AtlasServer, core: AtlasTools) -> None:
    """API contracts and evidence by template (thousands of APIs are not listed one by one), every visible
    playbook as a listed resource."""

    @server.resource(
        f"{SCHEME}://api/{{key}}", name="api_contract", mime_type="application/json", icons=[ICON]
    )
    def api_contract(key: str) -> str:
        """One API's full contract (describe_api's, uncut), by API key (percent-encoded)."""
        answer = core.navigator.full_contract(key)
        return json.dumps(answer.model_dump(mode="json", exclude_none=True), ensure_ascii=False)

    @server.resource(f"{SCHEME}://evidence/{{evidence_id}}", name="evidence", mime_type="application/json")
    def evidence(evidence_id: str, ctx: Context) -> str:
        """Every row of one executed call of this session (what fetch_evidence pages)."""
        found = session_store(core.evidence, ctx).get(evidence_id)
        if found is None:
            raise ValueError(f"no evidence '{evidence_id}' in this session (never issued, or evicted)")
        tables = [{"name": t.name, "columns": t.columns, "rows": t.rows} for t in found.tables]
        return json.dumps({"evidence_id": found.evidence_id, "api": found.api, "tables": tables}, default=str)

    for playbook in core.playbooks.by_name.values():
        server.add_resource(
            FunctionResource(
                uri=playbook_uri(playbook.name),
                name=playbook.name,
                description=playbook.trigger,
                mime_type="text/markdown",
                fn=_returning(playbook.body),
            )
        )


def _returning(text: str) -> Any:
    def read() -> str:
        return text

    return read


def with_evidence_link(result: CallToolResult) -> CallToolResult:
    """An execution answer whose rows were cut links the whole result as a resource."""
    data = result.structured_content
    if not isinstance(data, dict) or not data.get("truncated"):
        return result
    ids = [data["evidence_id"]] if isinstance(data.get("evidence_id"), str) else []
    for evidence_id in ids:
        result.content.append(
            ResourceLink(
                type="resource_link",
                uri=evidence_uri(evidence_id),
                name=evidence_id,
                description=f"every row of {data.get('api', 'the call')}",
                mime_type="application/json",
            )
        )
    return result
