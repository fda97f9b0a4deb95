"""The web board's HTTP side: links, refusals, moves through the service, live updates.

A real SQLite store and service, the real aiohttp server on loopback, a real HTTP client."""

from __future__ import annotations

import asyncio
from unittest.mock import ANY

import aiohttp

from bot.web.events import Follower, state_of, version_of
from bot.web.links import sign
from engine.moves import EndTurn, Place

from .conftest import Board


async def test_the_page_is_served_with_a_strict_policy_and_no_third_party_address(board: Board) -> None:
    token = board.token(await board.current_user())
    async with board.http.get(f"{board.base}/g/{board.game_id}?t={token}") as r:
        assert r.status == 200
        html = await r.text()
        csp = r.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert r.headers["Referrer-Policy"] == "no-referrer"
    for name in ("board.js", "board.css"):
        async with board.http.get(f"{board.base}/static/{name}") as r:
            assert r.status == 200
            html += await r.text()
    assert "http://" not in html.replace("http://www.w3.org", "") and "https://" not in html
    status, state = await board.state(token)
    assert status == 200
    for svg in (state["table"],):
        assert "https://" not in svg and "http://" not in svg.replace("http://www.w3.org/2000/svg", "")


async def test_a_member_on_their_turn_gets_their_moves_a_spectator_only_the_table(board: Board) -> None:
    user = await board.current_user()
    status, state = await board.state(board.token(user))
    assert status == 200 and state["table"] and state["text"]
    status, me = await board.get("me", board.token(user))
    assert status == 200 and me["may_play"] and me["seat"] == state["current"]
    status, mine = await board.get("play", board.token(user))
    assert status == 200 and mine["version"] == state["version"] and mine["play"]["dice"]
    game = await board.game()
    places = {str(m) for m in game.legal_moves() if isinstance(m, Place)}
    offered = {t["move"] for d in mine["play"]["dice"] for t in d["targets"]}
    assert offered == places  # every legal placement is one tap on a cell, and nothing else
    for d in mine["play"]["dice"]:
        for target in d["targets"]:
            assert f'data-cell="{target["cell"]}"' in state["table"]
    # Everybody is sent the same state (built once); only the player on turn gets moves.
    status, seen = await board.state(board.spectator())
    assert status == 200 and seen == state
    assert (await board.get("me", board.spectator()))[1] == {"seat": None, "may_play": False, "expires": ANY}
    assert (await board.get("play", board.spectator()))[1]["play"] is None
    other = 11 if user == 12 else 12
    status, theirs = await board.get("me", board.token(other))
    assert status == 200 and theirs["seat"] is not None and theirs["seat"] != me["seat"]
    assert (await board.get("play", board.token(other)))[1]["play"] is None
    async with board.http.get(f"{board.base}/g/{board.game_id}/play?t={board.token(user)}") as r:
        assert r.status == 403  # the moves come to the header only


async def test_forged_expired_swapped_and_edited_tokens_are_refused(board: Board) -> None:
    user = await board.current_user()
    good = board.token(user)
    game, member, expires, sig = good.split(".")
    forged = f"{game}.{member}.{expires}.{'A' * len(sig)}"
    edited_member = f"{game}.{int(member) + 1}.{expires}.{sig}"  # someone else's seat
    longer = f"{game}.{member}.{int(expires) + 10**6}.{sig}"  # a longer life
    wrong_secret = sign("another-secret", board.game_id, user, int(expires))
    for token, reason in (
        (forged, "forged"),
        (edited_member, "forged"),
        (longer, "forged"),
        (wrong_secret, "forged"),
        ("", "forged"),
        ("1.2.3", "forged"),
        (board.token(user, hours=-1), "expired"),
        (board.token(user, game=board.game_id + 1), "other_game"),
    ):
        status, body = await board.state(token)
        assert (status, body["reason"]) == (403, reason), token
        status, body = await board.move(token, "end", 0)
        assert status == 403, token
    # A link for another game opens that game only, never this one, and names what went wrong.
    async with board.http.get(f"{board.base}/g/{board.game_id}?t={board.token(user, game=board.game_id + 1)}") as r:
        assert r.status == 403 and "another game" in await r.text()
    assert (await board.game()).log == []  # nothing was played


async def test_a_move_is_played_through_the_service_and_queues_the_turn_post_once(board: Board) -> None:
    user = await board.current_user()
    token = board.token(user)
    _status, state = await board.state(token)
    _status, mine = await board.get("play", token)
    first = mine["play"]["dice"][0]["targets"][0]["move"]
    status, body = await board.move(token, first, state["version"])
    assert status == 200 and body["state"]["version"] == state["version"] + 1
    assert body["play"]["version"] == state["version"] + 1 and body["play"]["play"]["end"]
    # The same request again (a double tap, or a replayed request): refused as stale, nothing played.
    status, again = await board.move(token, first, state["version"])
    assert status == 409 and "nothing was changed" in again["error"]
    assert again["state"]["version"] == state["version"] + 1
    game = await board.game()
    end = next(m for m in game.legal_moves() if isinstance(m, EndTurn))
    status, body = await board.move(token, str(end), state["version"] + 1)
    assert status == 200 and body["play"]["play"] is None  # the turn passed
    # One table post and one turn-start DM queued with the move, as from Discord.
    assert await board.store.posts.counts() == {"total": 2, "sent": 0, "failed": 0}
    status, body = await board.move(token, str(end), state["version"] + 2)
    assert status == 422 and "turn" in body["error"].lower()
    assert await board.store.posts.counts() == {"total": 2, "sent": 0, "failed": 0}


async def test_moves_need_the_header_and_refuse_spectators_and_other_sites(board: Board) -> None:
    user = await board.current_user()
    token = board.token(user)
    url = f"{board.base}/g/{board.game_id}/move"
    async with board.http.post(f"{url}?t={token}", json={"move": "end", "version": 0}) as r:
        assert r.status == 403  # a token in the query never plays
    status, body = await board.move(board.spectator(), "end", 0)
    assert status == 403 and body["reason"] == "watching"
    status, body = await board.move(token, "end", 0, Origin="https://evil.example")
    assert status == 403
    status, body = await board.move(token, "fly to the moon", 0)
    assert status == 422 and body["state"]["version"] == 0
    async with board.http.post(url, data="not json", headers={"X-Cubist-Token": token}) as r:
        assert r.status == 400
    assert (await board.game()).log == []


async def test_a_member_is_rate_limited(board: Board) -> None:
    token = board.token(await board.current_user())
    statuses = [(await board.move(token, "nonsense", 0))[0] for _ in range(20)]
    assert 429 in statuses and statuses[0] == 422


async def test_every_viewer_hears_a_move_on_its_stream(board: Board) -> None:
    user = await board.current_user()
    token = board.spectator()
    url = f"{board.base}/g/{board.game_id}/events?t={token}"
    heard: list[str] = []
    status, first = await board.state(token)
    assert status == 200 and first["version"] == 0

    states: list[dict] = []
    patches: list[dict] = []

    async def listen(ready: asyncio.Event) -> None:
        seen, event = 0, ""
        async with aiohttp.ClientSession() as http, http.get(url) as r:
            assert r.headers["Content-Type"].startswith("text/event-stream")
            async for raw in r.content:
                line = raw.decode().strip()
                if line.startswith("event:"):
                    event = line[6:].strip()
                if line.startswith("data:"):
                    data = line[5:].strip()
                    heard.append(str(version_of(event, data)))
                    if event == "patch":
                        patch = state_of(data)
                        patches.append(patch)
                        followed = Follower(first).apply(patch)  # as the page rebuilds it
                        assert followed is not None
                        states.append(followed)
                    ready.set()
                    seen += 1
                    if seen == 2:  # the version when it connected, then the move's state
                        return

    readies = [asyncio.Event() for _ in range(5)]
    tasks = [asyncio.create_task(listen(e)) for e in readies]
    await asyncio.wait_for(asyncio.gather(*(e.wait() for e in readies)), 60)
    game = await board.game()
    move = next(m for m in game.legal_moves() if isinstance(m, Place))
    await board.service.play_in(board.game_id, user, move)  # from Discord, say: the same store
    # A hang guard only: how soon viewers hear a move is measured by `python -m benchmarks`
    # (the web benchmark's viewers), not under whatever load this run shares the machine with.
    await asyncio.wait_for(asyncio.gather(*tasks), 60)
    assert [v for v in heard if v == "1"] == ["1"] * 5
    # The move's state came on the stream itself (no request per viewer), the same for all:
    # a patch on the state before it, which the page rebuilds into the state /state gives.
    status, fetched = await board.state(board.spectator())
    assert status == 200 and len(states) == 5 and all(s == fetched for s in states)
    patch = patches[0]
    assert all(p == patch for p in patches) and "table" not in patch and "ui" not in patch
    # Only the pieces the move changed travel (the header and the mover's studio, say),
    # not the whole table; the style only if it changed.
    assert 0 < len(patch["new"]) < len(patch["parts"]) / 2
    assert sum(len(t) for t in patch["new"].values()) < len(fetched["table"]) / 2


async def test_the_replay_steps_through_the_log_in_words(board: Board) -> None:
    user = await board.current_user()
    token = board.token(user)
    game = await board.game()
    move = next(m for m in game.legal_moves() if isinstance(m, Place))
    await board.service.play_in(board.game_id, user, move)
    async with board.http.get(f"{board.base}/g/{board.game_id}/replay?ply=1", headers={"X-Cubist-Token": token}) as r:
        step = await r.json()
    assert step["ply"] == 1 and step["total"] == 1 and "placed a" in step["story"]
    async with board.http.get(
        f"{board.base}/g/{board.game_id}/replay?ply=0", headers={"X-Cubist-Token": token, "X-Cubist-Lang": "fr"}
    ) as r:
        start = await r.json()
    assert start["ply"] == 0 and start["story"] == "Le début de la partie." and start["table"] != step["table"]


async def test_the_page_speaks_the_viewers_language(board: Board) -> None:
    token = board.spectator()
    status, fr = await board.state(token, **{"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"})
    assert status == 200 and fr["lang"] == "fr" and fr["turn_line"].startswith("À ")
    status, en = await board.state(token, **{"Accept-Language": "de-DE,en;q=0.5"})
    assert en["lang"] == "en" and en["turn_line"].endswith("to play.")
    assert (all(line for line in fr["text"]) and "Atelier" in " ".join(fr["text"])) or "atelier" in " ".join(fr["text"])


async def test_names_are_text_in_the_pictures_never_markup(board: Board) -> None:
    await board.store.set_display_name(board.game_id, 12, '<script>alert("x")</script>') if hasattr(
        board.store, "set_display_name"
    ) else None
    status, state = await board.state(board.spectator())
    assert status == 200
    assert "<script" not in state["table"]


async def test_other_moves_are_listed_in_words_for_the_player_on_turn_only(board: Board) -> None:
    url = f"{board.base}/g/{board.game_id}/others"
    for _ in range(12):  # play on until the player on turn has other moves (artists, say)
        user = await board.current_user()
        _status, state = await board.get("play", board.token(user))
        async with board.http.get(url, headers={"X-Cubist-Token": board.token(user)}) as r:
            mine = await r.json()
        assert bool(mine["moves"]) == state["play"]["others"]
        if mine["moves"]:
            break
        game = await board.game()
        await board.service.play_in(
            board.game_id, user, next(m for m in game.legal_moves() if not str(m).startswith("undo"))
        )
    game = await board.game()
    legal = {str(m) for m in game.legal_moves()}
    assert mine["moves"] and all(m["move"] in legal and m["label"] for m in mine["moves"])
    assert not any(m["move"].startswith(("place", "end", "undo")) for m in mine["moves"])
    async with board.http.get(url, headers={"X-Cubist-Token": board.spectator()}) as r:
        assert (await r.json())["moves"] == []
    async with board.http.get(f"{url}?t={board.token(user)}") as r:
        assert r.status == 403  # like a move: the header only


async def test_the_board_stops_at_once_with_viewers_watching(board: Board) -> None:
    url = f"{board.base}/g/{board.game_id}/events?t={board.spectator()}"
    opened = asyncio.Event()
    ended = asyncio.Event()

    async def watch() -> None:
        async with aiohttp.ClientSession() as http, http.get(url) as r:
            async for _line in r.content:
                opened.set()
        ended.set()

    task = asyncio.create_task(watch())
    await asyncio.wait_for(opened.wait(), 60)
    await board.web.stop()  # as the bot's close() does
    # The board ended the stream itself (a complete response), rather than the server cutting
    # it off when its shutdown grace ran out, which reaches the viewer as a broken payload.
    await task
    assert ended.is_set()
