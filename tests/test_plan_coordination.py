"""Things asked together ("details and offers for X"): each thing with the shared complement."""

from __future__ import annotations

from apiatlas.planning.coordination import coordinated_things


def _texts(request: str) -> list[str]:
    return [a.text for a in coordinated_things(request)]


def test_two_and_three_things_share_the_verb_and_the_complement() -> None:
    assert _texts("Get me details and offers for Nike Air Force One's.") == [
        "Get me details for Nike Air Force One's",
        "Get me offers for Nike Air Force One's",
    ]
    assert _texts("Get the forecast, current weather, and time zone for Cape Town.") == [
        "Get the forecast for Cape Town",
        "Get current weather for Cape Town",
        "Get time zone for Cape Town",
    ]


def test_no_list_without_a_verb_a_complement_or_when_a_verb_follows_and() -> None:
    assert _texts("Who is the director and the lead actor of Titanic?") == []  # no action verb opens it
    assert _texts("Find flights from New York to London and find hotels in London.") == []
    assert _texts("Show the albums and the weather") == []  # nothing shared after a preposition


def test_two_things_each_with_a_complement_of_its_own() -> None:
    assert _texts("Find eco-friendly hotel rooms in Oslo and available trains from Bergen to Oslo.") == [
        "Find eco-friendly hotel rooms in Oslo",
        "Find available trains from Bergen to Oslo",
    ]
    assert _texts("Find hotels in Oslo and show me their ratings") == []  # a verb after "and"
    assert _texts("Find hotels in Oslo and the cheapest one") == []  # no complement of its own
    assert _texts("Find hotels in Oslo and its trains from Bergen") == []  # a referring word
