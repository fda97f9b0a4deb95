"""Point discord.py at another Discord (the local stand-in) instead of discord.com.

The bot calls `point_discord_at(settings.DISCORD_API_BASE)` at start-up when that setting
is present; nothing else in discord.py is changed.
"""

from __future__ import annotations

import discord.gateway
import discord.http
import yarl


def point_discord_at(base_url: str) -> None:
    """REST goes to `{base_url}/api/v10`, the gateway to `ws://<same host>/gateway`.

    Call before the client logs in. Route.BASE is read whenever a request is built and
    DEFAULT_GATEWAY whenever a plain Client connects, so both are plain class attributes.
    """
    base = yarl.URL(base_url.rstrip("/"))
    if base.scheme not in ("http", "https"):
        raise ValueError(f"DISCORD_API_BASE must be an http(s) URL, got {base_url!r}")
    discord.http.Route.BASE = f"{base}/api/v10"
    ws_scheme = "wss" if base.scheme == "https" else "ws"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = base.with_scheme(ws_scheme).with_path("/gateway")
