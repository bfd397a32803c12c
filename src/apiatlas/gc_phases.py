"""When the garbage collector may run during a compile: never over the catalog, never inside a pass.

A compile builds millions of long-lived objects (the catalog) and every stage only adds to them. Each
automatic collection walks the objects younger than its generation, and a full one all of them: walking
the catalog again and again made every stage's time grow faster than the catalog. So each stage ends with
``gc.freeze()`` (``long_lived_catalog``), and a stage or pass that allocates many objects runs with
collections paused (``paused_collections``): its objects are walked at most once afterwards, or not at all
when they are frozen first. Refcounting frees everything that is not in a reference cycle meanwhile; the
compiler's own objects (models, lists, dicts of strings) form none.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def long_lived_catalog() -> Iterator[None]:
    """Keep the garbage collector off the catalog during a compile: each stage ends with ``gc.freeze()``,
    so a collection walks only what later stages allocate, never the millions of objects of the catalog
    again (walking them made every pass's time grow with the catalog's size, i.e. the compile
    super-linear). The objects are handed back to the collector when the compile ends."""
    outer = gc.get_freeze_count() > 0  # someone froze before us: theirs to unfreeze
    try:
        yield
    finally:
        if not outer:
            gc.unfreeze()


@contextmanager
def paused_collections(*, freeze: bool = False) -> Iterator[None]:
    """No automatic collection inside: at 31,580 APIs the graph pass ran 9 full collections (1.0 s), and
    the parse stage's first collection after the pages were in walked all of them (0.6 s). With
    ``freeze``, what exists on leaving is frozen before collections resume (a compile stage's end: what it
    leaves is the catalog), else the next collection walks it once."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if enabled:
            gc.enable()


def settle_heap() -> None:
    """A served process (or a bench timing what it serves), once warm: move every object alive after
    the warm-up (snapshot indexes, models, modules: ~130,000 on the sample bank) out of the collector's
    reach, having first collected the warm-up's garbage.

    A full collection walks every tracked object while holding the GIL, so it stalls the event loop
    and every search: under `apiatlas bench load` the server made one every ~10 s, of 92-96 ms; with
    the long-lived objects frozen they take 3-7 ms. Objects made later are collected as usual."""
    gc.collect()
    gc.freeze()
