"""Probes: requests Discord refuses are refused by the stand-in with Discord's error shape
(400, code 50035 "Invalid Form Body", nested field `errors`) and recorded as violations; the
valid form next to each is accepted. The cases are the ones listed in issue 20."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Callable
from typing import Any

import aiohttp
import pytest

from standin import StandIn
from standin.documented import command_characters
from standin.interactions import AUTOCOMPLETE, COMMAND, InteractionRecord
from standin.schema import check_response

Body = dict[str, Any]


async def call(standin: StandIn, method: str, path: str, body: Any = None, form: Any = None) -> tuple[int, Any]:
    headers = {"Authorization": f"Bot {standin.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, f"{standin.url}/api/v10{path}", json=body, data=form, headers=headers) as response,
    ):
        return response.status, (await response.json() if response.status != 204 else None)


async def accepted(
    standin: StandIn, method: str, path: str, body: Any = None, form: Any = None, status: int = 200
) -> Any:
    """A call that must succeed with ``status``: its answer."""
    got, answer = await call(standin, method, path, body, form)
    assert got == status, answer
    return answer


def assert_refused(standin: StandIn, status: int, answer: Any, field: str) -> None:
    """Discord's shape: 400, 50035, and `errors` nested along the field's path ending in `_errors`."""
    assert status == 400, answer
    assert answer["code"] == 50035 and answer["message"] == "Invalid Form Body"
    node = answer["errors"]
    for part in field.split("."):
        assert part in node, f"no {part!r} on the way to {field} in {answer['errors']}"
        node = node[part]
    assert node["_errors"] and all({"code", "message"} <= set(e) for e in node["_errors"])
    [violation] = standin.take_violations()
    assert violation.code == 50035 and field in [d.path for d in violation.details]


# -- messages ---------------------------------------------------------------------------

BUTTON = {"type": 2, "style": 1, "label": "Roll", "custom_id": "probe:roll"}
SELECT = {
    "type": 3,
    "custom_id": "probe:pick",
    "options": [{"label": "Red", "value": "red"}, {"label": "Blue", "value": "blue"}],
    "min_values": 1,
    "max_values": 2,
}
MESSAGE: Body = {
    "content": "probe",
    "tts": False,
    "nonce": "n" * 25,
    "embeds": [
        {
            "title": "t",
            "color": 16777215,
            "timestamp": "2026-11-23T20:00:00+00:00",
            "fields": [{"name": "n", "value": "v"}],
        }
    ],
    "components": [{"type": 1, "components": [BUTTON]}, {"type": 1, "components": [SELECT]}],
    "allowed_mentions": {"parse": ["users"]},
    "sticker_ids": ["1", "2", "3"],
}


def edit(path: str, value: Any) -> Callable[[Body], Body]:
    """A copy of the body with the value at a dotted path set (or deleted when value is DELETE)."""

    def apply(body: Body) -> Body:
        out = copy.deepcopy(body)
        *parents, last = path.split(".")
        node: Any = out
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        key: Any = int(last) if isinstance(node, list) else last
        if value is DELETE:
            del node[key]
        else:
            node[key] = value
        return out

    return apply


DELETE = object()

MESSAGE_CASES = [
    ("button without style", edit("components.0.components.0.style", DELETE), "components.0.components.0.style"),
    ("button style 9", edit("components.0.components.0.style", 9), "components.0.components.0.style"),
    (
        "button with custom_id and url",
        edit("components.0.components.0.url", "https://example.com"),
        "components.0.components.0.url",
    ),
    (
        "link button with custom_id",
        edit("components.0.components.0", BUTTON | {"style": 5, "url": "https://e.com"}),
        "components.0.components.0.custom_id",
    ),
    ("component type 99", edit("components.0.components.0.type", 99), "components.0.components.0.type"),
    ("top-level component type 99", edit("components.1", {"type": 99}), "components.1.type"),
    (
        "select option without value",
        edit("components.1.components.0.options.0.value", DELETE),
        "components.1.components.0.options.0.value",
    ),
    ("select max_values 0", edit("components.1.components.0.max_values", 0), "components.1.components.0.max_values"),
    ("select min_values -1", edit("components.1.components.0.min_values", -1), "components.1.components.0.min_values"),
    ("embed field without value", edit("embeds.0.fields.0.value", DELETE), "embeds.0.fields.0.value"),
    ("embed colour 16777216", edit("embeds.0.color", 16777216), "embeds.0.color"),
    ("embed timestamp 'yesterday'", edit("embeds.0.timestamp", "yesterday"), "embeds.0.timestamp"),
    ("4 sticker ids", edit("sticker_ids", ["1", "2", "3", "4"]), "sticker_ids"),
    ("unknown allowed_mentions value", edit("allowed_mentions.parse", ["everybody"]), "allowed_mentions.parse.0"),
    ("26-character nonce", edit("nonce", "n" * 26), "nonce"),
    ("tts 'yes'", edit("tts", "yes"), "tts"),
    ("content of 2,001 characters", edit("content", "c" * 2001), "content"),
]


async def test_the_valid_message_is_accepted(standin: StandIn, world: Any) -> None:
    _, channel, _, _ = world
    await accepted(standin, "POST", f"/channels/{channel.id}/messages", MESSAGE)
    assert standin.last_message(channel).content == "probe"


@pytest.mark.parametrize(("case", "change", "field"), MESSAGE_CASES, ids=[c[0] for c in MESSAGE_CASES])
async def test_invalid_message_is_refused(standin: StandIn, world: Any, case: str, change: Any, field: str) -> None:
    _, channel, _, _ = world
    status, answer = await call(standin, "POST", f"/channels/{channel.id}/messages", change(MESSAGE))
    assert_refused(standin, status, answer, field)
    assert standin.channel_messages(channel) == []


async def test_invalid_payload_json_in_multipart_is_refused(standin: StandIn, world: Any) -> None:
    _, channel, _, _ = world
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps({"content": "x", "tts": "yes"}), content_type="application/json")
    form.add_field("files[0]", b"data", filename="a.txt")
    status, answer = await call(standin, "POST", f"/channels/{channel.id}/messages", form=form)
    assert_refused(standin, status, answer, "tts")


async def test_file_part_without_filename_is_refused(standin: StandIn, world: Any) -> None:
    _, channel, _, _ = world
    for disposition, accepted in (
        ('form-data; name="files[0]"; filename="a.txt"', True),
        ('form-data; name="files[0]"', False),
    ):
        with aiohttp.MultipartWriter("form-data") as form:
            form.append_json({"content": "file"}).set_content_disposition("form-data", name="payload_json")
            part = form.append(b"data", {"Content-Type": "text/plain"})
            part.headers["Content-Disposition"] = disposition
        status, answer = await call(standin, "POST", f"/channels/{channel.id}/messages", form=form)
        if accepted:
            assert status == 200, answer
        else:
            assert_refused(standin, status, answer, "files[0]")


async def test_request_over_25_mib_is_refused(standin: StandIn, world: Any) -> None:
    _, channel, _, _ = world
    standin.keep_uploads = False
    for parts, accepted in ((2, True), (3, False)):  # 2 x 9 MiB = 18 MiB; 3 x 9 MiB = 27 MiB
        form = aiohttp.FormData(quote_fields=False)
        form.add_field("payload_json", '{"content": "big"}', content_type="application/json")
        for i in range(parts):
            form.add_field(f"files[{i}]", b"\0" * (9 * 1024 * 1024), filename=f"{i}.bin")
        status, answer = await call(standin, "POST", f"/channels/{channel.id}/messages", form=form)
        if accepted:
            assert status == 200, answer
        else:
            assert (status, answer["code"]) == (413, 40005)
            [violation] = standin.take_violations()
            assert violation.code == 40005


# -- interaction callbacks --------------------------------------------------------------


def open_interaction(standin: StandIn, world: Any, kind: int) -> InteractionRecord:
    """An interaction as if the stand-in had just sent it (no bot needed to probe the callback)."""
    _, channel, alice, _ = world
    record = InteractionRecord(
        standin.snowflake(), standin.new_token(), kind, alice.user, channel, standin.clock.now(), {}
    )
    standin.register_interaction(record)
    return record


MODAL: Body = {
    "type": 9,
    "data": {
        "custom_id": "probe:modal",
        "title": "Name",
        "components": [
            {
                "type": 1,
                "components": [
                    {
                        "type": 4,
                        "custom_id": "name",
                        "label": "Name",
                        "style": 1,
                        "placeholder": "p" * 100,
                        "max_length": 4000,
                    },
                ],
            }
        ],
    },
}
AUTOCOMPLETE_BODY: Body = {"type": 8, "data": {"choices": [{"name": "a", "value": "a"}]}}
CALLBACK_CASES = [
    (
        "modal placeholder of 101",
        COMMAND,
        MODAL,
        edit("data.components.0.components.0.placeholder", "p" * 101),
        "data.components.0.components.0.placeholder",
    ),
    (
        "modal max_length 4001",
        COMMAND,
        MODAL,
        edit("data.components.0.components.0.max_length", 4001),
        "data.components.0.components.0.max_length",
    ),
    (
        "autocomplete choice without value",
        AUTOCOMPLETE,
        AUTOCOMPLETE_BODY,
        edit("data.choices.0.value", DELETE),
        "data.choices.0.value",
    ),
    (
        "autocomplete choice value of 101",
        AUTOCOMPLETE,
        AUTOCOMPLETE_BODY,
        edit("data.choices.0.value", "v" * 101),
        "data.choices.0.value",
    ),
]


@pytest.mark.parametrize(
    ("case", "kind", "valid", "change", "field"), CALLBACK_CASES, ids=[c[0] for c in CALLBACK_CASES]
)
async def test_invalid_callback_is_refused_and_the_valid_one_accepted(
    standin: StandIn, world: Any, case: str, kind: int, valid: Body, change: Any, field: str
) -> None:
    record = open_interaction(standin, world, kind)
    path = f"/interactions/{record.id}/{record.token}/callback"
    status, answer = await call(standin, "POST", path, change(valid))
    assert_refused(standin, status, answer, field)
    assert record.rejected and not record.acknowledged
    await accepted(standin, "POST", path, valid, status=204)
    assert record.acknowledged


# -- command definitions ----------------------------------------------------------------

COMMAND_DEF: Body = {
    "name": "cubist",
    "description": "Play Cubist",
    "name_localizations": {"fr": "cubiste", "hi": "क्यूबिस्ट"},
    "description_localizations": {"fr": "Jouer à Cubist", "hi": "क्यूबिस्ट खेलें"},
    "options": [
        {
            "type": 3,
            "name": "topic",
            "description": "What to read",
            "name_localizations": {"fr": "sujet"},
            "choices": [{"name": "Turn", "value": "turn", "name_localizations": {"fr": "Tour"}}],
        },
        {
            "type": 4,
            "name": "players",
            "description": "How many",
            "name_localizations": {"fr": "joueurs"},
            "choices": [{"name": "two", "value": 2}],
        },
        {"type": 3, "name": "move", "description": "The move", "autocomplete": True},
    ],
}
COMMAND_CASES = [
    ("choice name of 101", edit("options.0.choices.0.name", "n" * 101), "0.options.0.choices.0.name"),
    ("string choice value of 101", edit("options.0.choices.0.value", "v" * 101), "0.options.0.choices.0.value"),
    ("integer choice 'abc'", edit("options.1.choices.0.value", "abc"), "0.options.1.choices.0.value"),
    ("option type 99", edit("options.2.type", 99), "0.options.2.type"),
    ("autocomplete with choices", edit("options.0.autocomplete", True), "0.options.0.autocomplete"),
    ("locale key xx", edit("name_localizations.xx", "cubist"), "0.name_localizations.xx"),
    ("locale key fr-FR", edit("description_localizations.fr-FR", "Jouer"), "0.description_localizations.fr-FR"),
    ("upper-case localized name", edit("name_localizations.fr", "Cubiste"), "0.name_localizations.fr"),
    ("33-character localized name", edit("name_localizations.fr", "c" * 33), "0.name_localizations.fr"),
    ("upper-case name", edit("name", "Cubist"), "0.name"),
    ("name with a space", edit("options.0.name", "the topic"), "0.options.0.name"),
    ("empty localized description", edit("description_localizations.fr", ""), "0.description_localizations.fr"),
    ("localized description of 101", edit("description_localizations.fr", "d" * 101), "0.description_localizations.fr"),
    (
        "clashing localized option names",
        edit("options.1.name_localizations.fr", "sujet"),
        "0.options.1.name_localizations.fr",
    ),
    ("26 options", edit("options", [{"type": 5, "name": f"o{i}", "description": "d"} for i in range(26)]), "0.options"),
    (
        "choice name localized with locale xx",
        edit("options.0.choices.0.name_localizations.xx", "x"),
        "0.options.0.choices.0.name_localizations.xx",
    ),
]


async def put_commands(standin: StandIn, commands: list[Body]) -> tuple[int, Any]:
    return await call(standin, "PUT", f"/applications/{standin.application_id}/commands", commands)


async def test_the_valid_command_is_accepted_with_hindi_and_thai_names(standin: StandIn) -> None:
    hindi_thai = edit("options.2.name_localizations", {"hi": "चाल", "th": "เดินหมาก", "ja": "手"})(COMMAND_DEF)
    status, answer = await put_commands(standin, [hindi_thai])
    assert status == 200, answer
    assert standin.registered_commands()[0]["options"][2]["name_localizations"]["hi"] == "चाल"


@pytest.mark.parametrize(("case", "change", "field"), COMMAND_CASES, ids=[c[0] for c in COMMAND_CASES])
async def test_invalid_command_definition_is_refused(standin: StandIn, case: str, change: Any, field: str) -> None:
    status, answer = await put_commands(standin, [change(COMMAND_DEF)])
    assert_refused(standin, status, answer, field)
    assert standin.registered_commands() == []


async def test_command_over_8000_characters_is_refused(standin: StandIn) -> None:
    def sized(description: str) -> Body:
        options = [
            {
                "type": 3,
                "name": f"o{i}",
                "description": description,
                "choices": [{"name": f"c{j}", "value": "v" * 100} for j in range(25)],
            }
            for i in range(3)
        ]
        return {"name": "big", "description": "d", "options": options}

    fits, over = sized("d" * 10), sized("d" * 100)
    assert command_characters(fits) <= 8000 < command_characters(over)
    status, answer = await put_commands(standin, [fits])
    assert status == 200, answer
    status, answer = await put_commands(standin, [over])
    assert_refused(standin, status, answer, "0")


def test_the_budget_counts_the_longest_localization_of_each_field() -> None:
    command = {
        "name": "ab",
        "name_localizations": {"fr": "abcd"},
        "description": "12345",
        "description_localizations": {"fr": "123"},
        "options": [{"type": 3, "name": "x", "description": "y", "choices": [{"name": "n", "value": "vv"}]}],
    }
    assert command_characters(command) == 4 + 5 + 1 + 1 + 1 + 2


# -- the stand-in's own answers ---------------------------------------------------------


def test_answers_are_checked_against_the_response_schema() -> None:
    server = StandIn()
    me = server.bot_user.payload() | {"verified": True, "mfa_enabled": False, "locale": "en-US"}
    assert check_response("GET", "/users/@me", 200, me) == []
    assert check_response("GET", "/users/@me", 200, {k: v for k, v in me.items() if k != "locale"}) == [
        "locale: BASE_TYPE_REQUIRED This field is required"
    ]
    assert check_response("GET", "/oauth2/applications/@me", 200, server.application_payload()) == []


async def test_a_recorded_message_answers_with_discords_required_fields(standin: StandIn, world: Any) -> None:
    _, channel, _, _ = world
    status, answer = await call(standin, "POST", f"/channels/{channel.id}/messages", MESSAGE)
    assert status == 200
    assert check_response("POST", "/channels/{channel_id}/messages", 200, answer) == []
    assert [c["id"] for c in answer["components"]] == [1, 3]  # Discord numbers components depth first
    assert answer["embeds"][0]["type"] == "rich" and answer["embeds"][0]["fields"][0]["inline"] is False


# -- valid edge cases and integers sent as strings (issue 28) -----------------------------
# A false refusal is as much a defect as a false acceptance: each limit is probed at the
# value Discord accepts and one past it. Discord's API takes a string that parses as an
# integer wherever the spec types an integer (the spec's README), never "4.5" or "abc".

V2 = 1 << 15  # IS_COMPONENTS_V2
SUPPRESS_EMBEDS = 1 << 2
EPHEMERAL = 1 << 6


def button_rows(rows: int, per_row: int, label: str) -> list[Body]:
    return [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 1, "label": label, "custom_id": f"probe:{r}:{b}"} for b in range(per_row)
            ],
        }
        for r in range(rows)
    ]


def select_row(options: int, max_values: Any = 25) -> list[Body]:
    choices = [{"label": f"Option {i}", "value": f"v{i}", "description": "d" * 100} for i in range(options)]
    picker = {"type": 3, "custom_id": "probe:pick", "options": choices, "max_values": max_values}
    return [{"type": 1, "components": [picker]}]


def layout(extra: int = 0) -> list[Body]:
    """What discord.py's LayoutView sends for 40 components counting nested ones, `extra` text
    displays more appended by hand (the library itself refuses a 41st)."""
    import discord

    view = discord.ui.LayoutView()
    container: Any = discord.ui.Container(accent_colour=discord.Colour(0x3366CC))
    container.add_item(discord.ui.TextDisplay("# Cubist"))
    container.add_item(discord.ui.Separator())
    row: Any = discord.ui.ActionRow()
    for i in range(5):
        row.add_item(discord.ui.Button(label="b" * 80, custom_id=f"probe:v2:{i}"))
    container.add_item(row)
    go = discord.ui.Button(label="Go", custom_id="probe:v2:go")
    container.add_item(discord.ui.Section("one", "two", "three", accessory=go))
    view.add_item(container)  # container 1, text 1, separator 1, row 1 + 5, section 1 + 3 + 1: 14
    while len(list(view.walk_children())) < 40:
        view.add_item(discord.ui.TextDisplay("t"))
    return view.to_components() + [{"type": 10, "content": f"extra {i}"} for i in range(extra)]


def nested_count(components: list[Any]) -> int:
    total = 0
    for c in components:
        total += 1 + nested_count(c.get("components") or []) + (1 if c.get("accessory") else 0)
    return total


# (case, body, the refused field or None when Discord accepts it)
EDGE_CASES: list[tuple[str, Body, str | None]] = [
    ("content of 2,000 characters", {"content": "c" * 2000}, None),
    ("content of 2,001 characters", {"content": "c" * 2001}, "content"),
    ("5 rows of 5 buttons with 80-character labels", {"components": button_rows(5, 5, "l" * 80)}, None),
    (
        "an 81-character button label",
        edit("components.4.components.4.label", "l" * 81)({"components": button_rows(5, 5, "l" * 80)}),
        "components.4.components.4.label",
    ),
    ("6 action rows", {"components": button_rows(6, 1, "l")}, "components"),
    ("6 buttons in a row", {"components": button_rows(1, 6, "l")}, "components.0.components"),
    ("a select with 25 options", {"content": "pick", "components": select_row(25)}, None),
    (
        "a select with 26 options",
        {"content": "pick", "components": select_row(26)},
        "components.0.components.0.options",
    ),
    ("40 layout components counting nested ones", {"flags": V2, "components": layout()}, None),
    ("41 layout components counting nested ones", {"flags": V2, "components": layout(extra=1)}, "components"),
    # integers as strings
    ("flags '4' (suppress embeds)", {"content": "quiet", "flags": "4"}, None),
    ("flags '32768' (components v2)", {"flags": str(V2), "components": layout()}, None),
    (
        "component type and style as strings",
        {"components": [{"type": "1", "components": [BUTTON | {"type": "2", "style": "1"}]}]},
        None,
    ),
    ("select max_values '25'", {"content": "pick", "components": select_row(25, "25")}, None),
    (
        "select max_values '26'",
        {"content": "pick", "components": select_row(25, "26")},
        "components.0.components.0.max_values",
    ),
    ("flags '4.5'", {"content": "x", "flags": "4.5"}, "flags"),
    ("flags 'abc'", {"content": "x", "flags": "abc"}, "flags"),
    ("flags ''", {"content": "x", "flags": ""}, "flags"),
    (
        "button style '1.0'",
        {"components": [{"type": 1, "components": [BUTTON | {"style": "1.0"}]}]},
        "components.0.components.0.style",
    ),
    ("embed colour '16777216'", {"embeds": [{"title": "t", "color": "16777216"}]}, "embeds.0.color"),
]


def test_the_layout_probe_holds_40_components() -> None:
    assert nested_count(layout()) == 40 and nested_count(layout(extra=1)) == 41


@pytest.mark.parametrize(("case", "body", "field"), EDGE_CASES, ids=[c[0] for c in EDGE_CASES])
async def test_message_edge_case(standin: StandIn, world: Any, case: str, body: Body, field: str | None) -> None:
    _, channel, _, _ = world
    status, answer = await call(standin, "POST", f"/channels/{channel.id}/messages", body)
    if field is not None:
        assert_refused(standin, status, answer, field)
        assert standin.channel_messages(channel) == []
        return
    assert status == 200, answer
    message = standin.last_message(channel)
    assert message.content == body.get("content", "")
    assert message.flags == int(body.get("flags") or 0)  # the number, not the string
    assert nested_count(answer["components"]) == nested_count(body.get("components") or [])
    assert all(isinstance(c["type"], int) for c in answer["components"])


async def test_integer_strings_in_multipart_payload_json(standin: StandIn, world: Any) -> None:
    _, channel, _, _ = world
    for flags, accepted in (("4", True), ("4.5", False)):
        form = aiohttp.FormData(quote_fields=False)
        form.add_field("payload_json", json.dumps({"content": "file", "flags": flags}), content_type="application/json")
        form.add_field("files[0]", b"data", filename="a.txt")
        status, answer = await call(standin, "POST", f"/channels/{channel.id}/messages", form=form)
        if accepted:
            assert status == 200, answer
            assert answer["flags"] == SUPPRESS_EMBEDS and standin.last_message(channel).flags == SUPPRESS_EMBEDS
        else:
            assert_refused(standin, status, answer, "flags")


async def test_message_edit_with_flags_as_a_string(standin: StandIn, world: Any) -> None:
    _, channel, _, _ = world
    answer = await accepted(standin, "POST", f"/channels/{channel.id}/messages", {"content": "x"})
    path = f"/channels/{channel.id}/messages/{answer['id']}"
    answer = await accepted(standin, "PATCH", path, {"flags": "4"})
    assert answer["flags"] == SUPPRESS_EMBEDS


CALLBACK_STRING_CASES: list[tuple[str, Body, str | None]] = [
    ("data.flags '64' (ephemeral)", {"type": 4, "data": {"content": "secret", "flags": "64"}}, None),
    ("type '4' and data.flags '64'", {"type": "4", "data": {"content": "secret", "flags": "64"}}, None),
    ("deferred with data.flags '64'", {"type": 5, "data": {"flags": "64"}}, None),
    ("data.flags '6.4'", {"type": 4, "data": {"content": "secret", "flags": "6.4"}}, "data.flags"),
    ("data.flags 'ephemeral'", {"type": 4, "data": {"content": "secret", "flags": "ephemeral"}}, "data.flags"),
]


@pytest.mark.parametrize(("case", "body", "field"), CALLBACK_STRING_CASES, ids=[c[0] for c in CALLBACK_STRING_CASES])
async def test_callback_with_integers_as_strings(
    standin: StandIn, world: Any, case: str, body: Body, field: str | None
) -> None:
    record = open_interaction(standin, world, COMMAND)
    status, answer = await call(standin, "POST", f"/interactions/{record.id}/{record.token}/callback", body)
    if field is not None:
        assert_refused(standin, status, answer, field)
        assert not record.acknowledged
        return
    assert status == 204, answer
    message = standin.messages[record.original_message_id or 0]
    assert message.ephemeral and message.flags & EPHEMERAL
    assert message.loading == (int(body["type"]) == 5)


PERMISSION_CASES: list[tuple[str, Any, str | None]] = [
    ("default_member_permissions '32'", "32", "32"),
    ("default_member_permissions 32", 32, "32"),
    ("default_member_permissions '0'", "0", "0"),
    ("default_member_permissions '3.2'", "3.2", None),
    ("default_member_permissions 'manage'", "manage", None),
]


@pytest.mark.parametrize(("case", "value", "stored"), PERMISSION_CASES, ids=[c[0] for c in PERMISSION_CASES])
async def test_default_member_permissions_as_a_string(
    standin: StandIn, case: str, value: Any, stored: str | None
) -> None:
    status, answer = await put_commands(standin, [COMMAND_DEF | {"default_member_permissions": value}])
    if stored is None:
        assert_refused(standin, status, answer, "0.default_member_permissions")
        return
    assert status == 200, answer
    # Discord answers permissions as strings whatever form they were sent in.
    assert answer[0]["default_member_permissions"] == stored
    assert standin.registered_commands()[0]["default_member_permissions"] == stored


async def test_option_types_as_strings_are_the_numbers(standin: StandIn) -> None:
    command = edit("options.1.type", "4")(edit("options.1.choices.0.value", "2")(COMMAND_DEF))
    status, answer = await put_commands(standin, [command])
    assert status == 200, answer
    option = standin.registered_commands()[0]["options"][1]
    assert option["type"] == 4 and option["choices"][0]["value"] == 2


# -- query parameters ---------------------------------------------------------------------
# Boolean query strings: Discord takes True, true, 1 and False, false, 0 (API reference,
# "Boolean Query Strings"); the spec types `wait` and `with_response` as booleans.

TRUE, FALSE = ("true", "True", "1"), ("false", "False", "0")


async def acknowledged(standin: StandIn, world: Any) -> InteractionRecord:
    record = open_interaction(standin, world, COMMAND)
    status, _ = await call(standin, "POST", f"/interactions/{record.id}/{record.token}/callback", {"type": 5})
    assert status == 204
    return record


@pytest.mark.parametrize("wait", TRUE + FALSE)
async def test_webhook_wait_takes_discords_booleans(standin: StandIn, world: Any, wait: str) -> None:
    record = await acknowledged(standin, world)
    path = f"/webhooks/{standin.application_id}/{record.token}?wait={wait}"
    status, answer = await call(standin, "POST", path, {"content": "follow-up"})
    if wait in TRUE:
        assert status == 200 and answer["content"] == "follow-up"
    else:
        assert (status, answer) == (204, None)


@pytest.mark.parametrize(
    ("query", "field"), [("wait=maybe", "wait"), ("wait=", "wait"), ("thread_id=abc", "thread_id")]
)
async def test_webhook_query_outside_the_spec_is_refused(standin: StandIn, world: Any, query: str, field: str) -> None:
    record = await acknowledged(standin, world)
    path = f"/webhooks/{standin.application_id}/{record.token}?{query}"
    status, answer = await call(standin, "POST", path, {"content": "follow-up"})
    assert_refused(standin, status, answer, field)
    assert record.followup_ids == [] and record.rejected


@pytest.mark.parametrize(("with_response", "accepted"), [("True", True), ("0", True), ("yes", False)])
async def test_callback_with_response_takes_discords_booleans(
    standin: StandIn, world: Any, with_response: str, accepted: bool
) -> None:
    record = open_interaction(standin, world, COMMAND)
    path = f"/interactions/{record.id}/{record.token}/callback?with_response={with_response}"
    status, answer = await call(standin, "POST", path, {"type": 4, "data": {"content": "hi"}})
    if not accepted:
        assert_refused(standin, status, answer, "with_response")
        assert not record.acknowledged
    elif with_response == "True":
        assert status == 200 and answer["resource"]["message"]["content"] == "hi"
    else:
        assert (status, answer) == (204, None)


@pytest.mark.parametrize(
    ("query", "field"), [("limit=100", None), ("limit=abc", "limit"), ("limit=101", "limit"), ("before=x1", "before")]
)
async def test_message_history_query_against_the_spec(
    standin: StandIn, world: Any, query: str, field: str | None
) -> None:
    _, channel, _, _ = world
    status, answer = await call(standin, "GET", f"/channels/{channel.id}/messages?{query}")
    if field is None:
        assert (status, answer) == (200, [])
    else:
        assert_refused(standin, status, answer, field)


# -- threads ------------------------------------------------------------------------------


async def test_thread_without_a_message(standin: StandIn, world: Any) -> None:
    _, channel, _, _ = world
    body = {"name": "game-2", "type": "12", "auto_archive_duration": 60, "invitable": False, "rate_limit_per_user": "5"}
    answer = await accepted(standin, "POST", f"/channels/{channel.id}/threads", body, status=201)
    assert answer["type"] == 12 and answer["parent_id"] == str(channel.id)
    assert answer["thread_metadata"]["auto_archive_duration"] == 60
    status, answer = await call(standin, "POST", f"/channels/{channel.id}/threads", {"name": ""})
    assert_refused(standin, status, answer, "name")


async def test_forum_thread_with_a_message(standin: StandIn, world: Any) -> None:
    guild, _, _, _ = world
    forum = standin.add_channel(guild, "games-forum", forum=True)
    body = {
        "name": "game-3",
        "auto_archive_duration": 1440,
        "message": {"content": "c" * 2000, "components": button_rows(5, 5, "l" * 80), "flags": "4"},
    }
    answer = await accepted(standin, "POST", f"/channels/{forum.id}/threads", body, status=201)
    assert answer["parent_id"] == str(forum.id) and answer["message"]["id"] == answer["id"]
    thread = standin.channels[int(answer["id"])]
    starter = standin.last_message(thread)
    assert starter.content == "c" * 2000 and starter.flags == SUPPRESS_EMBEDS
    too_long = edit("message.content", "c" * 2001)(body)
    status, answer = await call(standin, "POST", f"/channels/{forum.id}/threads", too_long)
    assert_refused(standin, status, answer, "message.content")
    status, answer = await call(standin, "POST", f"/channels/{forum.id}/threads", {"name": "no starter"})
    assert_refused(standin, status, answer, "message")


async def test_thread_from_a_message(standin: StandIn, world: Any) -> None:
    _, channel, _, _ = world
    posted = await accepted(standin, "POST", f"/channels/{channel.id}/messages", {"content": "lobby"})
    path = f"/channels/{channel.id}/messages/{posted['id']}/threads"
    answer = await accepted(standin, "POST", path, {"name": "game-4", "auto_archive_duration": "4320"}, status=201)
    assert answer["id"] == posted["id"] and answer["type"] == 11
    assert answer["thread_metadata"]["auto_archive_duration"] == 4320
    channels = len(standin.channels)
    status, answer = await call(standin, "POST", path.replace(posted["id"], "1"), {"name": "nothing"})
    assert (status, answer["code"]) == (404, 10008)
    assert len(standin.channels) == channels  # no thread left behind for the unknown message


async def test_thread_archived_and_locked(standin: StandIn, world: Any) -> None:
    _, channel, _, _ = world
    thread = standin.add_thread(channel, "game-5")
    answer = await accepted(standin, "PATCH", f"/channels/{thread.id}", {"archived": True, "locked": True})
    assert answer["thread_metadata"]["archived"] is True and answer["thread_metadata"]["locked"] is True
    answer = await accepted(standin, "PATCH", f"/channels/{thread.id}", {"archived": False, "locked": False})
    assert answer["thread_metadata"]["archived"] is False and answer["thread_metadata"]["locked"] is False
    status, answer = await call(standin, "PATCH", f"/channels/{thread.id}", {"archived": "yes"})
    assert_refused(standin, status, answer, "archived")


async def test_discord_py_threads_forum_posts_and_layouts_are_accepted(standin: StandIn, bot: Any, world: Any) -> None:
    """The same bodies as discord.py 2.7 itself sends them, through the real client."""
    import discord

    guild, channel, _, _ = world
    text = bot.get_channel(channel.id)
    lobby = await text.send("lobby")
    thread = await lobby.create_thread(name="game-6", auto_archive_duration=10080)
    assert thread.id == lobby.id and thread.auto_archive_duration == 10080
    thread = await thread.edit(archived=True, locked=True)
    assert thread.archived and thread.locked
    private = await text.create_thread(name="game-7", type=discord.ChannelType.private_thread, invitable=False)
    assert private.type == discord.ChannelType.private_thread

    view = discord.ui.LayoutView()
    for item in range(40):
        view.add_item(discord.ui.TextDisplay(f"line {item}"))
    sent = await text.send(view=view)
    assert sent.flags.components_v2 and len(standin.last_message(channel).components) == 40

    forum = standin.add_channel(guild, "games-forum", forum=True)
    for _ in range(100):  # CHANNEL_CREATE reaches the client
        if bot.get_channel(forum.id) is not None:
            break
        await asyncio.sleep(0.01)
    post = await bot.get_channel(forum.id).create_thread(name="game-8", content="c" * 2000, suppress_embeds=True)
    assert post.thread.parent_id == forum.id and post.message.id == post.thread.id
    assert standin.last_message(standin.channels[post.thread.id]).flags == SUPPRESS_EMBEDS
