"""The sample bank's conversation for the assistant part of ``apiatlas demo``: a client found by surname,
his accounts, their balance, then an ambiguous surname and the answer to the clarifying question, then an
informal term nothing defines ("крупные") asked back and the answer that defines it."""

from __future__ import annotations

TURNS = (
    "Найди клиента Михалова",
    "А какие у него счета?",
    "А какой на них остаток?",
    "Найди клиента Иванова",
    "Никита Викторович",
    "крупные остатки на счетах Михалова",
    "больше 1 000 000",
)
