"""Serve over stdio so that every request gets an answer, also one the JSON-RPC layer cannot read.

The SDK's stdio transport drops a line it cannot validate (nested too deeply, ``params`` not an
object, ...) without a reply, so the caller waits forever. Here each line is validated first; a bad
one is answered with a JSON-RPC error carrying its ``id`` (read with a lenient pattern when the JSON
itself cannot be parsed), and only good lines reach the SDK.
"""

from __future__ import annotations

import re
import sys
from collections.abc import AsyncIterator
from io import TextIOWrapper
from typing import Any

import anyio
import mcp_types as types
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from apiatlas.server.stdio_start import StdioStart
from apiatlas.server.stdio_start import current as current_start

PARSE_ERROR, INVALID_REQUEST = -32700, -32600
_ID = re.compile(r'"id"\s*:\s*(-?\d{1,18}|"(?:[^"\\]|\\.){0,200}")')


def request_id(line: str) -> str | int | None:
    """The ``id`` of a JSON-RPC line that does not validate (None when it has none)."""
    match = _ID.search(line[:4096])
    if match is None:
        return None
    raw = match.group(1)
    if raw.startswith('"'):
        try:
            import json

            value = json.loads(raw)
        except ValueError:
            return None
        return value if isinstance(value, str) else None
    return int(raw)


class GuardedStdin:
    """stdin lines for the SDK; a line that does not validate is answered here and not passed on.

    Under a stdio start (``stdio_start``) the lines come from its prelude, which has read stdin from the
    process's start, or are shown to it as they are read, so that it learns the answers to hold."""

    def __init__(self, start: StdioStart | None = None) -> None:
        self.write_stream: Any = None  # the server's write stream, set once the transport runs
        self.start = start
        self._lines = anyio.wrap_file(TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))

    def __aiter__(self) -> AsyncIterator[str]:
        return self._guarded()

    async def _read(self) -> AsyncIterator[str]:
        start = self.start
        if start is not None and start.prelude:
            while (line := await anyio.to_thread.run_sync(start.lines.get)) is not None:
                yield line
            return
        async for line in self._lines:
            if start is not None:
                start.heard(line)
            yield line

    async def _guarded(self) -> AsyncIterator[str]:
        async for line in self._read():
            if not line.strip():
                continue
            try:
                types.jsonrpc_message_adapter.validate_json(line, by_name=False)
            except Exception as exc:  # pydantic's ValidationError, or a JSON error inside it
                await self._answer(line, exc)
                continue
            yield line

    async def _answer(self, line: str, exc: Exception) -> None:
        ident = request_id(line)
        if ident is None or self.write_stream is None:
            return  # a notification (no id) gets no answer, as JSON-RPC says
        kinds = (
            {e.get("type") for e in exc.errors()} if isinstance(exc, ValidationError) else {"json_invalid"}
        )
        parse = "json_invalid" in kinds or "recursion_loop" in kinds
        code = PARSE_ERROR if parse else INVALID_REQUEST
        what = "the message cannot be parsed (nested too deeply or not JSON)" if parse else "invalid request"
        error = types.JSONRPCError(jsonrpc="2.0", id=ident, error=types.ErrorData(code=code, message=what))
        await self.write_stream.send(SessionMessage(error))


class StartWire:
    """The SDK's stdout under a stdio start: each line through ``StdioStart.said`` to the wire it holds."""

    def __init__(self, start: StdioStart) -> None:
        self.start = start

    async def write(self, text: str) -> None:
        self.start.said(text)

    async def flush(self) -> None:
        return None


async def serve_stdio_guarded(server: Any) -> None:
    """``server.run_stdio_async()``, with every unreadable request answered by a JSON-RPC error; under a
    stdio start (``apiatlas serve`` from the installed script), its prelude's lines and wire."""
    start = current_start()
    stdin = GuardedStdin(start)
    stdout = StartWire(start) if start is not None else None
    async with stdio_server(stdin=stdin, stdout=stdout) as (read_stream, write_stream):  # type: ignore[arg-type]
        stdin.write_stream = write_stream
        lowlevel = server._lowlevel_server
        await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
