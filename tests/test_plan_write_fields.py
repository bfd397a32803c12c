"""A change of one field of a thing (issue 18, chains): "Change the email of account A to x@example.com" ends
at the write whose body takes ``email`` (the account's own update, titled "Updates …"), not at a write of a
part of the account that happens to say the verb ("Changes the settings on an account's …"); and the
other optional fields of that change of one item (its ``coupon``) are no inputs a lookup should feed."""

from __future__ import annotations

import re

import pytest

from apiatlas.planning.planner import Planner
from apiatlas.snapshot import Snapshot
from test_plan_members import _of
from test_plan_review_cases import _by_path
from test_rest_loose_ids import compiled_spec


def _write(path: str, summary: str, fields: list[str]) -> str:
    props = ", ".join(f"{f}: {{type: string}}" for f in fields)
    named = re.findall(r"\{(\w+)\}", path)
    params = ", ".join(f"{{name: {p}, in: path, required: true, schema: {{type: string}}}}" for p in named)
    return f"""\
  {path}:
    post:
      summary: {summary}
      parameters: [{params}]
      requestBody:
        content: {{application/x-www-form-urlencoded: {{schema: {{type: object, properties: {{{props}}}}}}}}}
      responses: {{'200': {{description: ok, content: {{application/json: {{schema: {ACCOUNT}}}}}}}}}
"""


COUPON = "{type: object, properties: {id: {type: string}, percent: {type: string}}}"
ACCOUNT = "{type: object, properties: {id: {type: string}, email: {type: string}, name: {type: string}}}"
SPEC = "openapi: 3.0.0\ninfo: {title: Ledger, version: '1'}\npaths:\n" + "".join(
    [
        _write("/accounts/{account}", "Updates the specified account by setting the values passed",
               ["email", "name", "phone", "coupon"]),
        _write("/accounts/{account}/wallet", "Changes the settings on an account's wallet", ["settings"]),
        _write("/accounts/{account}/notes/{note}", "Update a note", ["body"]),
        _by_path("/accounts/{account}/coupons", "get", "List the coupons of an account", "account",
                 _of("data", "{type: array, items: " + COUPON + "}")),
        _by_path("/coupons/{coupon}", "get", "Retrieve a coupon", "coupon", COUPON),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "write_fields_ledger", SPEC)


def test_a_change_of_a_field_ends_at_the_write_taking_it(ledger: Snapshot) -> None:
    result = Planner(ledger, allow=None).plan("Change the email of account acc_8f3Ka92Lq to new@example.com")
    assert result.chains and result.chains[0].api_keys == ["POST /accounts/{account}"]


def test_a_change_naming_no_field_still_ends_at_the_verb_s_write(ledger: Snapshot) -> None:
    result = Planner(ledger, allow=None).plan("Change the wallet settings of account acc_8f3Ka92Lq")
    assert result.chains and result.chains[0].api_keys == ["POST /accounts/{account}/wallet"]
