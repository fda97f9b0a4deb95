"""Who is really asking, behind a reverse proxy.

A proxy in front of the board (nginx, Caddy: docs/operating.md) connects from its own
address and says whom it serves in ``X-Forwarded-For`` (or ``Forwarded``).  Those headers
are believed only from the addresses in TRUSTED_PROXIES: anyone else could write them.
Each proxy appends the address it was reached from, so the list is read from the right,
past the trusted proxies, and the first address no trusted proxy would have written is the
client's."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from urllib.parse import urlsplit

from bot.config import LOOPBACK

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
MAX_HOPS = 16  # a longer chain is read no further (the header is the client's to pad)


class Proxies:
    def __init__(self, trusted: Iterable[str] = LOOPBACK) -> None:
        """``trusted``: addresses or networks (``10.0.0.0/8``), as bot.config checked them."""
        self.trusted: tuple[Network, ...] = tuple(ipaddress.ip_network(t.strip(), strict=False) for t in trusted)

    def trusts(self, address: str | None) -> bool:
        ip = _ip(address)
        return ip is not None and any(ip in net for net in self.trusted)

    def client(self, peer: str | None, headers: Mapping[str, str]) -> str:
        """The client's address: the peer's own, unless a trusted proxy says otherwise."""
        address = peer or "unknown"
        if not self.trusts(peer):
            return address
        hops = _forwarded_for(headers)
        for hop in reversed(hops[-MAX_HOPS:]):
            address = hop
            if not self.trusts(hop):
                break
        return address


def _ip(text: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    if not text:
        return None
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped  # ::ffff:127.0.0.1 from a dual-stack socket
    return ip


def _forwarded_for(headers: Mapping[str, str]) -> list[str]:
    """The addresses the proxies wrote, oldest first: X-Forwarded-For (what nginx and Caddy
    set), else the ``for=`` of RFC 7239's Forwarded."""
    xff = headers.get("X-Forwarded-For")
    if xff is not None:
        return [_bare(part) for part in xff.split(",") if part.strip()]
    forwarded = headers.get("Forwarded")
    hops: list[str] = []
    if forwarded is not None:
        for element in forwarded.split(","):
            for pair in element.split(";"):
                name, _eq, value = pair.strip().partition("=")
                if name.strip().lower() == "for":
                    hops.append(_bare(value))
    return hops


def _bare(value: str) -> str:
    """An address without quotes, brackets or port: ``"[2001:db8::1]:4711"`` -> ``2001:db8::1``."""
    value = value.strip().strip('"')
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value[1:]
    if value.count(":") == 1:  # IPv4 with a port; IPv6 has more colons
        return value.split(":")[0]
    return value


def origin_of(url: str) -> str:
    """``https://cubist.example.org/board`` -> ``https://cubist.example.org``: what a browser
    sends as Origin from a page under that URL."""
    parts = urlsplit(url)
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"
    default = {"http": 80, "https": 443}.get(scheme)
    port = f":{parts.port}" if parts.port is not None and parts.port != default else ""
    return f"{scheme}://{host}{port}"
