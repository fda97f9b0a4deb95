"""Every bad input gets an ephemeral answer saying what was wrong, and changes nothing."""

from __future__ import annotations

from .conftest import Table, custom_ids, started


async def refused(table: Table, user, command: str, fragment: str, **options) -> str:
    before = await table.snapshot()
    moves = await table.moves_logged()
    result = await user.slash(table.channel, command, **options)
    assert not result.failed, result
    assert result.ephemeral, f"{command} answered publicly: {result.content}"
    assert fragment.lower() in result.content.lower(), result.content
    assert await table.snapshot() == before
    assert await table.moves_logged() == moves
    return result.content


async def test_no_game_here(table: Table) -> None:
    a = table.users[0]
    for command, options in [
        ("cubist move", {"move": "end"}),
        ("cubist lobby join", {}),
        ("cubist lobby leave", {}),
        ("cubist lobby start", {}),
        ("cubist table cancel", {}),
        ("cubist board", {}),
        ("cubist studio", {}),
        ("cubist look museum", {}),
        ("cubist look cards", {}),
        ("cubist status", {}),
        ("cubist turn", {}),
        ("cubist end", {}),
        ("cubist undo", {}),
        ("cubist hint", {}),
    ]:
        await refused(table, a, command, "no Cubist game in this channel", **options)


async def test_lobby_mistakes(table: Table) -> None:
    a, b, c = table.users[:3]
    await a.slash(table.channel, "cubist lobby new", players=2)
    await refused(table, a, "cubist lobby new", "already in its lobby")
    await refused(table, a, "cubist lobby join", "already in this game's lobby")
    await refused(table, a, "cubist lobby start", "at least 2 players")
    await refused(table, b, "cubist lobby leave", "not in this game's lobby")
    await refused(table, a, "cubist lobby leave", "cancel it")
    await refused(table, a, "cubist move", "not started", move="end")
    await refused(table, a, "cubist board", "not started")
    await b.slash(table.channel, "cubist lobby join")
    await refused(table, c, "cubist lobby join", "table is full (2 players)")
    await refused(table, b, "cubist lobby start", "Only the player who created the game")
    await refused(table, b, "cubist table cancel", "Only the game's creator")


async def test_started_game_mistakes(table: Table) -> None:
    _gid, game, seated = await started(table)
    current = seated[game.current_player]
    other = seated[1 - game.current_player]
    outsider = table.users[3]
    await refused(table, outsider, "cubist lobby join", "already started")
    await refused(table, table.users[0], "cubist lobby start", "already started")
    await refused(table, other, "cubist move", "not your turn", move=str(game.legal_moves()[0]))
    await refused(table, outsider, "cubist move", "not playing in this game", move="end")
    await refused(table, other, "cubist end", "not your turn")
    await refused(table, other, "cubist turn", "not your turn")
    await refused(table, current, "cubist move", "is not a move", move="fly to the moon")
    await refused(table, current, "cubist move", "not a cell", move="place 4 w1 z9")
    text = await refused(table, current, "cubist move", "not allowed", move="complete w1 #99")
    assert "not on offer" in text and "Possible now" in text
    await refused(table, current, "cubist undo", "Nothing to undo")
    await refused(table, current, "cubist end", "not a die value", keep="9")
    absent = next(v for v in range(1, 7) if v not in game.state.players[game.current_player].storeroom)
    await refused(table, current, "cubist end", "keep only dice from your storeroom", keep=str(absent))
    await refused(table, outsider, "cubist studio", "not playing", player=outsider.user)
    await refused(table, table.users[0], "cubist lobby new", "already in play")


async def test_illegal_placement_gives_the_engine_reason(table: Table) -> None:
    gid, game, seated = await started(table)
    current = seated[game.current_player]
    low, high = sorted(game.state.players[game.current_player].storeroom)
    first = await current.slash(table.channel, "cubist move", move=f"place {low} w1 c3")
    assert first.ephemeral and f"You placed a {low} in workroom 1" in first.content
    assert first.attachments[0].filename == "studio.png"  # the studio as it is now, with the panel
    assert any(i.startswith(f"cubist:{gid}:t:") for i in custom_ids(first.message))
    text = await refused(table, current, "cubist move", "f6 does not touch the structure", move=f"place {high} w1 f6")
    assert "not allowed" in text
