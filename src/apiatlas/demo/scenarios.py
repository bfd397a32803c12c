"""The demo's scenarios: what a back-office analyst asks, and the tool calls an agent makes to answer."""

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


def _mapped(step: int, table: str, columns: dict[str, str]) -> dict[str, Any]:
    return {"source_step": step, "source_table": table, "column_mapping": columns}


def mikhalov_chain() -> list[dict[str, Any]]:
    """Prs → Acc → DSec → DealSecurity, each step fed by the previous one's output table."""
    return [
        {"api": "API_Prs_FindListByFIO", "args": {"SurName": "Михалов"}},
        {
            "api": "API_Acc_FindListByListOwnerID",
            "input_table_mapping": {
                "pAPI_Account_OwnerID": _mapped(0, "pAPI_Person_FindList", {"OwnerID": "PersonID"})
            },
        },
        {
            "api": "API_DSec_FindListIDByAccID",
            "input_table_mapping": {
                "pAPI_DSec_AccID": _mapped(1, "pAPI_Account_List", {"AccountID": "AccountID"})
            },
        },
        {
            "api": "API_DealSecurity_FindListByID",
            "input_table_mapping": {
                "pAPI_DealSecurity_ID": _mapped(2, "pAPI_DSec_IDList", {"DealSecurityID": "DealSecurityID"})
            },
        },
    ]


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
                Step("list_business_objects", {}, "see which business objects exist"),
                Step("search", {"query": "сделки по ценным бумагам"}, "find the API that returns deals"),
                Step(
                    "dependency_chain",
                    {"api": "API_DealSecurity_FindListByID", "direction": "upstream", "depth": 3},
                    "learn what must run before it to get DealSecurityID from a surname",
                ),
                Step(
                    "execute_chain",
                    {"steps": mikhalov_chain()},
                    "run person → accounts → deal ids → deals in one round trip and one transaction",
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
