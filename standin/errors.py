"""What the stand-in records when the bot misbehaves, and Discord-shaped error bodies."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Discord JSON error codes the stand-in answers with.
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_COMMAND = 10063
UNKNOWN_INTERACTION = 10062
ENTITY_TOO_LARGE = 40005
ALREADY_ACKNOWLEDGED = 40060
MISSING_ACCESS = 50001
EMPTY_MESSAGE = 50006
CANNOT_MESSAGE_USER = 50007
MISSING_PERMISSIONS = 50013
INVALID_WEBHOOK_TOKEN = 50027
INVALID_RECIPIENT = 50033
INVALID_FORM_BODY = 50035
THREAD_ARCHIVED = 50083  # "Operation cannot be performed on an archived thread"
THREAD_LOCKED = 160005  # "Thread is locked"


@dataclass(frozen=True)
class FieldError:
    """One broken rule inside a request body, at a dotted path such as `embeds.0.title`."""

    path: str
    code: str
    message: str


@dataclass(frozen=True)
class Violation:
    """The bot broke one of Discord's rules; the request was refused like Discord would."""

    code: int
    message: str
    method: str
    path: str
    details: tuple[FieldError, ...] = ()
    interaction_id: int | None = None

    def __str__(self) -> str:
        extra = "; ".join(f"{e.path}: {e.message}" for e in self.details)
        return f"[{self.code}] {self.message} ({self.method} {self.path}){': ' + extra if extra else ''}"


@dataclass(frozen=True)
class RecordedError:
    """Something the stand-in does not understand (unknown endpoint, unknown gateway op...)."""

    kind: str
    detail: str
    method: str = ""
    path: str = ""

    def __str__(self) -> str:
        where = f" ({self.method} {self.path})" if self.method else ""
        return f"{self.kind}: {self.detail}{where}"


@dataclass
class DiscordError(Exception):
    """Raised inside REST handlers; turned into a JSON error response."""

    status: int
    code: int
    message: str
    details: list[FieldError] = field(default_factory=list)
    # Violations are limit breaches the fixture fails on; other errors (403 closed DMs) are not.
    violation: bool = False

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.details:
            body["errors"] = nest_field_errors(self.details)
        return body


def nest_field_errors(errors: list[FieldError]) -> dict[str, Any]:
    """Build Discord's nested `errors` object: {"embeds": {"0": {"title": {"_errors": [...]}}}}."""
    root: dict[str, Any] = {}
    for error in errors:
        node = root
        for part in error.path.split("."):
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": error.code, "message": error.message})
    return root


def form_error(errors: list[FieldError]) -> DiscordError:
    return DiscordError(400, INVALID_FORM_BODY, "Invalid Form Body", list(errors), violation=True)
