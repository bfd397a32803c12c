"""The sample bank's conversation for the assistant part of ``apiatlas demo``: a client found by surname,
his accounts, their balance, then an ambiguous surname and the answer to the clarifying question."""

from __future__ import annotations

TURNS = (
    "Найди клиента Михалова",
    "А какие у него счета?",
    "А какой на них остаток?",
    "Найди клиента Иванова",
    "Никита Викторович",
)
