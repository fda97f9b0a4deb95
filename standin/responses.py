"""JSON responses exactly as Discord sends them.

discord.py decodes a body as JSON only when Content-Type is exactly `application/json`
(aiohttp's json_response would append `; charset=utf-8`), so responses are built by hand.
"""

from __future__ import annotations

import json
import time
from typing import Any

from aiohttp import web

# The body as sent, kept on the response for the check against Discord's response schemas
# (rest.RestApi.middleware).
BODY: web.ResponseKey[Any] = web.ResponseKey("json")
# Every successful answer carries a roomy bucket so discord.py's limiter never stalls.
BUCKET_LIMIT = 50


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    all_headers = {"Content-Type": "application/json"}
    all_headers.update(headers or {})
    response = web.Response(body=json.dumps(body).encode(), status=status, headers=all_headers)
    response[BODY] = body
    return response


def ratelimit_headers(bucket: str) -> dict[str, str]:
    return {
        "X-RateLimit-Limit": str(BUCKET_LIMIT),
        "X-RateLimit-Remaining": str(BUCKET_LIMIT - 1),
        "X-RateLimit-Reset": f"{time.time() + 1:.3f}",
        "X-RateLimit-Reset-After": "1.000",
        "X-RateLimit-Bucket": bucket,
    }
