"""The sample bank's load workload for ``apiatlas bench load``: its analysts' search requests and execute
calls with values its database holds."""

from __future__ import annotations

from typing import Any

from apiatlas.security.load import Workload

SEARCH_QUERIES = (
    "остаток по счёту",
    "найти клиента по ФИО",
    "сделки с ценными бумагами клиента",
    "курс валюты на дату",
    "карты клиента",
    "вклады физического лица",
    "адрес регистрации клиента",
    "обороты по счёту за период",
    "API_Acc_GetRest",
    "account balance",
)
EXECUTE_CALLS: tuple[dict[str, Any], ...] = (
    {"api": "API_Prs_FindListByFIO", "args": {"SurName": "Иванов"}},
    {"api": "API_Prs_FindListByFIO", "args": {"SurName": "Михалов"}},
    {"api": "API_Acc_GetRest", "args": {"AccountID": 2000001}},
    {"api": "API_Acc_FindByID", "args": {"AccountID": 2000002}},
)


def search_queries() -> tuple[str, ...]:
    """The bank analysts' requests of examples/bank/eval (198 distinct), else the short list above."""
    try:
        from apiatlas.evals.bank_data import BANK_EVAL_DIR, load_retrieval_set

        return tuple(r.query for r in load_retrieval_set(BANK_EVAL_DIR / "retrieval.yaml").requests)
    except Exception:  # an installed package without the examples folder
        return SEARCH_QUERIES


def sample_bank_workload() -> Workload:
    """Search and execute on the sample bank's snapshot, served under its tool prefix."""
    return Workload(
        search_tool="bank_search",
        execute_tool="bank_execute_api",
        queries=search_queries(),
        execute_calls=EXECUTE_CALLS,
        reference_queries=SEARCH_QUERIES,
    )
