"""Reading the board's event stream, for the tests and the benchmark's viewers (the page
does the same in JavaScript, static/board.js): ``event: version`` carries a version,
``event: patch`` a move's new state as a patch on the state sent before it, gzipped JSON in
base64.  A page holds the table's pieces it shows; ``Follower`` keeps them as it does."""

from __future__ import annotations

import base64
import gzip
import json
from typing import Any


def version_of(event: str, data: str) -> int | None:
    """The game version an event announces, or None (a keep-alive, an expiry)."""
    if event == "version":
        return int(data)
    if event == "patch":
        return int(state_of(data)["version"])
    return None


def state_of(data: str) -> dict[str, Any]:
    """An event's JSON (a patch)."""
    state: dict[str, Any] = json.loads(gzip.decompress(base64.b64decode(data)))
    return state


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


class Follower:
    """A page's view of the game: the whole state from ``/state``, then each patch applied
    to it as the page applies it (``apply`` is None when a piece is missing: the page then
    asks for the whole state)."""

    def __init__(self, full: dict[str, Any]) -> None:
        self.state = full
        self.pieces: dict[str, str] = {}
        units = full["table"].encode("utf-16-le")
        at = 0
        for piece_id, length in full["parts"]:  # lengths count as the browser does (UTF-16)
            self.pieces[piece_id] = units[2 * at : 2 * (at + length)].decode("utf-16-le")
            at += length
        assert "".join(self.pieces[i] for i, _n in full["parts"]) == full["table"]
        assert all(_utf16(self.pieces[i]) == n for i, n in full["parts"])

    def apply(self, patch: dict[str, Any]) -> dict[str, Any] | None:
        held: dict[str, str] = {}
        for piece_id, _length in patch["parts"]:
            text = patch["new"].get(piece_id, self.pieces.get(piece_id))
            if text is None:
                return None
            held[piece_id] = text
        css = patch.get("css")
        if css is None:
            if patch["css_id"] != self.state["css_id"]:
                return None
            css = self.state["css"]
        state = {k: v for k, v in patch.items() if k != "new"}
        state |= {"table": "".join(held[i] for i, _n in patch["parts"]), "css": css, "ui": self.state["ui"]}
        self.state, self.pieces = state, held
        return state
