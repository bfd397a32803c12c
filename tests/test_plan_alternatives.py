"""An input named as alternatives, one an identifier (``username_or_id_or_url``), is an identifier hop;
an action pointing back keeps its last step alone, so a chain ranked on words only its earlier steps
cover comes after the others (``ChainScoring.ranked(every_target=True)``). A small synthetic catalog."""

from __future__ import annotations

import json

import pytest

from apiatlas.build import compile_docs
from apiatlas.planning.draft import takes_an_identifier
from apiatlas.planning.fit import adds_nothing
from apiatlas.planning.planner import Planner, reads_only
from apiatlas.snapshot import Snapshot


def _entry(name: str, description: str, inputs: dict[str, str], outputs: list[str]) -> dict[str, object]:
    return {
        "name": name, "description": description, "method": "GET", "endpoint": "/" + name.lower(),
        "host": "social.example.com", "output_parser": "result.data.items[0].{param}",
        "query_parameters": {
            k: {"type": "String", "description": d, "required": True} for k, d in inputs.items()
        },
        "output_parameters": {o: {"type": "String", "description": f"{o} of the account"} for o in outputs},
    }  # fmt: skip


WHO = {"username_or_id_or_url": "Insert a username, user id or URL."}
SPEC = [
    _entry("Social_Search_User", "Search accounts by the user name.", {"search_query": "A user's name."},
           ["id", "username", "full_name"]),
    _entry("Social_Followers", "Retrieve the list of followers for an account.", WHO,
           ["id", "username", "full_name"]),
    _entry("Social_Following", "Retrieve the list of accounts an account subscribes to.", WHO,
           ["id", "username", "full_name"]),
    _entry("Social_Posts", "Retrieve the posts of an account.", WHO,
           ["code", "comment_count", "caption"]),
    _entry("Books_Search", "Search books by keyword.", {"keyword": "A keyword."},
           ["title", "totalRatings", "rank", "number"]),
]  # fmt: skip


@pytest.fixture(scope="module")
def planner(tmp_path_factory: pytest.TempPathFactory) -> Planner:
    folder = tmp_path_factory.mktemp("alternatives")
    spec, out = folder / "spec.json", folder / "spec.atlas"
    spec.write_text(json.dumps(SPEC), encoding="utf-8")
    compile_docs(spec, overlays_dir=None, config_path=None, out=out, write_report=False, embeddings="none")
    return Planner(Snapshot.open(out), allow=reads_only)


def test_an_alternatives_name_holding_an_id_takes_an_identifier() -> None:
    assert takes_an_identifier("username_or_id_or_url", "")
    assert takes_an_identifier("nameOrId", "")
    assert takes_an_identifier("account_id", "")
    assert not takes_an_identifier("username_or_url", "")
    assert not takes_an_identifier("keyword", "")


def test_a_hop_into_an_alternatives_input_is_no_attribute_hop(planner: Planner) -> None:
    """The posts of the account a user search finds (``username`` into ``username_or_id_or_url``) beat a
    book search whose fields only echo "total", "number" and "top"."""
    chain = planner.plan("Find the total number of comments on the top post by Jane Weekes").chains[0]
    assert chain.api_keys == ["Social_Search_User", "Social_Posts"]
    fed = chain.steps[1].inputs[0]
    assert (fed.name, fed.origin, fed.from_step) == ("username_or_id_or_url", "step", 0)


def test_a_back_pointing_action_keeps_the_target_its_own_words_name(planner: Planner) -> None:
    chain = planner.plan("Search the user Beyonce and retrieve her followers.").chains[0]
    assert chain.api_keys == ["Social_Search_User", "Social_Followers"]
    fed = chain.steps[1].inputs[0]
    assert (fed.origin, fed.from_step) == ("step", 0)


def test_a_back_pointing_actions_chains_whose_last_step_adds_nothing_come_last(planner: Planner) -> None:
    """"… retrieve her followers": following → followers scores best (its first step covers the same
    word and earns the entry credit), but the action keeps its last step alone, so it comes after the
    chains whose last step covers a word of its own."""
    ctx = planner._read("retrieve her followers.", None, dict)
    targets = planner._targets(ctx, None)
    assert isinstance(targets, list)
    chains = planner.scoring.ranked(ctx, targets, every_target=True)
    idle = [adds_nothing(ctx, [a for k in c.api_keys if (a := ctx.api(k)) is not None]) for c in chains]
    best = max(range(len(chains)), key=lambda i: chains[i].score)
    assert idle[best] == 1.0 and best > 0  # the best-scored chain adds nothing and is not first
    assert idle == sorted(idle)  # every chain adding a word of its own before those adding none
