"""An input that takes an arithmetic expression, written from an amount the request states and a number
an earlier step returns: "the rate from Ethereum to USD, and the value of 5 ETH in USD" gives the
calculator ``5 * {}`` over the rate step's ``Exchange Rate``.

The rule reads the catalog and English only: an input takes an expression when its description says
so (``EXPRESSION_WORDS``); the amount is ``values.AMOUNT`` ("5 ETH", "5 ETH in USD"); the earlier step
is one that was given the amount's unit or the unit it is asked in (the rate's end), and the number is
the field of that step's output that is numeric (by its schema, or by a name of a number kind:
``value_types``) and whose name words the request says most ("exchange rate", "conversion rate" →
``Exchange Rate``, not ``Bid Price``). Converting an amount with a rate is multiplying by it; nothing
else is composed, and a step or field found ambiguously composes nothing."""

from __future__ import annotations

import re

from apiatlas.catalog.model import Api
from apiatlas.errors import ReasonCode
from apiatlas.executors.value_types import ValueKind, kind_of_domain_type, kind_of_schema
from apiatlas.language.stemming import stem
from apiatlas.planning.model import LEVEL_CONFIDENCE, CandidateChain, InputSource, PlannedStep, PlanResult
from apiatlas.planning.snapshot_reads import SnapshotCache
from apiatlas.planning.values import AMOUNT, AMOUNT_NUMBER

# words of an input's description saying it takes an arithmetic expression
EXPRESSION_WORDS = frozenset({"arithmetic", "arithmetical", "mathematical", "equation", "formula"})
_AMOUNT_PARTS = re.compile(rf"({AMOUNT_NUMBER})\s+([A-Za-z]{{3}})(?:\s+(?:in|to|into)\s+([A-Za-z]{{3}}))?")
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_NUMBERS = (ValueKind.NUMBER, ValueKind.INTEGER)


def takes_expression(api: Api, name: str) -> bool:
    """A string parameter whose description says it takes arithmetic ("numbers and arithmetic
    operations to be calculated", "a mathematical expression")."""
    param = next((p for p in api.params if p.name == name), None)
    if param is None or kind_of_schema(param.json_schema) not in (None, ValueKind.STRING):
        return False
    return bool(EXPRESSION_WORDS & set(re.findall(r"[a-z]+", param.description.lower())))


def amount_parts(text: str) -> tuple[str, str, str] | None:
    """"5 ETH in USD" -> ("5", "ETH", "USD"); "5 ETH" -> ("5", "ETH", ""); the number of "1,000 ETH" is
    1000 (English thousands), of "2,5 ETH" 2.5."""
    match = _AMOUNT_PARTS.fullmatch(text.strip())
    if match is None:
        return None
    number = match.group(1)
    grouped = re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", number)  # "1,000": a thousand (English)
    number = number.replace(",", "") if grouped else number.replace(",", ".")
    return number, match.group(2), match.group(3) or ""


def name_stems(name: str) -> set[str]:
    """The stems of a field name's words (``Exchange Rate``, ``exchangeRate``, ``exchange_rate``)."""
    return {stem(w.lower()) for w in _WORD.findall(name) if len(w) > 2}


def computed(result: PlanResult, cache: SnapshotCache) -> PlanResult:
    """Each chain's expression inputs asked of the user, written from the request's amounts where an
    earlier step returns the number the amount is converted with; the plan's status follows its top
    chain (no input left to ask: ``ok``)."""
    stated = [x for x in result.values if x.kind == AMOUNT]
    rest = result.request
    for x in stated:
        rest = rest.replace(str(x.value), " ")
    amounts = [p for x in stated if (p := amount_parts(str(x.value))) and not _other_way(rest, p)]
    if not amounts or not result.chains:
        return result
    said = {stem(w) for w in re.findall(r"[a-z]+", result.request.lower()) if len(w) > 2}
    result.chains = [_composed(chain, amounts, said, cache) for chain in result.chains]
    top = result.chains[0]
    if result.reason == ReasonCode.MISSING_REQUIRED_INPUT and not top.missing:
        result.status, result.reason = "ok", ReasonCode.OK
        result.message = re.sub(r";? ?ask the user for: .*$", "", result.message)
    return result


def _other_way(rest: str, amount: tuple[str, str, str]) -> bool:
    """The request names the rate the other way round ("the rate from USD to EUR" beside "7 EUR in USD"):
    outside its amounts it names the unit converted into first. Converting with that rate would divide,
    and the order of a rate's codes is read from the request only, so nothing is composed."""
    unit, into = amount[1].casefold(), amount[2].casefold()
    codes = [w for w in re.findall(r"\b[A-Za-z]{3}\b", rest.casefold()) if w in (unit, into)]
    return bool(into) and unit in codes and codes[:1] == [into]


def _composed(
    chain: CandidateChain, amounts: list[tuple[str, str, str]], said: set[str], cache: SnapshotCache
) -> CandidateChain:
    steps = list(chain.steps)
    changed = False
    for index, step in enumerate(steps):
        api = cache.api(step.api)
        if api is None or not any(s.origin == "user" and takes_expression(api, s.name) for s in step.inputs):
            continue
        inputs = list(step.inputs)
        for n, source in enumerate(inputs):
            if source.origin == "user" and source.table is None and takes_expression(api, source.name):
                found = _from_amount(source, amounts, steps[:index], said, cache)
                if found is not None:
                    inputs[n], changed = found, True
        steps[index] = step.model_copy(update={"inputs": inputs})
    if not changed:
        return chain
    missing = [f"{s.api}.{i.name}" for s in steps for i in s.inputs if i.origin == "user" and i.required]
    why = [*chain.why, "an expression input written from the amount the request states"]
    return chain.model_copy(update={"steps": steps, "missing": missing, "why": why})


def _from_amount(
    source: InputSource, amounts: list[tuple[str, str, str]], earlier: list[PlannedStep], said: set[str],
    cache: SnapshotCache,
) -> InputSource | None:
    for number, unit, into in amounts:
        units = {u.casefold() for u in (unit, into) if u}
        given = [
            i for i, step in enumerate(earlier)
            if any(s.origin == "request" and str(s.value).casefold() in units for s in step.inputs)
        ]  # fmt: skip
        if len(given) != 1:
            continue
        field = _number_named(cache, earlier[given[0]].api, said)
        if field is not None:
            table, column = field
            return source.model_copy(
                update={"origin": "step", "from_step": given[0], "from_table": table, "from_field": column,
                        "template": f"{number} * {{}}", "level": "alias",
                        "confidence": LEVEL_CONFIDENCE["alias"]}
            )  # fmt: skip
    return None


def _number_named(cache: SnapshotCache, key: str, said: set[str]) -> tuple[str, str] | None:
    """The numeric output field (outside any list) whose name words the request says most; None when
    none or several tie."""
    api = cache.api(key)
    scored: list[tuple[int, str, str]] = []
    for table in api.output_tables if api is not None else []:
        for column in table.columns:
            if "[]" in column.name or not _numeric(column.name, column.json_schema):
                continue
            shared = len(name_stems(column.name.split(".")[-1]) & said)
            if shared:
                scored.append((shared, table.name, column.name))
    scored.sort(reverse=True)
    if not scored or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return scored[0][1], scored[0][2]


def _numeric(name: str, schema: dict[str, object]) -> bool:
    kind = kind_of_schema(schema)
    if kind in _NUMBERS:
        return True
    leaf = name.split(".")[-1]
    return kind in (None, ValueKind.STRING) and kind_of_domain_type(re.sub(r"\W+", "_", leaf)) in _NUMBERS
