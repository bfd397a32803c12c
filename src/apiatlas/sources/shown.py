"""How a source is shown in a manifest or report: a connection URL well-formed and without secrets."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

# a URL a Path collapsed ("postgresql:/host/db") or as typed ("postgresql://host/db")
_SCHEME = re.compile(r"^([a-z][a-z0-9+.-]*):/+", re.IGNORECASE)
_SECRET_QUERY = re.compile(r"(?i)\b(password|passwd|pwd|sslpassword|token|secret)=[^&]*")


def shown_source(source: Path | str) -> str:
    """``source`` as a manifest records it: a file path as given; a URL with ``//`` restored and its
    user kept but any password (or password-like query value) replaced by ``***``."""
    text = str(source)
    match = _SCHEME.match(text)
    if match is None or re.match(r"^[a-z]:[\\/]", text, re.IGNORECASE):  # a path, or C:\ on Windows
        return text
    url = f"{match.group(1)}://{text[match.end() :]}"
    parts = urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        credentials, host = netloc.rsplit("@", 1)
        user, has_password, password = credentials.partition(":")
        netloc = f"{user}{':***' if has_password and password else ''}@{host}"
    query = _SECRET_QUERY.sub(lambda m: f"{m.group(1)}=***", parts.query)
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))
