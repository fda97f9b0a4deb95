"""Faults tests switch on: injected 429 rate limits, 5xx answers to requests that were carried out,
and 5xx refusals of requests that were not (closed DMs live on the user model)."""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, field
from typing import Any, TypeVar

from aiohttp import web

from .responses import json_response


@dataclass
class RateLimitRule:
    """The next `count` requests matching `method` and `pattern` are answered 429."""

    method: str
    pattern: re.Pattern[str]
    count: int
    retry_after: float
    is_global: bool
    hits: list[str] = field(default_factory=list)


def route_pattern(route: str) -> tuple[str, re.Pattern[str]]:
    """'POST /channels/{channel_id}/messages' -> ('POST', regex); `{...}` matches one path segment."""
    method, _, path = route.strip().partition(" ")
    if not path.startswith("/"):
        raise ValueError(f"route must look like 'POST /channels/{{channel_id}}/messages', got {route!r}")
    parts = re.split(r"(\{[^}]*\})", path)
    regex = "".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts)
    return method.upper(), re.compile(f"^{regex}$")


@dataclass
class FailureRule:
    """The next `count` requests matching are answered `status`: carried out first (a 5xx that
    hides a success, as when Discord's edge loses the answer), or with `carried_out` False
    refused untouched (Discord down or overloaded: 503 Service Unavailable)."""

    method: str
    pattern: re.Pattern[str]
    count: int
    status: int
    carried_out: bool = True
    hits: list[str] = field(default_factory=list)


# The reason phrases Discord's 5xx bodies carry ("503: Service Unavailable").
REASONS = {500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout"}


def server_error(status: int) -> web.Response:
    """A 5xx as Discord answers it: ``{"message": "<status>: <reason>", "code": 0}``."""
    reason = REASONS.get(status, "Server Error")
    return json_response({"message": f"{status}: {reason}", "code": 0}, status)


class Faults:
    def __init__(self) -> None:
        self.rate_limits: list[RateLimitRule] = []
        self.failures: list[FailureRule] = []
        self.refusals: list[FailureRule] = []

    def refuse(self, route: str, *, count: int = 1, status: int = 503) -> FailureRule:
        """Answer the next `count` requests to `route` `status` without carrying them out."""
        if not 500 <= status < 600:
            raise ValueError(f"a refusal is a server error (5xx), not {status}")
        method, pattern = route_pattern(route)
        rule = FailureRule(method, pattern, count, status, carried_out=False)
        self.refusals.append(rule)
        return rule

    def take_refusal(self, method: str, api_path: str) -> FailureRule | None:
        return _take(self.refusals, method, api_path)

    def fail_after(self, route: str, *, count: int = 1, status: int = 500) -> FailureRule:
        """Carry out the next `count` requests to `route`, then answer them `status`."""
        method, pattern = route_pattern(route)
        rule = FailureRule(method, pattern, count, status)
        self.failures.append(rule)
        return rule

    def take_failure(self, method: str, api_path: str) -> FailureRule | None:
        return _take(self.failures, method, api_path)

    def rate_limit(
        self, route: str, *, count: int = 1, retry_after: float = 0.05, is_global: bool = False
    ) -> RateLimitRule:
        """Answer the next `count` requests to `route` (API path without /api/v10) with 429."""
        method, pattern = route_pattern(route)
        rule = RateLimitRule(method, pattern, count, retry_after, is_global)
        self.rate_limits.append(rule)
        return rule

    def take_rate_limit(self, method: str, api_path: str) -> RateLimitRule | None:
        return _take(self.rate_limits, method, api_path)


Rule = TypeVar("Rule", RateLimitRule, FailureRule)


def _take(rules: list[Rule], method: str, api_path: str) -> Rule | None:
    """The first rule with requests left that matches, its count taken down by one."""
    for rule in rules:
        if rule.count > 0 and rule.method == method and rule.pattern.match(api_path):
            rule.count -= 1
            rule.hits.append(f"{method} {api_path}")
            return rule
    return None


def rate_limited_response(rule: RateLimitRule, bucket: str) -> web.Response:
    """A 429 exactly as discord.py reads it: JSON body, X-RateLimit-* headers and a Via header."""
    body: dict[str, Any] = {
        "message": "You are being rate limited.",
        "retry_after": rule.retry_after,
        "global": rule.is_global,
        "code": 0,
    }
    headers = {
        # discord.py treats a 429 without Via as a Cloudflare ban and gives up.
        "Via": "1.1 google",
        "Retry-After": str(max(1, math.ceil(rule.retry_after))),
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": f"{time.time() + rule.retry_after:.3f}",
        "X-RateLimit-Reset-After": f"{rule.retry_after:.3f}",
        "X-RateLimit-Bucket": bucket,
        "X-RateLimit-Scope": "global" if rule.is_global else "user",
    }
    if rule.is_global:
        headers["X-RateLimit-Global"] = "true"
    return json_response(body, status=429, headers=headers)
