"""The headers every answer of the web board carries, refusals and the event stream
included: a strict Content-Security-Policy (the page loads its own script and stylesheet
and nothing else, from nobody else), no framing, no sniffing, no referrer, no caching
unless said otherwise."""

from __future__ import annotations

from collections.abc import MutableMapping

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the first page's URL holds its token
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}


def secure(headers: MutableMapping[str, str]) -> None:
    for k, v in HEADERS.items():
        headers.setdefault(k, v)
    headers.setdefault("Cache-Control", "no-store")
