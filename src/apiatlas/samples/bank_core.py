"""The core APIs of the sample bank, exactly as docs/sample-bank.md defines them, with their texts.

Each domain's APIs live in their own module (``bank_core_persons``, ``bank_core_accounts``,
``bank_core_holdings``); this one lists them in the documentation's order.
"""

from __future__ import annotations

from apiatlas.samples.bank_core_accounts import (
    API_ACC_FIND_BY_ID,
    API_ACC_FIND_BY_NUMBER,
    API_ACC_FIND_LIST_BY_LIST_OWNER_ID,
    API_ACC_GET_REST,
    API_ACC_GET_REST_TURN,
)
from apiatlas.samples.bank_core_holdings import (
    API_CARD_FIND_LIST_BY_ACC_ID,
    API_DEAL_SECURITY_FIND_LIST_BY_ID,
    API_DEP_FIND_BY_ID,
    API_DEP_FIND_LIST_BY_PERSON_ID,
    API_DSEC_FIND_LIST_ID_BY_ACC_ID,
    API_SEC_FIND_BY_ISIN,
)
from apiatlas.samples.bank_core_persons import (
    API_ADDR_FIND_LIST_BY_PERSON_ID,
    API_PRS_FIND_BY_ID,
    API_PRS_FIND_LIST_BY_FIO,
    API_PRS_FIND_LIST_BY_INN,
    API_PRS_GET_DOC_LIST,
)
from apiatlas.samples.spec import ApiSpec

CORE_APIS: tuple[ApiSpec, ...] = (
    API_PRS_FIND_LIST_BY_FIO,
    API_PRS_FIND_LIST_BY_INN,
    API_PRS_FIND_BY_ID,
    API_PRS_GET_DOC_LIST,
    API_ADDR_FIND_LIST_BY_PERSON_ID,
    API_ACC_FIND_LIST_BY_LIST_OWNER_ID,
    API_ACC_FIND_BY_NUMBER,
    API_ACC_FIND_BY_ID,
    API_ACC_GET_REST,
    API_ACC_GET_REST_TURN,
    API_DSEC_FIND_LIST_ID_BY_ACC_ID,
    API_DEAL_SECURITY_FIND_LIST_BY_ID,
    API_SEC_FIND_BY_ISIN,
    API_DEP_FIND_LIST_BY_PERSON_ID,
    API_DEP_FIND_BY_ID,
    API_CARD_FIND_LIST_BY_ACC_ID,
)
CORE_API_NAMES: frozenset[str] = frozenset(a.name for a in CORE_APIS)
