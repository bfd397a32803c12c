"""The hostile-input corpus: injection strings, malformed text, huge and deeply nested values, wrong types."""

from __future__ import annotations

import random
from typing import Any

# SQL metacharacters, stacked statements, comment tricks, casts and quoting games
INJECTIONS: tuple[str, ...] = (
    "'",
    "''",
    '"',
    "\\",
    "';--",
    "' OR '1'='1",
    "' OR 1=1 --",
    "1; DROP TABLE users; --",
    "1); DELETE FROM orders; --",
    "'; TRUNCATE TABLE orders CASCADE; --",
    "x'; UPDATE users SET name = 'pwned' WHERE '1'='1",
    "1 UNION SELECT usename, passwd FROM pg_shadow --",
    "$$; DROP SCHEMA api CASCADE; $$",
    "$tag$ injected $tag$",
    "/* comment */ 1",
    "1 /*! DROP TABLE x */",
    "--\nSELECT 1",
    "1::text; SELECT pg_sleep(30)",
    "'; SELECT pg_sleep(30); --",
    "1; COPY users TO PROGRAM 'id'; --",
    "'; CREATE ROLE evil SUPERUSER; --",
    "'; COMMIT; DROP TABLE orders; --",
    "E'\\x27'",
    "%' AND 1=0 UNION SELECT NULL --",
    "%",
    "_",
    "*",
    "${jndi:ldap://x}",
    "{{7*7}}",
    "<script>alert(1)</script>",
    "../../../../etc/passwd",
    "\\\\server\\share",
    "NULL",
    "null",
    "undefined",
    "NaN",
    "Infinity",
    "-0",
    "1e309",
    "0x7fffffff",
    "99999999999999999999999999999",
    "-9223372036854775809",
    "2024-02-30",
    "31.12.99999",
    "9999-12-31T23:59:59.999999+14:00",
)

# Unicode confusables, control characters, bidi overrides, combining marks, invalid code points
MALFORMED_TEXT: tuple[str, ...] = (
    "\x00",
    "abc\x00def",
    "\ud800",
    "x\udfffy",
    "\u202eRTL override",
    "\u200b\u200c\u200d\ufeff",
    "Ｐетров",  # fullwidth Latin P in a Cyrillic word
    "Pеtрov",  # Latin and Cyrillic letters mixed
    "Смирнoв",  # Latin o in a Cyrillic word
    "A\u0301\u0302\u0303\u0304\u0305",
    "\x1b[2J\x1b[31m",
    "\r\n\r\nHTTP/1.1 200 OK",
    "\t\v\f",
    "\U0001f4a9" * 50,
    " ",
    "",
)


def huge_text(rng: random.Random) -> str:
    """A string far over every size limit (64 KB to 300 KB)."""
    unit = rng.choice(["x", "Я", "word ", "' OR 1=1 ", "\U0001f600"])
    return unit * (rng.randint(64_000, 300_000) // len(unit.encode("utf-8")))


def nested(depth: int) -> Any:
    """Lists and objects nested ``depth`` deep."""
    value: Any = "leaf"
    for level in range(depth):
        value = [value] if level % 2 else {"k": value}
    return value


def hostile_string(rng: random.Random) -> str:
    """One hostile string: an injection, malformed text, a mix of both, or huge text."""
    roll = rng.random()
    if roll < 0.45:
        return rng.choice(INJECTIONS)
    if roll < 0.8:
        return rng.choice(MALFORMED_TEXT)
    if roll < 0.95:
        return rng.choice(INJECTIONS) + rng.choice(MALFORMED_TEXT) + rng.choice(INJECTIONS)
    return huge_text(rng)


def hostile_value(rng: random.Random) -> Any:
    """A value of any JSON type that no well-behaved caller sends."""
    roll = rng.random()
    if roll < 0.5:
        return hostile_string(rng)
    choices: list[Any] = [
        True,
        False,
        None,
        0,
        -1,
        2**31,
        -(2**31) - 1,
        2**63,
        -(2**63) - 1,
        10**40,
        1.5,
        -0.0,
        1e308,
        [],
        {},
        [1, "a", None],
        {"$ref": "/etc/passwd"},
        {"__proto__": {"admin": True}},
        nested(rng.choice([5, 40, 200])),
        ["x"] * rng.choice([10, 1000, 20_000]),
        {f"k{i}": i for i in range(rng.choice([10, 2000]))},
    ]
    return rng.choice(choices)


def boundary_integer(rng: random.Random) -> int:
    """Integers at and just past the usual storage widths."""
    edges = [
        0,
        1,
        -1,
        2**15 - 1,
        2**15,
        2**31 - 1,
        2**31,
        -(2**31),
        -(2**31) - 1,
        2**63 - 1,
        2**63,
        10**15,
        10**20,
    ]
    return rng.choice(edges)
