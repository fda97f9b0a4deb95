"""The stand-in's own multipart/form-data parser (aiohttp's goes through ``email``, slowly)."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
from aiohttp import FormData

from standin import StandIn
from standin.rest import _content_type, _multipart_parts


def test_content_type_and_disposition_parameters() -> None:
    assert _content_type('multipart/form-data; boundary="a b"') == ("multipart/form-data", {"boundary": "a b"})
    assert _content_type("Application/JSON") == ("application/json", {})
    kind, params = _content_type('form-data; name="files[0]"; filename="we\\"ird;.png"')
    assert kind == "form-data" and params == {"name": "files[0]", "filename": 'we"ird;.png'}
    assert _content_type("form-data; name=payload_json")[1] == {"name": "payload_json"}


async def test_parts_of_an_aiohttp_form_survive_byte_for_byte() -> None:
    png = bytes(range(256)) * 40 + b"\r\n--not-the-boundary\r\n\r\n"  # binary, with look-alikes
    form = FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps({"content": "hi"}))
    form.add_field("files[0]", png, filename="table.png", content_type="application/octet-stream")
    form.add_field("files[1]", b"", filename="empty.txt")
    payload = form()
    chunks: list[bytes] = []

    class Sink:
        async def write(self, data: bytes) -> None:
            chunks.append(bytes(data))

    await payload.write(Sink())  # type: ignore[arg-type]
    _kind, params = _content_type(payload.headers["Content-Type"])
    parts = _multipart_parts(b"".join(chunks), params["boundary"].encode())
    assert [_content_type(h["content-disposition"])[1]["name"] for h, _d in parts] == [
        "payload_json",
        "files[0]",
        "files[1]",
    ]
    assert json.loads(parts[0][1]) == {"content": "hi"}
    assert parts[1][1] == png and parts[1][0]["content-type"] == "application/octet-stream"
    assert parts[2][1] == b""


async def test_uploads_can_be_checked_and_not_kept(standin: StandIn, world: Any) -> None:
    """The load benchmark's setting: sizes and PNG dimensions stay, the bytes do not."""
    import io

    from PIL import Image

    _, channel, _, _ = world
    standin.keep_uploads = False
    buf = io.BytesIO()
    Image.new("RGB", (30, 20)).save(buf, "PNG")
    form = FormData(quote_fields=False)
    form.add_field("payload_json", '{"content": "pic"}')
    form.add_field("files[0]", buf.getvalue(), filename="t.png")
    headers = {"Authorization": f"Bot {standin.token}"}
    url = f"{standin.url}/api/v10/channels/{channel.id}/messages"
    async with aiohttp.ClientSession() as session, session.post(url, data=form, headers=headers) as response:
        assert response.status == 200
        [sent] = (await response.json())["attachments"]
    [attachment] = standin.last_message(channel).attachments
    assert attachment.data == b"" and attachment.size == len(buf.getvalue()) == sent["size"]
    assert attachment.png_dimensions == (30, 20) == (sent["width"], sent["height"])
