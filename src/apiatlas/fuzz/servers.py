"""The live servers a campaign drives: ``apiatlas serve`` over stdio and over HTTP on 127.0.0.1."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import TextIO

from mcp.client import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from apiatlas.errors import ApiatlasError, ReasonCode

STARTUP_S = 90.0


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "APIATLAS_DB_URL"}


def serve_args(snapshot: Path, db_url: str, *extra: str) -> list[str]:
    """``apiatlas serve SNAP --db URL ...`` as arguments of this interpreter."""
    return ["-m", "apiatlas.cli", "serve", str(snapshot), "--db", db_url, *extra]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class StdioServer:
    """A server the MCP client starts as its own subprocess (stdin/stdout carry the protocol)."""

    transport = "stdio"

    def __init__(self, snapshot: Path, db_url: str, log: TextIO) -> None:
        self.params = StdioServerParameters(
            command=sys.executable, args=serve_args(snapshot, db_url), env=_env()
        )
        self.log = log

    async def open(self, stack: AsyncExitStack) -> Client:
        """A connected client (and its server process) that lives as long as ``stack``."""
        transport = stdio_client(self.params, errlog=self.log)
        return await stack.enter_async_context(Client(transport, read_timeout_seconds=STARTUP_S))

    def alive(self) -> bool | None:
        return None  # the client owns the process: liveness is told by a ping

    def kill(self) -> None:
        """Nothing to do: closing the client's stack ends its process."""


class HttpServer:
    """``apiatlas serve --transport http`` on 127.0.0.1 and a free port, as a process of its own."""

    transport = "http"

    def __init__(self, snapshot: Path, db_url: str, log: TextIO) -> None:
        self.snapshot, self.db_url, self.log = snapshot, db_url, log
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def launch(self) -> None:
        self.port = free_port()
        args = serve_args(self.snapshot, self.db_url, "--transport", "http", "--host", "127.0.0.1")
        self.process = subprocess.Popen(
            [sys.executable, *args, "--port", str(self.port)], env=_env(), stdout=self.log, stderr=self.log
        )
        deadline = time.monotonic() + STARTUP_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise ApiatlasError(
                    f"the HTTP server exited at start (code {self.process.returncode})",
                    code=ReasonCode.UPSTREAM_UNAVAILABLE,
                )
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise ApiatlasError("the HTTP server did not start listening", code=ReasonCode.TIMEOUT)

    async def open(self, stack: AsyncExitStack) -> Client:
        """A client connected to the server process (started when not running) for as long as ``stack``."""
        if self.process is None or self.process.poll() is not None:
            self.launch()
        transport = streamable_http_client(self.url)
        return await stack.enter_async_context(Client(transport, read_timeout_seconds=STARTUP_S))

    def alive(self) -> bool | None:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """Stop the server process (the next ``open`` starts a new one)."""
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None
