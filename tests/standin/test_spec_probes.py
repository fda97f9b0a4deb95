"""Probes: requests Discord refuses are refused by the stand-in with Discord's error shape
(400, code 50035 "Invalid Form Body", nested field `errors`) and recorded as violations; the
valid form next to each is accepted. The cases are the ones listed in issue 20."""

from __future__ import annotations

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
    status, answer = await call(standin, "POST", f"/channels/{channel.id}/messages", MESSAGE)
    assert status == 200, answer
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
    status, answer = await call(standin, "POST", path, valid)
    assert status == 204, answer
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
