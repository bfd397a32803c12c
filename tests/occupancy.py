"""A counter for concurrency tests: how many sessions hold a resource now and at most."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class Occupancy:
    """``held()`` counts a holder in and, before going on, waits until ``together`` holders were inside
    at once (so a pool that lets only one in fails the test by timing out, instead of passing)."""

    def __init__(self, together: int = 2) -> None:
        self.together = together
        self.now = 0
        self.most = 0
        self._reached = asyncio.Event()

    @asynccontextmanager
    async def held(self) -> AsyncIterator[None]:
        self.now += 1
        self.most = max(self.most, self.now)
        if self.now >= self.together:
            self._reached.set()
        try:
            async with asyncio.timeout(30):  # a guard against a pool that never lets two in, not a measure
                await self._reached.wait()
            yield
        finally:
            self.now -= 1
