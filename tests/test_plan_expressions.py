"""An input taking an arithmetic expression, written from the request's amount and an earlier step's number
(``planning/expressions.py``), on a small synthetic catalog, and the expression filled in by the chain
executor's mapping."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest

from apiatlas.build import compile_docs
from apiatlas.errors import ReasonCode
from apiatlas.executors.base import CallResult, TableResult
from apiatlas.executors.chain import _mapped_args, _Stop
from apiatlas.executors.chain_model import ChainStep, FieldRef, StepResult
from apiatlas.planning.expressions import amount_parts, name_stems
from apiatlas.planning.planner import Planner, reads_only
from apiatlas.planning.values import extract_values
from apiatlas.snapshot import Snapshot

SPEC = [
    {
        "name": "Money_Rates", "description": "The rate between two currencies.", "method": "GET",
        "endpoint": "/rates", "host": "money.example.com",
        "query_parameters": {
            "from_code": {"type": "String", "description": "The currency to convert from", "required": True},
            "to_code": {"type": "String", "description": "The currency to convert to", "required": True},
        },
        "output_parser": "result.{param}",
        "output_parameters": {
            "Conversion Rate": {"type": "String", "description": "The rate between the two currencies"},
            "Bid Price": {"type": "String", "description": "The bid price"},
            "Updated": {"type": "String", "description": "When the rate was refreshed"},
        },
    },
    {
        "name": "Solver_Evaluate", "description": "Evaluates a calculation.", "method": "GET",
        "endpoint": "/evaluate", "host": "solver.example.com",
        "query_parameters": {
            "expr": {"type": "String", "description": "A mathematical expression to evaluate.",
                     "required": True},
        },
        "output_parser": "result.{param}",
        "output_parameters": {"result": {"type": "number", "description": "The value of the expression."}},
    },
]  # fmt: skip


@pytest.fixture(scope="module")
def planner(tmp_path_factory: pytest.TempPathFactory) -> Planner:
    folder = tmp_path_factory.mktemp("expressions")
    spec, out = folder / "spec.json", folder / "spec.atlas"
    spec.write_text(json.dumps(SPEC), encoding="utf-8")
    compile_docs(spec, overlays_dir=None, config_path=None, out=out, write_report=False, embeddings="none")
    return Planner(Snapshot.open(out), allow=reads_only)


def test_the_amount_is_multiplied_by_the_rate_the_earlier_step_returns(planner: Planner) -> None:
    result = planner.plan("Get the conversion rate from EUR to USD and calculate the value of 7 EUR in USD.")
    chain = result.chains[0]
    assert chain.api_keys == ["Money_Rates", "Solver_Evaluate"]
    expr = next(i for i in chain.steps[1].inputs if i.name == "expr")
    assert (expr.origin, expr.from_step, expr.from_field) == ("step", 0, "Conversion Rate")
    assert expr.template == "7 * {}"
    assert "Solver_Evaluate.expr" not in chain.missing
    ref = chain.chain_steps()[1].param_mapping["expr"]
    assert (ref.source_step, ref.column, ref.template) == (0, "Conversion Rate", "7 * {}")


def test_no_expression_without_a_step_given_the_amounts_unit(planner: Planner) -> None:
    """"7 GBP in JPY" is not converted by the EUR→USD rate: the calculator's input stays asked."""
    result = planner.plan("Get the conversion rate from EUR to USD and calculate the value of 7 GBP in JPY.")
    chain = result.chains[0]
    expr = [i for s in chain.steps if s.api == "Solver_Evaluate" for i in s.inputs if i.name == "expr"]
    assert all(i.origin == "user" and i.template is None for i in expr)
    assert result.reason != ReasonCode.OK or not expr


def test_amounts_and_field_words_are_read() -> None:
    assert amount_parts("5 ETH in USD") == ("5", "ETH", "USD")
    assert amount_parts("2,5 BTC") == ("2.5", "BTC", "")
    assert amount_parts("ETH in USD") is None
    assert name_stems("Exchange Rate") == name_stems("exchangeRate") == name_stems("exchange_rate")


def test_the_executor_writes_the_mapped_value_into_the_template() -> None:
    rates = TableResult(name="out", columns=["rate"], rows=[{"rate": "1.08"}], row_count=1, truncated=False)
    called = CallResult(api_key="Money_Rates", status="ok", reason=ReasonCode.OK, tables=[rates])
    first = StepResult(index=0, api_key="Money_Rates", result=called)
    step = ChainStep(
        api="Solver_Evaluate",
        param_mapping={"expr": FieldRef(source_step=0, source_table="out", column="rate", template="7 * {}")},
    )
    args, fan_out, _ = _mapped_args(1, step, [first])
    assert args == {"expr": "7 * 1.08"} and not fan_out


def test_an_amount_with_thousands_separators_is_read_whole() -> None:
    """"1,000 ETH" is a thousand (the rule reads English), not 1.000; a long number is not cut to its tail."""
    assert amount_parts("1,000 ETH in USD") == ("1000", "ETH", "USD")
    assert amount_parts("1,500.25 EUR") == ("1500.25", "EUR", "")
    amounts = {x.value for x in extract_values("convert 12,345,678 ETH to USD and 1,500.25 EUR in USD")}
    assert amounts == {"12,345,678 ETH to USD", "1,500.25 EUR in USD"}


def _rate_into_template(value: object) -> dict[str, Any]:
    """The arguments of a step whose ``expr`` is the template "7 * {}" over the rate an earlier step
    returned as ``value``."""
    rates = TableResult(name="out", columns=["rate"], rows=[{"rate": value}], row_count=1, truncated=False)
    called = CallResult(api_key="Money_Rates", status="ok", reason=ReasonCode.OK, tables=[rates])
    first = StepResult(index=0, api_key="Money_Rates", result=called)
    step = ChainStep(
        api="Solver_Evaluate",
        param_mapping={"expr": FieldRef(source_step=0, source_table="out", column="rate", template="7 * {}")},
    )
    return _mapped_args(1, step, [first])[0]


@pytest.mark.parametrize("value", ["1.08) + (2", "N/A", "__import__('os')", True, "1e3 * 2"])
def test_the_executor_writes_only_a_number_into_the_template(value: object) -> None:
    """An earlier step's value that is not a number (another API's text) is never written into the
    expression an input evaluates: the step stops (no value to map) instead."""
    with pytest.raises(_Stop) as stopped:
        _rate_into_template(value)
    assert stopped.value.reason == ReasonCode.NO_MATCH


@pytest.mark.parametrize(
    ("value", "written"),
    [(1.08, "7 * 1.08"), (-2, "7 * -2"), (" 0.5 ", "7 * 0.5"), (Decimal("1.25"), "7 * 1.25")],
)
def test_a_number_of_any_type_is_written_into_the_template(value: object, written: str) -> None:
    assert _rate_into_template(value) == {"expr": written}


def test_no_expression_from_a_rate_asked_the_other_way(planner: Planner) -> None:
    """The rate from USD to EUR does not convert 7 EUR into USD by multiplying (it would be dividing):
    the calculator's input stays asked rather than written wrong."""
    result = planner.plan("Get the conversion rate from USD to EUR and calculate the value of 7 EUR in USD.")
    steps = [s for s in result.chains[0].steps if s.api == "Solver_Evaluate"]
    expr = [i for s in steps for i in s.inputs if i.name == "expr"]
    assert expr and all(i.origin == "user" and i.template is None for i in expr)
