"""Posting of generated account events into turnovers and end-of-day balances that always add up."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class LedgerEvent:
    """One intended movement on an account; an optional debit is dropped when funds are short."""

    day: date
    direction: str  # 'D' debit (money out) | 'C' credit (money in)
    kopecks: int
    purpose: str
    optional: bool = False


class Ledger:
    """Turns (turn_id, account_id, date, direction, kopecks, purpose) and rests (account_id, date, kopecks).

    Invariants: a balance never goes below zero, a closed account ends at zero on its close date, and
    for any period ``rest(before) - debits + credits = rest(end)``.
    """

    def __init__(self, first_turn_id: int) -> None:
        self._next_id = first_turn_id
        self.turns: list[tuple[int, int, date, str, int, str]] = []
        self.rests: list[tuple[int, date, int]] = []

    def _turn(self, account_id: int, day: date, direction: str, kopecks: int, purpose: str) -> None:
        self._next_id += 1
        self.turns.append((self._next_id, account_id, day, direction, kopecks, purpose))

    def post(self, account_id: int, events: list[LedgerEvent], *, close_date: date | None = None) -> None:
        """Post an account's events in date order (credits of a day before its debits)."""
        ordered = sorted(enumerate(events), key=lambda p: (p[1].day, p[1].direction != "C", p[0]))
        balance = 0
        end_of_day: dict[date, int] = {}
        for _, event in ordered:
            if close_date is not None and event.day > close_date:
                continue
            if event.direction == "D" and event.kopecks > balance:
                if event.optional:
                    continue
                top_up = event.kopecks - balance
                self._turn(account_id, event.day, "C", top_up, "Пополнение счёта")
                balance += top_up
            self._turn(account_id, event.day, event.direction, event.kopecks, event.purpose)
            balance += event.kopecks if event.direction == "C" else -event.kopecks
            end_of_day[event.day] = balance
        if close_date is not None:
            if balance > 0:
                self._turn(account_id, close_date, "D", balance, "Перевод остатка при закрытии счёта")
            end_of_day[close_date] = 0
        self.rests.extend((account_id, day, rest) for day, rest in sorted(end_of_day.items()))
