"""``gc_phases``: collections paused inside a pass or stage and resumed as they were; leavings frozen."""

from __future__ import annotations

import gc

from apiatlas.gc_phases import long_lived_catalog, paused_collections


def test_collections_pause_inside_and_resume_as_they_were() -> None:
    assert gc.isenabled()
    with paused_collections():
        assert not gc.isenabled()
        with paused_collections():  # nested: the outer pause still holds on leaving the inner one
            pass
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with paused_collections():
            pass
        assert not gc.isenabled()  # the caller had them off: left off
    finally:
        gc.enable()


def test_freeze_on_leaving_keeps_what_the_stage_built_out_of_collections() -> None:
    gc.unfreeze()  # nothing frozen by an earlier test: the compile's own freeze is undone at its end
    with long_lived_catalog():
        with paused_collections(freeze=True):
            built = [{"name": str(n)} for n in range(1000)]
        assert gc.get_freeze_count() >= len(built)
    assert gc.get_freeze_count() == 0  # the compile hands everything back when it ends
