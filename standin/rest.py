"""The REST API under /api/v10, the attachment CDN, and the gateway routes.

Handlers raise `DiscordError`; the middleware turns it into Discord's JSON error, records
limit violations and invalid requests, applies injected 429s and adds rate-limit headers.
Any path the stand-in does not know is recorded as an error and answered 404.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from . import errors as E
from .documented import TABLE, check_buttons, check_command_definitions
from .errors import DiscordError, FieldError, Violation, form_error
from .faults import rate_limited_response, server_error
from .interactions import (
    ACK_DEADLINE_S,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    COMMAND,
    COMPONENT,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    MODAL,
    MODAL_SUBMIT,
    TOKEN_LIFETIME_S,
    UPDATE_MESSAGE,
    InteractionRecord,
)
from .limits import SELECT_TYPES, check_choices, check_commands, check_message, check_modal, is_empty_message
from .models import Attachment, Channel, ChannelType, Message, MessageFlag, Permission, User, png_size
from .responses import BODY, json_response, ratelimit_headers
from .schema import check_query, check_response, validate_request
from .world import World

API = "/api/v10"
# The interaction a request acts on, so refusals can be attached to it.
INTERACTION_KEY = web.RequestKey("interaction", InteractionRecord)
# The query parameters the operation declares, read as Discord reads them (schema.check_query).
QUERY_KEY = web.RequestKey("query", dict)
RESPONSE_SAMPLES = 200  # answers checked per operation and status (see RestApi._check_response)
MAX_REQUEST_BYTES = 64 * 1024 * 1024  # room to receive (then refuse, like Discord) requests over its 25 MiB
# Message flags a bot may set when sending; anything else is dropped like Discord does.
SENDABLE_FLAGS = (1 << 2) | MessageFlag.EPHEMERAL | (1 << 12) | MessageFlag.IS_COMPONENTS_V2


NONCE_SECONDS = 300.0  # how long Discord remembers an enforced nonce ("the past few minutes")


@dataclass
class Upload:
    filename: str
    data: bytes
    content_type: str | None


_FILES_PART = re.compile(r"files\[(\d+)\]")


def _content_type(value: str) -> tuple[str, dict[str, str]]:
    """'multipart/form-data; boundary="x"' -> ('multipart/form-data', {'boundary': 'x'}).
    Also parses Content-Disposition ('form-data; name="files[0]"; filename="a.png"')."""
    head, _, rest = value.partition(";")
    params: dict[str, str] = {}
    while rest:
        rest = rest.lstrip()
        key, eq, rest = rest.partition("=")
        if not eq:
            break
        rest = rest.lstrip()
        if rest.startswith('"'):  # quoted-string, with backslash escapes
            i, chars = 1, []
            while i < len(rest) and rest[i] != '"':
                if rest[i] == "\\" and i + 1 < len(rest):
                    i += 1
                chars.append(rest[i])
                i += 1
            val, rest = "".join(chars), rest[i + 1 :].partition(";")[2]
        else:
            val, _, rest = rest.partition(";")
            val = val.strip()
        params[key.strip().lower()] = val
    return head.strip().lower(), params


def _multipart_parts(body: bytes, boundary: bytes) -> list[tuple[dict[str, str], bytes]]:
    """The (headers with lower-case names, data) of each part of a multipart body."""
    parts: list[tuple[dict[str, str], bytes]] = []
    # Every delimiter but a leading one follows a CRLF that belongs to it, not to the data.
    chunks = (b"\r\n" + body).split(b"\r\n--" + boundary)
    for chunk in chunks[1:]:  # before the first delimiter: the preamble
        if chunk.startswith(b"--"):  # the close delimiter
            break
        raw_headers, _, data = chunk.partition(b"\r\n\r\n")
        headers: dict[str, str] = {}
        for line in raw_headers.decode("utf-8", "replace").split("\r\n"):
            name, colon, value = line.partition(":")
            if colon:
                headers[name.strip().lower()] = value.strip()
        parts.append((headers, data))
    return parts


def _numbered(components: list[Any]) -> list[Any]:
    """Discord gives every component of a stored message a numeric `id` (depth first, from 1),
    and every select its `min_values` and `max_values` (1 when not sent)."""
    taken = {c.get("id") for c in _walk(components)}
    next_id = 1
    for component in _walk(components):
        if component.get("type") in SELECT_TYPES:
            component.setdefault("min_values", 1)
            component.setdefault("max_values", 1)
        if component.get("id") is None:
            while next_id in taken:
                next_id += 1
            component["id"] = next_id
            taken.add(next_id)
    return components


def _walk(components: list[Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for component in components:
        if isinstance(component, dict):
            found.append(component)
            found += _walk(component.get("components") or [])
            found += _walk([component[k] for k in ("accessory", "component") if isinstance(component.get(k), dict)])
    return found


def _embeds(embeds: Any) -> list[dict[str, Any]]:
    """Embeds as Discord stores them: `type` "rich", every field's `inline` set."""
    stored = []
    for embed in embeds or []:
        embed = {"type": "rich"} | embed
        if embed.get("fields"):
            embed["fields"] = [{"inline": False} | f for f in embed["fields"]]
        stored.append(embed)
    return stored


# GET /gateway/bot: a bot may start 1,000 sessions a day (the stand-in's day never resets).
SESSION_STARTS_PER_DAY = 1000
DAY_MS = 86_400_000


def no_content() -> web.Response:
    return web.Response(status=204)


def build_app(server: World) -> web.Application:
    api = RestApi(server)
    app = web.Application(client_max_size=MAX_REQUEST_BYTES, middlewares=[api.middleware])
    routes: list[tuple[str, str, Any]] = [
        ("GET", "/gateway", api.get_gateway),
        ("GET", "/gateway/bot", api.get_gateway_bot),
        ("GET", "/users/@me", api.get_me),
        ("POST", "/users/@me/channels", api.open_dm),
        ("GET", "/users/{user_id}", api.get_user),
        ("GET", "/oauth2/applications/@me", api.get_application),
        ("GET", "/applications/@me", api.get_application),
        ("GET", "/applications/{app_id}/commands", api.get_commands),
        ("PUT", "/applications/{app_id}/commands", api.put_commands),
        ("POST", "/applications/{app_id}/commands", api.post_command),
        ("GET", "/applications/{app_id}/commands/{command_id}", api.get_command),
        ("DELETE", "/applications/{app_id}/commands/{command_id}", api.delete_command),
        ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", api.get_commands),
        ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", api.put_commands),
        ("POST", "/applications/{app_id}/guilds/{guild_id}/commands", api.post_command),
        ("GET", "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}", api.get_command),
        ("DELETE", "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}", api.delete_command),
        ("POST", "/interactions/{interaction_id}/{token}/callback", api.interaction_callback),
        ("POST", "/webhooks/{app_id}/{token}", api.followup),
        ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", api.get_webhook_message),
        ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", api.edit_webhook_message),
        ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", api.delete_webhook_message),
        ("GET", "/channels/{channel_id}", api.get_channel),
        ("PATCH", "/channels/{channel_id}", api.edit_channel),
        ("POST", "/channels/{channel_id}/typing", api.typing),
        ("GET", "/channels/{channel_id}/messages", api.list_messages),
        ("POST", "/channels/{channel_id}/messages", api.post_message),
        ("GET", "/channels/{channel_id}/messages/{message_id}", api.get_message),
        ("PATCH", "/channels/{channel_id}/messages/{message_id}", api.edit_message),
        ("DELETE", "/channels/{channel_id}/messages/{message_id}", api.delete_message),
        ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", api.add_reaction),
        ("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", api.remove_reaction),
        ("POST", "/channels/{channel_id}/threads", api.create_thread),
        ("POST", "/channels/{channel_id}/messages/{message_id}/threads", api.create_thread),
        ("PUT", "/channels/{channel_id}/thread-members/{user_id}", api.thread_member),
        ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", api.thread_member),
        ("GET", "/guilds/{guild_id}", api.get_guild),
        ("GET", "/guilds/{guild_id}/channels", api.get_guild_channels),
        ("GET", "/guilds/{guild_id}/roles", api.get_guild_roles),
        ("GET", "/guilds/{guild_id}/members", api.list_members),
        ("GET", "/guilds/{guild_id}/members/{user_id}", api.get_member),
    ]
    for method, path, handler in routes:
        app.router.add_route(method, API + path, handler)
    app.router.add_get("/gateway", server.gateway.handle)
    app.router.add_get("/gateway-resume", server.gateway.handle)
    app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", api.cdn)
    app.router.add_route("*", "/{tail:.*}", api.unknown)
    return app


class RestApi:
    def __init__(self, server: World) -> None:
        self.server = server
        self.checked_responses: dict[tuple[str, str, int], int] = {}

    # -- plumbing -----------------------------------------------------------------------

    @web.middleware
    async def middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        server = self.server
        path = request.path
        is_api = path.startswith(API + "/")
        if not is_api:
            return await handler(request)
        api_path = path[len(API) :]
        server.requests.append(f"{request.method} {api_path}")
        bucket = self._bucket(request)
        rule = server.faults.take_rate_limit(request.method, api_path)
        if rule is not None:
            server.invalid_requests.append(f"429 {request.method} {api_path}")
            return rate_limited_response(rule, bucket)
        refusal = server.faults.take_refusal(request.method, api_path)
        if refusal is not None:  # refused untouched: nothing was done
            return server_error(refusal.status)
        try:
            request[QUERY_KEY] = self._query(request)
            response = await handler(request)
            failure = server.faults.take_failure(request.method, api_path)
            if failure is not None and response.status < 300:  # done, but the answer is lost
                response = server_error(failure.status)
        except DiscordError as err:
            if err.violation:
                self._record_violation(request, err, api_path)
            if err.status in (401, 403, 429):
                server.invalid_requests.append(f"{err.status} {request.method} {api_path}")
            response = json_response(err.body(), err.status)
        response.headers.update(ratelimit_headers(bucket))
        if server.check_responses and response.status < 300 and "json" in response:
            self._check_response(request, response, api_path)
        return response

    def _check_response(self, request: web.Request, response: web.StreamResponse, api_path: str) -> None:
        """The answer against Discord's response schema. Answers of one operation come from the same
        code, so after RESPONSE_SAMPLES of them the rest are not checked (long load runs stay cheap)."""
        route = request.match_info.route.resource.canonical if request.match_info.route.resource else ""
        key = (request.method, route, response.status)
        seen = self.checked_responses.get(key, 0)
        if seen >= RESPONSE_SAMPLES:
            return
        self.checked_responses[key] = seen + 1
        for problem in check_response(request.method, route[len(API) :], response.status, response[BODY]):
            self.server.record_error("response shape", problem, request.method, api_path)

    def _query(self, request: web.Request) -> dict[str, Any]:
        """The query parameters against the operation's parameters in Discord's description
        (`?wait=maybe` is refused like a bad body field)."""
        route = request.match_info.route.resource.canonical if request.match_info.route.resource else ""
        values, problems = check_query(request.method, route[len(API) :], request.query)
        if problems:
            record = self.server.interactions_by_token.get(request.match_info.get("token", ""))
            if record is not None:
                request[INTERACTION_KEY] = record
            raise form_error(problems)
        return values

    def _record_violation(self, request: web.Request, err: DiscordError, api_path: str) -> None:
        record = request.get(INTERACTION_KEY)
        if record is not None:
            api_path = api_path.replace(record.token, "{token}")  # keep reports readable
        violation = Violation(
            err.code,
            err.message,
            request.method,
            api_path,
            tuple(err.details),
            record.id if record else None,
        )
        self.server.violations.append(violation)
        if record is not None:
            record.rejected.append(violation)
            record.touch()

    @staticmethod
    def _bucket(request: web.Request) -> str:
        canonical = request.match_info.route.resource.canonical if request.match_info.route.resource else "?"
        return hashlib.sha1(f"{request.method} {canonical}".encode()).hexdigest()[:16]

    def _auth(self, request: web.Request) -> None:
        if request.headers.get("Authorization") != f"Bot {self.server.token}":
            self.server.record_error("unauthorized", "missing or wrong bot token", request.method, request.path)
            raise DiscordError(401, 0, "401: Unauthorized")

    def _app(self, request: web.Request) -> None:
        if request.match_info["app_id"] != str(self.server.application_id):
            raise DiscordError(404, E.UNKNOWN_WEBHOOK, "Unknown Webhook", violation=True)

    async def _body(self, request: web.Request, variant: str = "") -> tuple[Any, dict[int, Upload]]:
        """JSON body, or multipart with `payload_json` and `files[n]` parts, checked against the
        operation's request schema in Discord's OpenAPI description (`schema.validate_request`;
        `variant`: the one schema of the operation's union that applies) and returned as Discord
        reads it: strings that parse as integers where the description types an integer are
        those integers, so the checks and the handlers after this see `flags: "4"` as 4.

        Parsed by hand from the raw bytes: aiohttp's ``request.content_type`` and multipart
        reader go through the ``email`` package for every header, which was a fifth of the
        stand-in's time in the load benchmark (discord.py's multipart shape is fixed)."""
        payload, uploads = await self._parse_body(request)
        route = request.match_info.route.resource.canonical if request.match_info.route.resource else ""
        payload, problems = validate_request(request.method, route[len(API) :], payload, variant=variant)
        if problems:
            raise form_error(problems)
        return payload, uploads

    async def _parse_body(self, request: web.Request) -> tuple[Any, dict[int, Upload]]:
        mime, params = _content_type(request.headers.get("Content-Type", ""))
        if not request.can_read_body:
            return {}, {}
        raw = await request.read()
        if len(raw) > TABLE["request_bytes"].value:
            raise DiscordError(413, E.ENTITY_TOO_LARGE, "Request entity too large", violation=True)
        if mime == "multipart/form-data":
            boundary = params.get("boundary")
            if not boundary:
                self.server.record_error("multipart", "no boundary", request.method, request.path)
                return {}, {}
            payload: dict[str, Any] = {}
            uploads: dict[int, Upload] = {}
            unnamed: list[FieldError] = []
            for headers, data in _multipart_parts(raw, boundary.encode()):
                _kind, disposition = _content_type(headers.get("content-disposition", ""))
                name = disposition.get("name", "")
                if name == "payload_json":
                    payload = json.loads(data)
                    continue
                match = _FILES_PART.fullmatch(name)
                if match is None:
                    self.server.record_error("multipart", f"unexpected part {name!r}", request.method, request.path)
                    continue
                if not disposition.get("filename"):
                    unnamed.append(FieldError(name, "BASE_TYPE_REQUIRED", "A file part needs a filename."))
                    continue
                uploads[int(match[1])] = Upload(disposition["filename"], data, headers.get("content-type"))
            if unnamed:
                raise form_error(unnamed)
            return payload, uploads
        return json.loads(raw), {}

    def _channel(self, request: web.Request) -> Channel:
        channel = self.server.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            raise DiscordError(404, E.UNKNOWN_CHANNEL, "Unknown Channel")
        return channel

    def _require_permissions(self, channel: Channel, needed: int) -> None:
        have = self.server.bot_permissions_in(channel)
        if have & needed != needed:
            raise DiscordError(403, E.MISSING_PERMISSIONS, "Missing Permissions")

    # -- messages (shared by channel and interaction routes) -----------------------------

    def _check_message(
        self, payload: dict[str, Any], uploads: dict[int, Upload], *, creating: bool, within: str = ""
    ) -> None:
        """`within`: where the message sits in the body ("data." in an interaction callback)."""
        for upload in uploads.values():
            if len(upload.data) > self.server.attachment_limit:
                raise DiscordError(413, E.ENTITY_TOO_LARGE, "Request entity too large", violation=True)
        problems = check_message(payload) + check_buttons(payload.get("components") or [])
        if problems:
            raise form_error([FieldError(within + e.path, e.code, e.message) for e in problems])
        if creating and is_empty_message(payload, bool(uploads)):
            raise DiscordError(400, E.EMPTY_MESSAGE, "Cannot send an empty message", violation=True)

    def _attachments(
        self, payload: dict[str, Any], uploads: dict[int, Upload], channel: Channel, existing: list[Attachment]
    ) -> list[Attachment]:
        """Resolve `attachments` (kept ids + new `files[n]` by index) into stored attachments."""
        specs = payload.get("attachments")
        if specs is None:
            specs = [{"id": str(i)} for i in sorted(uploads)]
            kept = list(existing)
        else:
            kept = []
        by_id = {str(a.id): a for a in existing}
        result = kept
        used: set[int] = set()
        errors: list[FieldError] = []
        for i, spec in enumerate(specs):
            sid = str(spec.get("id"))
            if sid in by_id:
                result.append(by_id[sid])
            elif sid.isdigit() and int(sid) in uploads:
                used.add(int(sid))
                result.append(self._store_upload(uploads[int(sid)], channel, spec))
            else:
                errors.append(FieldError(f"attachments.{i}.id", "ATTACHMENT_NOT_FOUND", "Unknown attachment"))
        for index in sorted(set(uploads) - used):
            result.append(self._store_upload(uploads[index], channel, {}))
        if errors:
            raise form_error(errors)
        return result

    def _store_upload(self, upload: Upload, channel: Channel, spec: dict[str, Any]) -> Attachment:
        aid = self.server.snowflake()
        filename = str(spec.get("filename") or upload.filename)
        keep = self.server.keep_uploads
        attachment = Attachment(
            aid,
            filename,
            upload.data if keep else b"",
            url=f"{self.server.url}/attachments/{channel.id}/{aid}/{filename}",
            content_type=upload.content_type,
            description=spec.get("description"),
            dropped=None if keep else (len(upload.data), png_size(upload.data)),
        )
        self.server.attachments[aid] = attachment
        return attachment

    def _new_message(
        self,
        channel: Channel,
        payload: dict[str, Any],
        uploads: dict[int, Upload],
        *,
        record: InteractionRecord | None = None,
        flags: int | None = None,
        message_id: int | None = None,
    ) -> Message:
        server = self.server
        message = Message(
            message_id or server.snowflake(),
            channel.id,
            channel.guild_id,
            server.bot_user,
            content=str(payload.get("content") or ""),
            embeds=_embeds(payload.get("embeds")),
            components=_numbered(list(payload.get("components") or [])),
            flags=int(payload.get("flags") or 0) & SENDABLE_FLAGS if flags is None else flags,
        )
        message.attachments = self._attachments(payload, uploads, channel, [])
        message.mentions = self._mentions(message.content)
        message.allowed_mentions = payload.get("allowed_mentions")
        if record is not None:
            message.webhook_id = server.application_id
            message.application_id = server.application_id
            message.interaction_id = record.id
            message.interaction_type = record.kind
            message.interaction_user = record.user
            if record.kind == COMPONENT and record.source_message_id is not None:
                message.interaction_extra["interacted_message_id"] = str(record.source_message_id)
            opener = record.triggered_by
            if record.kind == MODAL_SUBMIT and opener is not None:
                message.interaction_extra["triggering_interaction_metadata"] = {
                    "id": str(opener.id),
                    "type": opener.kind,
                    "user": opener.user.payload(),
                    "authorizing_integration_owners": {},
                }
            message.type = 20 if record.kind == COMMAND else 0
            for attachment in message.attachments:
                attachment.ephemeral = message.ephemeral
        server.messages[message.id] = message
        if not message.ephemeral:
            channel.last_message_id = message.id
            channel.message_count += 1
            self._announce_message("MESSAGE_CREATE", message, channel)
        return message

    def _mentions(self, content: str) -> list[User]:
        ids = dict.fromkeys(int(m) for m in re.findall(r"<@!?(\d+)>", content))
        return [self.server.users[i] for i in ids if i in self.server.users]

    def _edit(self, message: Message, payload: dict[str, Any], uploads: dict[int, Upload]) -> None:
        channel = self.server.channels[message.channel_id]
        if self.server.keep_edits and not message.versions:
            message.versions.append(message.version(message.id))
        if "content" in payload:
            message.content = str(payload["content"] or "")
            message.mentions = self._mentions(message.content)
        if "embeds" in payload:
            message.embeds = _embeds(payload["embeds"])
        if "components" in payload:
            message.components = _numbered(list(payload["components"] or []))
        if "attachments" in payload or uploads:
            message.attachments = self._attachments(payload, uploads, channel, message.attachments)
        if payload.get("flags") is not None:
            keep = message.flags & (MessageFlag.EPHEMERAL | MessageFlag.IS_COMPONENTS_V2)
            message.flags = keep | (int(payload["flags"]) & (1 << 2))
        message.flags &= ~MessageFlag.LOADING
        message.edited = time.time()
        message.edits += 1
        if self.server.keep_edits:
            message.versions.append(message.version(self.server.snowflake()))
        for record in self.server.interactions_by_source.get(message.id, []):
            # A component click answered with "deferred update" becomes visible on an edit.
            if record.response_type == DEFERRED_UPDATE_MESSAGE:
                record.activity += 1
                record.touch()
        if not message.ephemeral:
            self._announce_message("MESSAGE_UPDATE", message, channel)

    def _announce_message(self, event: str, message: Message, channel: Channel) -> None:
        # Discord sends message events only for the intents the bot asked for.
        if self.server.gateway.current is None:
            return
        intent = 1 << 12 if channel.is_dm else 1 << 9
        payload = message.payload()
        if event == "MESSAGE_CREATE" and channel.guild_id is not None:
            guild = self.server.guilds[channel.guild_id]
            member = guild.members.get(message.author.id)
            if member is not None:
                payload["member"] = {k: v for k, v in member.payload().items() if k != "user"}
        self.server.announce(event, lambda s: payload if s.intents & intent else None)

    # -- identity, gateway, application -------------------------------------------------

    async def get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.server.gateway_url})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        self._auth(request)
        gateway = self.server.gateway
        return json_response(
            {
                "url": self.server.gateway_url,
                "shards": self.server.recommended_shards(),
                "session_start_limit": {
                    "total": SESSION_STARTS_PER_DAY,
                    "remaining": max(0, SESSION_STARTS_PER_DAY - gateway.identify_count),
                    "reset_after": DAY_MS,
                    "max_concurrency": self.server.max_concurrency,
                },
            }
        )

    async def get_me(self, request: web.Request) -> web.Response:
        self._auth(request)
        me = {"verified": True, "mfa_enabled": False, "locale": "en-US"}
        return json_response(self.server.bot_user.payload() | me)

    async def get_user(self, request: web.Request) -> web.Response:
        self._auth(request)
        return json_response(self._user(request.match_info["user_id"]).payload())

    def _user(self, raw_id: Any) -> User:
        user = self.server.users.get(int(raw_id)) if str(raw_id).isdigit() else None
        if user is None:
            raise DiscordError(404, E.UNKNOWN_USER, "Unknown User")
        return user

    async def get_application(self, request: web.Request) -> web.Response:
        self._auth(request)
        return json_response(self.server.application_payload())

    async def open_dm(self, request: web.Request) -> web.Response:
        self._auth(request)
        payload, _ = await self._body(request)
        recipient = self.server.users.get(int(payload.get("recipient_id") or 0))
        if recipient is None or recipient.bot:
            raise DiscordError(400, E.INVALID_RECIPIENT, "Invalid Recipient(s)")
        return json_response(self.server.dm_channel(recipient).payload())

    # -- application commands -----------------------------------------------------------

    def _command_scope(self, request: web.Request) -> int | None:
        self._auth(request)
        if request.match_info["app_id"] != str(self.server.application_id):
            raise DiscordError(403, E.MISSING_ACCESS, "Missing Access")
        raw = request.match_info.get("guild_id")
        if raw is None:
            return None
        guild = self.server.guilds.get(int(raw))
        if guild is None or self.server.bot_user.id not in guild.members:
            raise DiscordError(403, E.MISSING_ACCESS, "Missing Access")
        return guild.id

    def _registered(self, command: dict[str, Any], scope: int | None, old: dict[str, Any] | None) -> dict[str, Any]:
        stored = dict(command)
        stored["id"] = old["id"] if old else str(self.server.snowflake())
        stored["application_id"] = str(self.server.application_id)
        stored["version"] = str(self.server.snowflake())
        stored.setdefault("type", 1)
        stored.setdefault("description", "")
        stored.setdefault("options", [])
        permissions = stored.get("default_member_permissions")
        # Discord answers permissions as a string, whichever form (32 or "32") was sent.
        stored["default_member_permissions"] = None if permissions is None else str(permissions)
        stored.setdefault("nsfw", False)
        if stored.get("integration_types") is None:
            stored["integration_types"] = [0]  # guild install, Discord's default
        if scope is not None:
            stored["guild_id"] = str(scope)
        return stored

    async def get_commands(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        return json_response(self.server.commands.get(scope, []))

    async def put_commands(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        commands, _ = await self._body(request)
        if not isinstance(commands, list):
            raise form_error([FieldError("", "BASE_TYPE_ARRAY", "Must be an array.")])
        problems = check_commands(commands) + check_command_definitions(commands)
        if problems:
            raise form_error(problems)
        old = {(c["name"], c["type"]): c for c in self.server.commands.get(scope, [])}
        stored = [self._registered(c, scope, old.get((c["name"], c.get("type", 1)))) for c in commands]
        self.server.commands[scope] = stored
        return json_response(stored)

    async def post_command(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        command, _ = await self._body(request)
        problems = check_commands([command]) + check_command_definitions([command])
        if problems:
            raise form_error(problems)
        current = self.server.commands.setdefault(scope, [])
        old = next((c for c in current if (c["name"], c["type"]) == (command["name"], command.get("type", 1))), None)
        stored = self._registered(command, scope, old)
        self.server.commands[scope] = [c for c in current if c is not old] + [stored]
        return json_response(stored, status=200 if old else 201)

    def _find_command(self, request: web.Request) -> tuple[int | None, dict[str, Any]]:
        scope = self._command_scope(request)
        cid = request.match_info["command_id"]
        for command in self.server.commands.get(scope, []):
            if command["id"] == cid:
                return scope, command
        raise DiscordError(404, E.UNKNOWN_COMMAND, "Unknown application command")

    async def get_command(self, request: web.Request) -> web.Response:
        return json_response(self._find_command(request)[1])

    async def delete_command(self, request: web.Request) -> web.Response:
        scope, command = self._find_command(request)
        self.server.commands[scope] = [c for c in self.server.commands[scope] if c is not command]
        return no_content()

    # -- interaction responses ------------------------------------------------------------

    async def interaction_callback(self, request: web.Request) -> web.Response:
        server = self.server
        record = server.interactions.get(int(request.match_info["interaction_id"]))
        if record is None or record.token != request.match_info["token"]:
            raise DiscordError(404, E.UNKNOWN_INTERACTION, "Unknown interaction", violation=True)
        request[INTERACTION_KEY] = record
        if record.acknowledged:
            raise DiscordError(
                400, E.ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged.", violation=True
            )
        elapsed = server.clock.now() - record.created_at
        if elapsed > ACK_DEADLINE_S:
            raise DiscordError(
                404,
                E.UNKNOWN_INTERACTION,
                f"Unknown interaction (first response {elapsed:.1f}s after creation; limit {ACK_DEADLINE_S:.0f}s)",
                violation=True,
            )
        body, uploads = await self._body(request)
        if record.acknowledged:  # another callback won while this body was being read
            raise DiscordError(
                400, E.ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged.", violation=True
            )
        rtype = int(body.get("type") or 0)
        data: dict[str, Any] = body.get("data") or {}
        self._check_response_type(record, rtype)
        message: Message | None = None
        if rtype in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            self._check_message(data, uploads, creating=rtype == CHANNEL_MESSAGE, within="data.")
        if rtype == AUTOCOMPLETE_RESULT:
            problems = check_choices(list(data.get("choices") or []))
            if problems:
                raise form_error(problems)
            record.choices = list(data.get("choices") or [])
        elif rtype == MODAL:
            problems = check_modal(data)
            if problems:
                raise form_error(problems)
            record.modal = data
        elif rtype == CHANNEL_MESSAGE:
            message = self._new_message(record.channel, data, uploads, record=record)
        elif rtype == DEFERRED_CHANNEL_MESSAGE:
            flags = MessageFlag.LOADING | (int(data.get("flags") or 0) & MessageFlag.EPHEMERAL)
            message = self._new_message(record.channel, {}, {}, record=record, flags=flags)
        elif rtype == UPDATE_MESSAGE:
            message = server.messages[record.source_message_id or 0]
            self._edit(message, data, uploads)
        if message is not None:
            record.original_message_id = message.id
        elif rtype == DEFERRED_UPDATE_MESSAGE:
            record.original_message_id = record.source_message_id
        record.response_type = rtype
        record.touch()
        if not request[QUERY_KEY].get("with_response"):
            return no_content()
        return json_response(self._callback_body(record, rtype, message))

    def _check_response_type(self, record: InteractionRecord, rtype: int) -> None:
        allowed = {
            COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
            COMPONENT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE, MODAL},
            AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
            MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE},
        }[record.kind]
        if record.kind == MODAL_SUBMIT and record.source_message_id is not None:
            allowed = allowed | {DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE}
        if rtype not in allowed:
            raise form_error(
                [
                    FieldError(
                        "type",
                        "INTERACTION_RESPONSE_TYPE_INVALID",
                        f"Interaction response type {rtype} is not valid for interaction type {record.kind}",
                    )
                ]
            )

    def _callback_body(self, record: InteractionRecord, rtype: int, message: Message | None) -> dict[str, Any]:
        interaction: dict[str, Any] = {"id": str(record.id), "type": record.kind}
        if message is not None:
            interaction["response_message_id"] = str(message.id)
            interaction["response_message_loading"] = message.loading
            interaction["response_message_ephemeral"] = message.ephemeral
        if message is None or rtype not in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            return {"interaction": interaction}  # Discord's `resource` is for the message answers only
        return {"interaction": interaction, "resource": {"type": rtype, "message": message.payload()}}

    # -- interaction webhooks (follow-ups, @original) ------------------------------------

    def _webhook_record(self, request: web.Request) -> InteractionRecord:
        self._app(request)
        record = self.server.interactions_by_token.get(request.match_info["token"])
        if record is None:
            raise DiscordError(401, E.INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token", violation=True)
        request[INTERACTION_KEY] = record
        age = self.server.clock.now() - record.created_at
        if age > TOKEN_LIFETIME_S:
            raise DiscordError(
                401,
                E.INVALID_WEBHOOK_TOKEN,
                f"Invalid Webhook Token (interaction token is {age / 60:.1f} min old; valid 15 min)",
                violation=True,
            )
        if not record.acknowledged or record.response_type in (AUTOCOMPLETE_RESULT, MODAL):
            raise DiscordError(404, E.UNKNOWN_WEBHOOK, "Unknown Webhook", violation=True)
        return record

    def _webhook_message(self, request: web.Request, record: InteractionRecord) -> Message:
        raw = request.match_info["message_id"]
        mid = record.original_message_id if raw == "@original" else (int(raw) if raw.isdigit() else None)
        own = {record.original_message_id, *record.followup_ids}
        message = self.server.messages.get(mid) if mid is not None and mid in own else None
        if message is None or message.deleted:
            raise DiscordError(404, E.UNKNOWN_MESSAGE, "Unknown Message")
        return message

    async def followup(self, request: web.Request) -> web.Response:
        record = self._webhook_record(request)
        payload, uploads = await self._body(request)
        self._check_message(payload, uploads, creating=True)
        original = self.server.messages.get(record.original_message_id or 0)
        if original is not None and original.loading and record.response_type == DEFERRED_CHANNEL_MESSAGE:
            # Discord: the first follow-up after "thinking" replaces the thinking message.
            self._edit(original, payload | {"flags": None}, uploads)
            message = original
        else:
            message = self._new_message(record.channel, payload, uploads, record=record)
        record.followup_ids.append(message.id)
        record.activity += 1
        record.touch()
        if request[QUERY_KEY].get("wait"):
            return json_response(message.payload())
        return no_content()

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        record = self._webhook_record(request)
        return json_response(self._webhook_message(request, record).payload())

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        record = self._webhook_record(request)
        message = self._webhook_message(request, record)
        payload, uploads = await self._body(request)
        self._check_message(payload, uploads, creating=False)
        self._edit(message, payload, uploads)
        record.activity += 1
        record.touch()
        return json_response(message.payload())

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        record = self._webhook_record(request)
        message = self._webhook_message(request, record)
        self._delete(message)
        record.activity += 1
        record.touch()
        return no_content()

    def _delete(self, message: Message) -> None:
        message.deleted = True
        if not message.ephemeral:
            channel = self.server.channels[message.channel_id]
            data: dict[str, Any] = {"id": str(message.id), "channel_id": str(channel.id)}
            if channel.guild_id is not None:
                data["guild_id"] = str(channel.guild_id)
            intent = 1 << 12 if channel.is_dm else 1 << 9
            self.server.announce("MESSAGE_DELETE", lambda s: data if s.intents & intent else None)

    # -- channels and messages ----------------------------------------------------------

    async def get_channel(self, request: web.Request) -> web.Response:
        self._auth(request)
        channel = self._channel(request)
        return json_response(channel.payload())

    async def edit_channel(self, request: web.Request) -> web.Response:
        self._auth(request)
        channel = self._channel(request)
        # The description's body is a union of every channel kind's edit, all fields optional, so
        # it admits anything; Discord reads the body as the edit of this channel's kind.
        variant = (
            "UpdateThreadRequestPartial"
            if channel.is_thread
            else "UpdateDMRequestPartial"
            if channel.is_dm
            else "UpdateGuildChannelRequestPartial"
        )
        payload, _ = await self._body(request, variant)
        if not channel.is_thread:
            self.server.record_error("unsupported", "only thread edits are modelled", request.method, request.path)
        if payload.get("name") is not None:
            channel.name = str(payload["name"])
        for key in ("archived", "locked"):
            if payload.get(key) is not None:
                setattr(channel, key, bool(payload[key]))
        if payload.get("auto_archive_duration") is not None:
            channel.auto_archive_duration = int(payload["auto_archive_duration"])
        data = channel.payload()
        self.server.announce("THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", lambda _s: data)
        return json_response(data)

    async def typing(self, request: web.Request) -> web.Response:
        self._auth(request)
        self._channel(request)
        return no_content()

    def _visible_messages(self, channel: Channel) -> list[Message]:
        return [
            m for m in self.server.messages.values() if m.channel_id == channel.id and not m.deleted and not m.ephemeral
        ]

    async def list_messages(self, request: web.Request) -> web.Response:
        self._auth(request)
        channel = self._channel(request)
        self._require_permissions(channel, Permission.VIEW_CHANNEL | Permission.READ_MESSAGE_HISTORY)
        query = request[QUERY_KEY]
        limit = int(query.get("limit", 50))
        messages = self._visible_messages(channel)
        if "before" in query:
            messages = [m for m in messages if m.id < int(query["before"])]
        if "after" in query:
            after = [m for m in messages if m.id > int(query["after"])]
            return json_response([m.payload() for m in reversed(after[:limit])])
        if "around" in query:
            around = int(query["around"])
            older = [m for m in messages if m.id <= around][-(limit // 2 + 1) :]
            newer = [m for m in messages if m.id > around][: limit - len(older)]
            messages = older + newer
        return json_response([m.payload() for m in reversed(messages[-limit:])])

    async def post_message(self, request: web.Request) -> web.Response:
        self._auth(request)
        channel = self._channel(request)
        payload, uploads = await self._body(request)
        if channel.is_dm:
            assert channel.recipient is not None
            if channel.recipient.dms_closed:
                raise DiscordError(403, E.CANNOT_MESSAGE_USER, "Cannot send messages to this user")
        else:
            send = Permission.SEND_MESSAGES_IN_THREADS if channel.is_thread else Permission.SEND_MESSAGES
            needed = Permission.VIEW_CHANNEL | send | (Permission.ATTACH_FILES if uploads else 0)
            self._require_permissions(channel, needed)
            if channel.is_thread:
                self._thread_takes_messages(channel)
        self._check_message(payload, uploads, creating=True)
        nonce = payload.get("nonce")
        if nonce is not None and payload.get("enforce_nonce"):
            # Discord: the same author's message with this nonce in the last few minutes is
            # returned instead of creating a second one.
            for earlier in reversed(list(self.server.messages.values())):
                same = earlier.channel_id == channel.id and earlier.nonce == str(nonce) and not earlier.deleted
                if same and time.time() - earlier.created < NONCE_SECONDS:
                    return json_response(earlier.payload())
        payload = dict(payload)
        payload["flags"] = int(payload.get("flags") or 0) & ~MessageFlag.EPHEMERAL
        message = self._new_message(channel, payload, uploads)
        message.nonce = None if nonce is None else str(nonce)
        return json_response(message.payload())

    def _thread_takes_messages(self, thread: Channel) -> None:
        """Discord: a locked thread takes messages only from members who may manage threads; an
        archived one is unarchived by a message from someone who may (or, unlocked, anyone)."""
        moderator = self.server.bot_permissions_in(thread) & Permission.MANAGE_THREADS
        if thread.locked and not moderator:
            if thread.archived:
                raise DiscordError(400, E.THREAD_ARCHIVED, "Thread is archived")
            raise DiscordError(403, E.THREAD_LOCKED, "Thread is locked")
        if thread.archived:
            thread.archived = False
            data = thread.payload()
            self.server.announce("THREAD_UPDATE", lambda _s: data)

    def _message(self, request: web.Request, channel: Channel) -> Message:
        raw = request.match_info["message_id"]
        message = self.server.messages.get(int(raw)) if raw.isdigit() else None
        if message is None or message.deleted or message.channel_id != channel.id or message.ephemeral:
            raise DiscordError(404, E.UNKNOWN_MESSAGE, "Unknown Message")
        return message

    async def get_message(self, request: web.Request) -> web.Response:
        self._auth(request)
        channel = self._channel(request)
        return json_response(self._message(request, channel).payload())

    async def edit_message(self, request: web.Request) -> web.Response:
        self._auth(request)
        channel = self._channel(request)
        message = self._message(request, channel)
        if message.author.id != self.server.bot_user.id:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        payload, uploads = await self._body(request)
        self._check_message(payload, uploads, creating=False)
        self._edit(message, payload, uploads)
        return json_response(message.payload())

    async def delete_message(self, request: web.Request) -> web.Response:
        self._auth(request)
        channel = self._channel(request)
        message = self._message(request, channel)
        if message.author.id != self.server.bot_user.id:
            self._require_permissions(channel, Permission.MANAGE_MESSAGES)
        self._delete(message)
        return no_content()

    async def add_reaction(self, request: web.Request) -> web.Response:
        self._auth(request)
        channel = self._channel(request)
        message = self._message(request, channel)
        self._require_permissions(channel, Permission.ADD_REACTIONS | Permission.READ_MESSAGE_HISTORY)
        message.reactions.setdefault(request.match_info["emoji"], set()).add(self.server.bot_user.id)
        return no_content()

    async def remove_reaction(self, request: web.Request) -> web.Response:
        self._auth(request)
        channel = self._channel(request)
        message = self._message(request, channel)
        users = message.reactions.get(request.match_info["emoji"], set())
        users.discard(self.server.bot_user.id)
        if not users:
            message.reactions.pop(request.match_info["emoji"], None)
        return no_content()

    async def create_thread(self, request: web.Request) -> web.Response:
        """POST /channels/{id}/threads (a forum post starts with its `message`) and
        POST /channels/{id}/messages/{mid}/threads (the thread takes the message's id)."""
        self._auth(request)
        parent = self._channel(request)
        from_message = "message_id" in request.match_info
        forum = parent.type == ChannelType.FORUM
        variant = (
            "" if from_message else "CreateForumThreadRequest" if forum else "CreateTextThreadWithoutMessageRequest"
        )
        payload, uploads = await self._body(request, variant)
        if parent.type != ChannelType.TEXT and not (forum and not from_message):
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        private = int(payload.get("type") or ChannelType.PUBLIC_THREAD) == ChannelType.PRIVATE_THREAD
        self._require_permissions(
            parent, Permission.CREATE_PRIVATE_THREADS if private else Permission.CREATE_PUBLIC_THREADS
        )
        name = str(payload.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise form_error([FieldError("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")])
        starter: dict[str, Any] = (payload.get("message") or {}) if forum else {}
        if forum:
            self._check_message(starter, uploads, creating=True, within="message.")
        thread_id = self._message(request, parent).id if from_message else self.server.snowflake()
        duration = int(payload.get("auto_archive_duration") or 1440)
        thread = self.server.add_thread(
            parent, name, private=private, thread_id=thread_id, auto_archive_duration=duration
        )
        answer = thread.payload()
        if forum:  # the starter message shares the thread's id, and Discord returns it with the thread
            starter = dict(starter)
            starter["flags"] = int(starter.get("flags") or 0) & ~MessageFlag.EPHEMERAL
            message = self._new_message(thread, starter, uploads, message_id=thread.id)
            answer = thread.payload() | {"message": message.payload()}
        return json_response(answer, status=201)

    async def thread_member(self, request: web.Request) -> web.Response:
        self._auth(request)
        channel = self._channel(request)
        if not channel.is_thread:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        return no_content()

    # -- guilds -------------------------------------------------------------------------

    def _guild(self, request: web.Request) -> Any:
        self._auth(request)
        guild = self.server.guilds.get(int(request.match_info["guild_id"]))
        if guild is None or self.server.bot_user.id not in guild.members:
            raise DiscordError(404, 10004, "Unknown Guild")
        return guild

    async def get_guild(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        payload = self.server.guild_create_payload(guild, 0)
        for key in ("members", "channels", "threads", "voice_states", "presences", "joined_at", "large"):
            payload.pop(key, None)
        return json_response(payload)

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        channels = [self.server.channels[c] for c in guild.channel_ids]
        return json_response([c.payload() for c in channels if not c.is_thread])

    async def get_guild_roles(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        return json_response([r.payload() for r in guild.roles.values()])

    async def list_members(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        limit = int(request[QUERY_KEY].get("limit", 1))
        after = int(request[QUERY_KEY].get("after", 0))
        members = sorted((m for m in guild.members.values() if m.user.id > after), key=lambda m: m.user.id)
        return json_response([m.payload() for m in members[:limit]])

    async def get_member(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        member = guild.members.get(int(request.match_info["user_id"]))
        if member is None:
            raise DiscordError(404, 10007, "Unknown Member")
        return json_response(member.payload())

    # -- CDN and the catch-all ----------------------------------------------------------

    async def cdn(self, request: web.Request) -> web.Response:
        attachment = self.server.attachments.get(int(request.match_info["attachment_id"]))
        if attachment is None or attachment.dropped is not None:
            return web.Response(status=404, text="Not Found")
        return web.Response(body=attachment.data, content_type=attachment.content_type or "application/octet-stream")

    async def unknown(self, request: web.Request) -> web.Response:
        self.server.record_error(
            "unknown endpoint", "the stand-in does not implement this", request.method, request.path
        )
        return json_response({"message": "404: Not Found", "code": 0}, status=404)
