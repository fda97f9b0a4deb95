"""Reading the board's event stream, for the tests and the benchmark's viewers (the page
does the same in JavaScript): ``event: version`` carries a version, ``event: state`` the
state itself, gzipped JSON in base64."""

from __future__ import annotations

import base64
import gzip
import json
from typing import Any


def version_of(event: str, data: str) -> int | None:
    """The game version an event announces, or None (a keep-alive, an expiry)."""
    if event == "version":
        return int(data)
    if event == "state":
        return int(state_of(data)["version"])
    return None


def state_of(data: str) -> dict[str, Any]:
    state: dict[str, Any] = json.loads(gzip.decompress(base64.b64decode(data)))
    return state
