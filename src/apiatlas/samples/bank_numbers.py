"""Check digits of the sample bank's identifiers: personal INN, account number key, ISIN."""

from __future__ import annotations

_INN11_WEIGHTS = (7, 2, 4, 10, 3, 5, 9, 4, 6, 8)
_INN12_WEIGHTS = (3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8)
_ACCOUNT_WEIGHTS = (7, 1, 3)


def _inn_digit(digits: str, weights: tuple[int, ...]) -> str:
    return str(sum(int(d) * w for d, w in zip(digits, weights, strict=True)) % 11 % 10)


def person_inn(first_ten: str) -> str:
    """Complete a 12-digit personal INN from its first 10 digits (two check digits)."""
    if len(first_ten) != 10 or not first_ten.isdigit():
        raise ValueError(f"INN body must be 10 digits, got {first_ten!r}")
    eleven = first_ten + _inn_digit(first_ten, _INN11_WEIGHTS)
    return eleven + _inn_digit(eleven, _INN12_WEIGHTS)


def is_valid_person_inn(inn: str) -> bool:
    """Whether a 12-digit personal INN has correct check digits."""
    return len(inn) == 12 and inn.isdigit() and person_inn(inn[:10]) == inn


def _account_sum(bik: str, account: str) -> int:
    digits = bik[-3:] + account
    return sum(int(d) * _ACCOUNT_WEIGHTS[i % 3] % 10 for i, d in enumerate(digits))


def account_number(bik: str, balance: str, currency: str, branch: str, serial: int) -> str:
    """A 20-digit account number (balance account, currency, key, branch, serial) with its control key."""
    if len(balance) != 5 or len(currency) != 3 or len(branch) != 4 or not 0 <= serial < 10**7:
        raise ValueError("account number parts have the wrong length")
    body = f"{balance}{currency}0{branch}{serial:07d}"
    key = _account_sum(bik, body) % 10 * 3 % 10
    return body[:8] + str(key) + body[9:]


def is_valid_account_number(bik: str, account: str) -> bool:
    """Whether an account number's control key matches the bank's BIK."""
    return len(account) == 20 and account.isdigit() and _account_sum(bik, account) % 10 == 0


def isin_check_digit(body: str) -> str:
    """The ISIN check digit (Luhn over letters expanded to numbers) of an 11-character body."""
    if len(body) != 11 or not body.isalnum() or not body.isascii():
        raise ValueError(f"ISIN body must be 11 ASCII letters or digits, got {body!r}")
    expanded = "".join(str(int(ch, 36)) for ch in body.upper())
    total = 0
    for pos, ch in enumerate(reversed(expanded)):
        n = int(ch) * (2 if pos % 2 == 0 else 1)
        total += n // 10 + n % 10
    return str((10 - total % 10) % 10)


def isin(body: str) -> str:
    """A full ISIN from its 11-character body."""
    return body.upper() + isin_check_digit(body)
