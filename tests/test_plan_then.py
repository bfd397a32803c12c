"""A sentence opening with "Then" opens the next action: "Then" is no name (a capitalised join word, as
"Also"), so the join before it is not read as inside a stated value."""

from __future__ import annotations

from apiatlas.planning import values as v
from apiatlas.planning.actions import split_actions


def test_then_at_a_sentence_start_is_no_name_and_opens_an_action() -> None:
    said = "Find trains from Bergen to Oslo on June 3rd. Then find hotel rooms in Oslo for those dates."
    found = v.extract_values(said)
    assert [f.value for f in found if f.kind == v.ENTITY] == ["Bergen", "Oslo", "Oslo"]
    assert [a.text for a in split_actions(said, found)] == [
        "Find trains from Bergen to Oslo on June 3rd",
        "find hotel rooms in Oslo for those dates.",
    ]
    assert [f.value for f in v.extract_values("Then Oslo Tours lists boats.")] == ["Oslo Tours"]
