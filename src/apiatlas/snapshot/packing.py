"""JSON bodies stored deflated against a dictionary of the catalog's own rows.

An API's body and contract are a few kilobytes of JSON that say the same keys, types and phrases as
every other API of the catalog: deflate alone shrinks one by ~3x, deflate primed with a dictionary
of sampled rows of the same column by ~10x (the sample bank: 860 KB of bodies -> 80 KB). The
dictionary is built from the rows themselves (evenly spaced rows, up to deflate's 32 KiB window),
so it says nothing of any one catalog's vocabulary in code, and the same rows give the same bytes.
Inflating one body takes microseconds; the dictionary is read once, on the first body a reader inflates.
"""

from __future__ import annotations

import os
import zlib
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from itertools import islice
from typing import TypeVar

WINDOW = 32 * 1024  # deflate looks back at most this far: a longer dictionary adds nothing
SAMPLES = 64  # rows sampled into a dictionary
LEVEL = 6  # level 9 packs the gen-docs bodies 1% smaller (12.67 vs 12.83 MB at 31,580 APIs) in 1.7x the time
_WBITS = -15  # raw deflate: no header or checksum per row (SQLite's page checks cover the file)
# zlib's default memory level: 9 packs the same bytes as small but its twice larger state makes the copy
# per row ~3x slower (31,580 bodies at level 9: 9.7 s with 9, 3.4 s with 8)
_MEM_LEVEL = 8
CHUNK = 256  # rows packed per task of ``packed_ahead``
AHEAD = 4  # tasks in flight while the caller builds the next rows

Item = TypeVar("Item")
Row = TypeVar("Row")


def sampled(count: int) -> range:
    """The places of the rows ``dictionary`` samples out of ``count`` rows (evenly spaced)."""
    return range(0, count, max(1, count // SAMPLES))


def dictionary(rows: Sequence[bytes]) -> bytes:
    """A deflate dictionary of ``rows``: evenly spaced rows joined, the last ``WINDOW`` bytes kept
    (deflate prefers the dictionary's end, where the sample's later rows are)."""
    if not rows:
        return b""
    return b"".join(rows[n] for n in sampled(len(rows)))[-WINDOW:]


class Packer:
    """Deflates and inflates one column's values with one dictionary."""

    def __init__(self, zdict: bytes) -> None:
        self.zdict = zdict
        self._primed: zlib._Compress | None = None  # a deflater with the dictionary loaded, copied per row

    def pack(self, text: str) -> bytes:
        return self.pack_bytes(text.encode("utf-8"))

    def pack_bytes(self, data: bytes) -> bytes:
        """``pack`` of text already encoded as UTF-8."""
        if self._primed is None:  # loading a dictionary costs more than deflating a row
            self._primed = (
                zlib.compressobj(LEVEL, zlib.DEFLATED, _WBITS, _MEM_LEVEL, zdict=self.zdict)
                if self.zdict
                else zlib.compressobj(LEVEL, zlib.DEFLATED, _WBITS, _MEM_LEVEL)
            )
        deflate = self._primed.copy()
        return deflate.compress(data) + deflate.flush()

    def unpack(self, blob: bytes) -> str:
        inflate = zlib.decompressobj(_WBITS, self.zdict) if self.zdict else zlib.decompressobj(_WBITS)
        return (inflate.decompress(blob) + inflate.flush()).decode("utf-8")


def packed_ahead(
    items: Iterable[Item], pack: Callable[[Item], Row], threads: int | None = None
) -> Iterator[Row]:
    """``pack`` of every item, in order, run on a pool of threads ``CHUNK`` items at a time while the
    caller's generator builds the next items: deflate runs outside the GIL, so on a machine of two
    cores or more the packing of one chunk and the building of the next overlap. Same rows, same bytes
    as packing one after the other."""
    workers = threads or min(4, os.cpu_count() or 1)
    source = iter(items)

    def task(chunk: list[Item]) -> list[Row]:
        return [pack(item) for item in chunk]

    with ThreadPoolExecutor(workers, thread_name_prefix="apiatlas-pack") as pool:
        pending: deque[Future[list[Row]]] = deque()
        while chunk := list(islice(source, CHUNK)):
            pending.append(pool.submit(task, chunk))
            if len(pending) > AHEAD:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()
