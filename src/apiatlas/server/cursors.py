"""Opaque paging cursors: an offset bound to the list it pages, so a cursor from another list is refused."""

from __future__ import annotations

import base64
import binascii
import json

from apiatlas.errors import ApiatlasError, ReasonCode
from apiatlas.server.results import Paging


class BadCursor(ApiatlasError):
    """A cursor that is malformed or belongs to another list."""

    code = ReasonCode.BAD_CURSOR


def encode_cursor(scope: str, offset: int) -> str:
    raw = json.dumps({"s": scope, "o": offset}, separators=(",", ":"), ensure_ascii=False)
    return base64.urlsafe_b64encode(raw.encode("utf-8")).decode("ascii").rstrip("=")


def decode_cursor(cursor: str | None, scope: str) -> int:
    """The offset a cursor points at; ``None`` or ``""`` is the first page."""
    if not cursor:
        return 0
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        data = json.loads(base64.urlsafe_b64decode(padded.encode("ascii")).decode("utf-8"))
        offset = data["o"]
        found_scope = data["s"]
    except (ValueError, KeyError, TypeError, UnicodeError, binascii.Error) as exc:
        raise BadCursor("the cursor is not one this server issued; start again without a cursor") from exc
    if found_scope != scope or not isinstance(offset, int) or offset < 0:
        raise BadCursor("the cursor belongs to another list; pass the next_cursor of this same list")
    return offset


def page_info(scope: str, cursor: str | None, offset: int, returned: int, total: int, what: str) -> Paging:
    """Paging facts for a page of ``returned`` items read at ``offset`` out of ``total``."""
    end = offset + returned
    more = end < total
    return Paging(
        cursor=cursor or None,
        next_cursor=encode_cursor(scope, end) if more else None,
        total=total,
        returned=returned,
        truncated=more,
        how_to_continue=(f"{total - end} more {what}: call again with cursor=next_cursor" if more else None),
    )
