"""ordered_json_bytes (pydantic_core's JSON, json.dumps where they could differ) against json.dumps."""

from __future__ import annotations

import random

from apiatlas.snapshot.writer import ordered_json, ordered_json_bytes


def test_plain_values_give_json_dumps_bytes() -> None:
    values = [
        {"type": "object", "properties": {"Сумма": {"type": "number", "example": 0.5}}, "required": ["А"]},
        {"example": "6f1c2e44-8d3a-4b7e-9a51-0c2d3e4f5a6b", "text": 'кавычки " и \\ и \x01 \u2028'},
        {"small": 1e-05, "tiny": -2.5e-300, "edge": 0.0001, "big": 1e16, "inf": float("inf")},
        {None: 1, True: 2, 3: [1.0, -0.0, 12345678901234567890]},
        [0.00001, "0.0000 in a text", ",1e-5 in a text"],
        1e-7,
        {"nested": [{"a": [[2.571892237854131e-05]]}]},
    ]
    for value in values:
        assert ordered_json_bytes(value) == ordered_json(value).encode()


def test_random_floats_give_json_dumps_bytes() -> None:
    rnd = random.Random(5)
    for _ in range(20000):
        number = rnd.choice([1, -1]) * rnd.random() * 10 ** rnd.uniform(-320, 308)
        value = rnd.choice([{"a": [number], "b": "x"}, [number, 1], {"k": number}, number, {None: number}])
        assert ordered_json_bytes(value) == ordered_json(value).encode()
