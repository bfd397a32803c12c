"""``apiatlas compile``'s last step: serve the written snapshot once and keep its first answers in it.

The answers are the real server's: ``apiatlas serve`` runs as a child over stdio, in a scratch folder,
with an empty ``$APIATLAS_CACHE`` and no other ``APIATLAS_*``/``PG*`` variable, under the snapshot's
final file name; the official MCP client connects and lists tools, prompts, resources and resource
templates, and the stdio start (``stdio_start``) records every answer to those requests, as it does
for any start without held answers. That file's answers go into the snapshot (``start_record``).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import anyio
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

from apiatlas.local_cache import CACHE_ENV
from apiatlas.server.start_record import clean_env, write_record
from apiatlas.server.stdio_start import OFF_ENV

# a default server's first answers take ~1 s of CPU, also at 31,580 APIs: past this the compile goes on
# without them (a longer wait at its end would look like a hang)
RECORD_TIMEOUT_S = 30.0


async def _session(params: StdioServerParameters) -> None:
    with anyio.fail_after(RECORD_TIMEOUT_S):
        async with Client(params) as client:
            await client.list_tools()
            await client.list_prompts()
            await client.list_resources()
            await client.list_resource_templates()


def served_answers(snapshot: Path, name: str) -> dict[str, Any]:
    """The first answers of ``apiatlas serve NAME`` (a link named ``name`` to ``snapshot``) in a default
    environment, as the stdio start records them: request key -> result."""
    with tempfile.TemporaryDirectory(prefix="apiatlas-record-") as scratch:
        folder, cache = Path(scratch) / "serve", Path(scratch) / "cache"  # apart: any snapshot name works
        folder.mkdir()
        (folder / name).symlink_to(snapshot.resolve())
        env = {**clean_env(dict(os.environ)), CACHE_ENV: str(cache)}
        env.pop(OFF_ENV, None)
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "apiatlas.entry", "serve", name], env=env, cwd=folder
        )
        anyio.run(_session, params)
        (held,) = (cache / "stdio-start").glob("*.json")
        answers: dict[str, Any] = json.loads(held.read_text(encoding="utf-8"))["answers"]
    return answers


def record_start_answers(snapshot: Path, name: str) -> int:
    """Serve ``snapshot`` (to be named ``name``) once and keep its first answers in it; how many."""
    answers = served_answers(snapshot, name)
    write_record(snapshot, name, answers)
    return len(answers)
