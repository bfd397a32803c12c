"""The sample bank demo's scenarios: what a back-office analyst asks, and the tool calls an agent makes to
answer; and the call ``apiatlas bench server`` times on the sample bank."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# A step's arguments may depend on what earlier steps returned (e.g. the PersonID of the first Ivanov).
Args = dict[str, Any] | Callable[[list[dict[str, Any]]], dict[str, Any]]


@dataclass(frozen=True)
class Step:
    tool: str  # without the prefix
    args: Args
    why: str  # what the agent is doing, in one line


@dataclass(frozen=True)
class Scenario:
    request: str  # the user's words
    steps: list[Step] = field(default_factory=list)
    # when several rows may match: what the agent must do instead of picking one ({rows}: how many)
    when_several: str = ""


# The API and arguments of `apiatlas bench server`'s execute figures when the snapshot has them.
BENCH_CALL: tuple[str, dict[str, Any]] = ("API_Prs_FindListByFIO", {"SurName": "Михалов"})


MIKHALOV_REQUEST = "сделки клиента Михалова по ценным бумагам"


def planned_steps(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The steps of the best chain of the latest plan_chain answer, passed to execute_chain unchanged."""
    for result in reversed(results):
        if result.get("chains"):
            return {"steps": result["chains"][0]["steps"]}
    raise LookupError("no earlier plan_chain answer has a chain")


def first_cell(results: list[dict[str, Any]], column: str) -> Any:
    """``column`` in the first previewed row of the latest executed call whose output has that column."""
    for result in reversed(results):
        for table in result.get("tables") or []:
            if column in table["columns"] and table["rows"]:
                return table["rows"][0][table["columns"].index(column)]
    raise LookupError(f"no earlier call returned a {column}")


def scenarios() -> list[Scenario]:
    """The three conversations of the walkthrough, in order."""
    return [
        Scenario(
            "Найди сделки клиента Михалова по ценным бумагам",
            [
                Step(
                    "plan_chain",
                    {"request": MIKHALOV_REQUEST},
                    "plan the calls: the API with the deals, the entry point the surname opens, the mappings",
                ),
                Step(
                    "execute_chain",
                    planned_steps,
                    "the user confirms plan #1 when the plan is unsure (its next action): run person →"
                    " accounts → deal ids → deals in one round trip and transaction",
                ),
            ],
        ),
        Scenario(
            "Найди клиента Иванова",
            [
                Step("describe_api", {"api": "API_Prs_FindListByFIO"}, "read the contract before calling"),
                Step(
                    "execute_api",
                    {"api": "API_Prs_FindListByFIO", "args": {"SurName": "Иванов"}},
                    "search by surname: several people may match",
                ),
            ],
            when_several="{rows} clients match: the agent must ask which one (first name, birth date, INN) "
            "instead of picking one silently.",
        ),
        Scenario(
            "А какой остаток на его счёте? (первый Иванов из списка)",
            [
                Step("search", {"query": "остаток на счёте"}, "balance, not the account's reference data"),
                Step(
                    "execute_api",
                    lambda done: {
                        "api": "API_Acc_FindListByListOwnerID",
                        "input_tables": {"pAPI_Account_OwnerID": [{"OwnerID": first_cell(done, "PersonID")}]},
                    },
                    "his accounts (OwnerID ← PersonID of the first Ivanov)",
                ),
                Step(
                    "execute_api",
                    lambda done: {
                        "api": "API_Acc_GetRest",
                        "args": {"AccountID": first_cell(done, "AccountID")},
                    },
                    "the balance of his first account",
                ),
            ],
        ),
    ]
