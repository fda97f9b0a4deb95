"""Acting as a Discord user: slash commands, autocomplete, clicks, selects, modal submits.

Everything a user does is checked the way the Discord client would check it before
sending: the command and its options must exist in what the bot REGISTERED, required
options must be given, choices respected, only visible and enabled components clicked.
A mistake raises `DriverError` in the test (the bot never sees such an interaction).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .clock import HANG_GUARD_S
from .interactions import (
    AUTOCOMPLETE,
    COMMAND,
    COMPONENT,
    MODAL_SUBMIT,
    InteractionFailed,
    InteractionRecord,
    InteractionResult,
)
from .limits import SELECT_TYPES
from .models import Attachment, Channel, Guild, Message, Role, User
from .world import World

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)
GUILD_CONTEXT, BOT_DM_CONTEXT = 0, 1
DEFAULT_TIMEOUT = HANG_GUARD_S


class DriverError(AssertionError):
    """The test asked for something a real Discord user could not do."""


@dataclass(frozen=True)
class FileOption:
    """A file given to an ATTACHMENT option."""

    filename: str
    data: bytes
    content_type: str | None = None


class Player:
    """A human Discord user driven by a test."""

    def __init__(self, server: World, user: User) -> None:
        self.server = server
        self.user = user

    def __repr__(self) -> str:
        return f"<Player {self.user.name} id={self.user.id}>"

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def mention(self) -> str:
        return f"<@{self.user.id}>"

    def dm_channel(self) -> Channel:
        return self.server.dm_channel(self.user)

    def dms(self) -> list[Message]:
        return self.server.dms(self.user)

    # -- actions --------------------------------------------------------------------------

    async def slash(
        self,
        channel: Channel,
        command: str,
        /,
        *,
        options: Mapping[str, Any] | None = None,
        wait: bool = True,
        timeout: float = DEFAULT_TIMEOUT,
        forged: bool = False,
        delivered_late: float = 0.0,
        **kwargs: Any,
    ) -> InteractionResult:
        """Run `/command sub opt:value` (e.g. "cubist lobby new", players=3) and wait for the answer.

        Returns once the user sees something: a message, a modal, an update, or a refusal
        (`result.failed`). A deferral alone is not an answer: it waits for the edit/follow-up.
        With wait=False it returns right after dispatch; use `await result.until_answered()`.
        `forged=True` sends option values as given, unchecked (`players: 2.5`), as a forged
        payload would; `delivered_late` makes the interaction one Discord created that many
        seconds ago (a slow gateway), so the bot sees it after what happened meanwhile.
        """
        values = {**(options or {}), **kwargs}
        data = self._command_data(channel, command, values, focused=None, forged=forged)
        return await self._dispatch(COMMAND, channel, data, None, wait=wait, timeout=timeout, late=delivered_late)

    async def autocomplete(
        self,
        channel: Channel,
        command: str,
        /,
        *,
        option: str,
        value: str,
        options: Mapping[str, Any] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        **kwargs: Any,
    ) -> list[dict[str, Any]]:
        """Type `value` into `option`; returns the bot's choices ({"name", "value"} dicts)."""
        values = {**(options or {}), **kwargs, option: value}
        data = self._command_data(channel, command, values, focused=option)
        result = await self._dispatch(AUTOCOMPLETE, channel, data, None, wait=True, timeout=timeout)
        if result.failed:
            raise InteractionFailed(f"autocomplete refused: {[str(v) for v in result.violations]}")
        return result.choices

    async def click(
        self, message: Message | int, custom_id: str, *, wait: bool = True, timeout: float = DEFAULT_TIMEOUT
    ) -> InteractionResult:
        msg = self._visible_message(message)
        component = self._component(msg, custom_id)
        if component.get("type") != 2:
            raise DriverError(f"{custom_id!r} is not a button")
        if component.get("style") in (5, 6):
            raise DriverError(f"{custom_id!r} is a link/premium button: clicking it sends no interaction")
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._dispatch(COMPONENT, self._channel_of(msg), data, msg, wait=wait, timeout=timeout)

    async def select(
        self,
        message: Message | int,
        custom_id: str,
        values: Sequence[Any],
        *,
        wait: bool = True,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> InteractionResult:
        """Pick `values` in a select (option values for string selects; users/roles/channels otherwise)."""
        msg = self._visible_message(message)
        component = self._component(msg, custom_id)
        ctype = component.get("type")
        if ctype not in SELECT_TYPES:
            raise DriverError(f"{custom_id!r} is not a select menu")
        low, high = int(component.get("min_values", 1)), int(component.get("max_values", 1))
        if not low <= len(values) <= high:
            raise DriverError(f"select {custom_id!r} takes {low}..{high} values, got {len(values)}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": ctype}
        if ctype == 3:
            allowed = [o["value"] for o in component.get("options", [])]
            unknown = [v for v in values if v not in allowed]
            if unknown:
                raise DriverError(f"select {custom_id!r} has no option(s) {unknown}; options: {allowed}")
            data["values"] = list(values)
        else:
            resolved = _Resolved(self.server, self._guild_of(self._channel_of(msg)), self.id)
            data["values"] = [resolved.add(v) for v in values]
            data["resolved"] = resolved.payload()
        return await self._dispatch(COMPONENT, self._channel_of(msg), data, msg, wait=wait, timeout=timeout)

    async def submit_modal(
        self,
        opened: InteractionResult,
        values: Mapping[str, str | Sequence[str]] | None = None,
        *,
        wait: bool = True,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> InteractionResult:
        """Fill the modal the bot opened in `opened` (text input custom_id -> text) and submit it."""
        modal = opened.modal
        record = opened.record
        if record.user.id != self.id:
            raise DriverError("only the user the modal was shown to can submit it")
        if record.modal_submitted:
            raise DriverError("this modal was already submitted")
        given = dict(values or {})
        components = [self._modal_component(c, given) for c in modal.get("components", [])]
        if given:
            raise DriverError(f"modal {modal.get('custom_id')!r} has no input(s) {sorted(given)}")
        record.modal_submitted = True
        data = {"custom_id": modal["custom_id"], "components": [c for c in components if c is not None]}
        source = self.server.messages.get(record.source_message_id) if record.source_message_id else None
        return await self._dispatch(
            MODAL_SUBMIT, record.channel, data, source, wait=wait, timeout=timeout, triggered_by=record
        )

    # -- building interactions ------------------------------------------------------------

    async def _dispatch(
        self,
        kind: int,
        channel: Channel,
        data: dict[str, Any],
        source: Message | None,
        *,
        wait: bool,
        timeout: float,
        triggered_by: InteractionRecord | None = None,
        late: float = 0.0,
    ) -> InteractionResult:
        server = self.server
        interaction_id = server.snowflake.past(late) if late else server.snowflake()
        token = server.new_token()
        payload = self._interaction_payload(interaction_id, token, kind, channel, data, source)
        record = InteractionRecord(
            interaction_id,
            token,
            kind,
            self.user,
            channel,
            server.clock.now(),
            payload,
            source_message_id=source.id if source else None,
            triggered_by=triggered_by,
        )
        server.register_interaction(record)
        server.gateway.dispatch("INTERACTION_CREATE", payload)
        result = InteractionResult(record, server.messages)
        if wait:
            await result.until_answered(timeout)
        return result

    def _interaction_payload(
        self,
        interaction_id: int,
        token: str,
        kind: int,
        channel: Channel,
        data: dict[str, Any],
        source: Message | None,
    ) -> dict[str, Any]:
        server = self.server
        guild = self._guild_of(channel)
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(server.application_id),
            "type": kind,
            "data": data,
            "token": token,
            "version": 1,
            "locale": self.user.locale,
            "app_permissions": str(server.bot_permissions_in(channel)),
            "entitlements": [],
            "attachment_size_limit": server.attachment_limit,
            "channel_id": str(channel.id),
        }
        if guild is not None:
            perms = guild.permissions_of(self.id)
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                guild_locale=guild.locale,
                member=guild.members[self.id].payload(permissions=perms),
                channel=channel.payload(permissions=perms),
                context=GUILD_CONTEXT,
                authorizing_integration_owners={"0": str(guild.id)},
            )
        else:
            payload.update(
                user=self.user.payload(),
                channel=channel.payload(),
                context=BOT_DM_CONTEXT,
                authorizing_integration_owners={"0": "0"},
            )
        if source is not None:
            payload["message"] = source.payload()
        return payload

    def _guild_of(self, channel: Channel) -> Guild | None:
        if channel.guild_id is None:
            if channel.recipient is not None and channel.recipient.id != self.id:
                raise DriverError(f"{self.name} cannot act in another user's DM channel")
            return None
        guild = self.server.guilds[channel.guild_id]
        if self.id not in guild.members:
            raise DriverError(f"{self.name} is not a member of guild {guild.name!r}")
        return guild

    def _channel_of(self, message: Message) -> Channel:
        return self.server.channels[message.channel_id]

    def _find_command(self, channel: Channel, name: str) -> dict[str, Any]:
        guild = self._guild_of(channel)
        scopes: list[int | None] = [guild.id, None] if guild is not None else [None]
        for scope in scopes:
            for command in self.server.commands.get(scope, []):
                if command["name"] == name and command.get("type", 1) == 1:
                    self._check_command_usable(command, guild)
                    return command
        known = sorted({c["name"] for s in scopes for c in self.server.commands.get(s, [])})
        raise DriverError(f"no slash command /{name} registered here; registered: {known}")

    def _check_command_usable(self, command: dict[str, Any], guild: Guild | None) -> None:
        contexts = command.get("contexts")
        if guild is None and (command.get("dm_permission") is False or (contexts and BOT_DM_CONTEXT not in contexts)):
            raise DriverError(f"/{command['name']} is not available in DMs")
        if guild is not None and contexts and GUILD_CONTEXT not in contexts:
            raise DriverError(f"/{command['name']} is not available in servers")
        required = command.get("default_member_permissions")
        if guild is not None and required is not None:
            perms = guild.permissions_of(self.id)
            if perms & int(required) != int(required):
                raise DriverError(f"/{command['name']} is hidden from {self.name} (default_member_permissions)")

    def _command_data(
        self, channel: Channel, path: str, values: dict[str, Any], focused: str | None, *, forged: bool = False
    ) -> dict[str, Any]:
        names = path.strip().lstrip("/").split()
        if not names:
            raise DriverError("empty command")
        command = self._find_command(channel, names[0])
        node, chain = command, []
        for name in names[1:]:
            sub = next(
                (
                    o
                    for o in node.get("options", [])
                    if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) and o["name"] == name
                ),
                None,
            )
            if sub is None:
                raise DriverError(f"/{' '.join(names)}: {name!r} is not a subcommand of {node['name']!r}")
            chain.append(sub)
            node = sub
        if node.get("type") == SUB_COMMAND_GROUP or any(
            o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in node.get("options", [])
        ):
            subs = [o["name"] for o in node.get("options", [])]
            raise DriverError(f"/{' '.join(names)} needs a subcommand: {subs}")
        resolved = _Resolved(self.server, self._guild_of(channel), self.id)
        options = _build_options(node, values, focused, resolved, forged=forged)
        for sub in reversed(chain):
            options = [{"type": sub["type"], "name": sub["name"], "options": options}]
        data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": 1, "options": options}
        if command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        if resolved.payload():
            data["resolved"] = resolved.payload()
        return data

    # -- components and modals --------------------------------------------------------------

    def _visible_message(self, message: Message | int) -> Message:
        mid = message if isinstance(message, int) else message.id
        current = self.server.messages.get(mid)
        if current is None or current.deleted:
            raise DriverError(f"message {mid} does not exist (deleted?)")
        if current.ephemeral and (current.interaction_user is None or current.interaction_user.id != self.id):
            raise DriverError(f"{self.name} cannot see ephemeral message {mid}")
        self._guild_of(self._channel_of(current))
        return current

    @staticmethod
    def _component(message: Message, custom_id: str) -> dict[str, Any]:
        component = message.component(custom_id)
        if component is None:
            raise DriverError(f"message {message.id} has no component {custom_id!r}; it has {message.custom_ids}")
        if component.get("disabled"):
            raise DriverError(f"component {custom_id!r} is disabled")
        return component

    def _modal_component(self, component: dict[str, Any], given: dict[str, Any]) -> dict[str, Any] | None:
        ctype = component.get("type")
        if ctype == 1:
            children = [self._modal_input(c, given) for c in component.get("components", [])]
            return {"type": 1, "components": [c for c in children if c is not None]}
        if ctype == 18:
            inner = self._modal_input(component["component"], given)
            return {"type": 18, "component": inner} if inner is not None else None
        return None  # text displays and other static parts send nothing back

    @staticmethod
    def _modal_input(component: dict[str, Any], given: dict[str, Any]) -> dict[str, Any] | None:
        custom_id = component.get("custom_id")
        if custom_id is None:
            return None
        if component.get("type") == 4:
            value = given.pop(custom_id, component.get("value") or "")
            if not isinstance(value, str):
                raise DriverError(f"text input {custom_id!r} takes a string")
            required = component.get("required", True)
            low, high = int(component.get("min_length") or 0), int(component.get("max_length") or 4000)
            if (required and not value) or (value and not low <= len(value) <= high):
                raise DriverError(f"text input {custom_id!r} needs {low}..{high} characters (required={required})")
            return {"type": 4, "custom_id": custom_id, "value": value}
        if component.get("type") == 3:
            chosen = list(given.pop(custom_id, []))
            allowed = [o["value"] for o in component.get("options", [])]
            if any(v not in allowed for v in chosen):
                raise DriverError(f"select {custom_id!r} options are {allowed}, got {chosen}")
            return {"type": 3, "custom_id": custom_id, "values": chosen}
        raise DriverError(f"modal component type {component.get('type')} is not supported by the driver")


class _Resolved:
    """Collects the `resolved` users/members/roles/channels/attachments of an interaction."""

    def __init__(self, server: World, guild: Guild | None, user_id: int) -> None:
        self.server = server
        self.guild = guild
        self.user_id = user_id
        self.data: dict[str, dict[str, Any]] = {}

    def add(self, value: Any) -> str:
        if isinstance(value, Player):
            value = value.user
        if isinstance(value, User):
            self.data.setdefault("users", {})[str(value.id)] = value.payload()
            if self.guild is not None and value.id in self.guild.members:
                member = self.guild.members[value.id].payload(permissions=self.guild.permissions_of(value.id))
                member.pop("user")
                self.data.setdefault("members", {})[str(value.id)] = member
            return str(value.id)
        if isinstance(value, Role):
            self.data.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        if isinstance(value, Channel):
            self.data.setdefault("channels", {})[str(value.id)] = value.payload(
                permissions=self.guild.permissions_of(self.user_id) if self.guild else None
            )
            return str(value.id)
        if isinstance(value, FileOption):
            aid = self.server.snowflake()
            attachment = Attachment(
                aid,
                value.filename,
                value.data,
                url=f"{self.server.url}/attachments/0/{aid}/{value.filename}",
                content_type=value.content_type,
                ephemeral=True,
            )
            self.server.attachments[aid] = attachment
            self.data.setdefault("attachments", {})[str(aid)] = attachment.payload()
            return str(aid)
        raise DriverError(f"cannot use {value!r} as a user/role/channel/attachment")

    def payload(self) -> dict[str, Any]:
        return self.data


def _build_options(
    node: dict[str, Any], values: dict[str, Any], focused: str | None, resolved: _Resolved, *, forged: bool = False
) -> list[dict[str, Any]]:
    defined = {o["name"]: o for o in node.get("options", [])}
    unknown = [name for name in values if name not in defined]
    if unknown:
        raise DriverError(f"/{node['name']} has no option(s) {unknown}; options: {list(defined)}")
    out: list[dict[str, Any]] = []
    for name, spec in defined.items():
        if name not in values or values[name] is None:
            if spec.get("required") and focused is None:
                raise DriverError(f"/{node['name']}: option {name!r} is required")
            continue
        if name == focused:
            if not spec.get("autocomplete"):
                raise DriverError(f"/{node['name']}: option {name!r} has no autocomplete")
            out.append({"type": spec["type"], "name": name, "value": str(values[name]), "focused": True})
            continue
        value = values[name] if forged else _option_value(spec, values[name], resolved)
        out.append({"type": spec["type"], "name": name, "value": value})
    return out


def _option_value(spec: dict[str, Any], value: Any, resolved: _Resolved) -> Any:
    name, otype = spec["name"], spec["type"]
    if otype == STRING:
        if not isinstance(value, str):
            raise DriverError(f"option {name!r} takes a string, got {value!r}")
        low, high = int(spec.get("min_length") or 0), int(spec.get("max_length") or 6000)
        if not low <= len(value) <= high:
            raise DriverError(f"option {name!r} must be {low}..{high} characters")
    elif otype in (INTEGER, NUMBER):
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or (otype == INTEGER and not isinstance(value, int))
        ):
            raise DriverError(
                f"option {name!r} takes {'an integer' if otype == INTEGER else 'a number'}, got {value!r}"
            )
        if spec.get("min_value") is not None and value < spec["min_value"]:
            raise DriverError(f"option {name!r} must be >= {spec['min_value']}")
        if spec.get("max_value") is not None and value > spec["max_value"]:
            raise DriverError(f"option {name!r} must be <= {spec['max_value']}")
    elif otype == BOOLEAN:
        if not isinstance(value, bool):
            raise DriverError(f"option {name!r} takes True/False, got {value!r}")
    elif otype in (USER, CHANNEL, ROLE, MENTIONABLE, ATTACHMENT):
        types = spec.get("channel_types")
        if otype == CHANNEL and types and isinstance(value, Channel) and value.type not in types:
            raise DriverError(f"option {name!r} accepts channel types {spec['channel_types']}")
        return resolved.add(value)
    choices = spec.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise DriverError(f"option {name!r} must be one of {[c['value'] for c in choices]}, got {value!r}")
    return value
