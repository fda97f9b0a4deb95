"""Signed, expiring links to a game's web board.

A link's token names one game, one member (0: a spectator, who may only watch) and when it
expires, signed with HMAC-SHA256 under the bot's web secret; nothing else grants a seat.
It is short enough for a Discord link button (at most 512 characters with the URL)::

    <game>.<member>.<expires>.<signature>

The signature covers the three fields and a purpose prefix, so a token for one game opens
no other and cannot be edited into one that does.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass

SPECTATOR = 0
PURPOSE = b"cubist-web-board:"
SIG_BYTES = 20  # 160 bits of HMAC-SHA256, 27 characters of base64url


class BadLink(ValueError):
    """The token is not one this bot signed, or not for this game, or it has expired."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason  # "forged", "expired", "other_game"


@dataclass(frozen=True, slots=True)
class Pass:
    """What a valid token grants: a look at ``game``, and a seat's moves if ``member``
    (a Discord user id) is seated there."""

    game: int
    member: int
    expires: int

    @property
    def spectator(self) -> bool:
        return self.member == SPECTATOR


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def _signature(secret: str, body: str) -> str:
    mac = hmac.new(secret.encode(), PURPOSE + body.encode(), hashlib.sha256).digest()[:SIG_BYTES]
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")


def sign(secret: str, game: int, member: int, expires: int) -> str:
    if game <= 0 or member < 0 or expires <= 0:
        raise ValueError(f"cannot sign game {game}, member {member}, expiry {expires}")
    body = f"{game}.{member}.{expires}"
    return f"{body}.{_signature(secret, body)}"


def check(secret: str, token: str, game: int, now: float) -> Pass:
    """The pass ``token`` grants for ``game`` at ``now``; BadLink otherwise (the signature
    first, in constant time, so a forged token learns nothing about the others)."""
    parts = token.split(".")
    if len(parts) != 4 or not all(p.isdigit() for p in parts[:3]) or len(token) > 120:
        raise BadLink("forged")
    body, sig = ".".join(parts[:3]), parts[3]
    if not hmac.compare_digest(sig.encode(), _signature(secret, body).encode()):
        raise BadLink("forged")
    signed_game, member, expires = int(parts[0]), int(parts[1]), int(parts[2])
    if signed_game != game:
        raise BadLink("other_game")
    if expires <= now:
        raise BadLink("expired")
    return Pass(signed_game, member, expires)


@dataclass(frozen=True, slots=True)
class Links:
    """Builds the links the bot puts on its messages: ``base`` is PUBLIC_URL."""

    base: str
    secret: str
    hours: float

    def url(self, game: int, member: int, now: float) -> str:
        expires = int(now + self.hours * 3600)
        return f"{self.base.rstrip('/')}/g/{game}?t={sign(self.secret, game, member, expires)}"
