"""Smoke test of the load benchmark: a tiny run through the real bot and the stand-in.

Asserts that the figures are produced and that nothing went wrong; never asserts on speed.
"""

from __future__ import annotations

from benchmarks.load_bench import LoadSettings, figures, is_interaction_route, route_of, run_one


def test_route_names_hide_ids_and_tokens() -> None:
    token = "aW50ZXJhY3Rpb246" + "x" * 60
    assert route_of(f"POST /interactions/123/{token}/callback") == "POST /interactions/{id}/{token}/callback"
    assert route_of("POST /channels/42/messages") == "POST /channels/{id}/messages"
    assert is_interaction_route("POST /webhooks/{id}/{token}")
    assert not is_interaction_route("POST /channels/{id}/messages")


async def test_three_games_one_turn_each() -> None:
    settings = LoadSettings(games=3, turns=1, concurrency=3, open_concurrency=3, time_cap_s=60.0, channels_per_guild=2)
    result = await run_one(settings, render_workers=0)

    assert result.problems == []
    assert result.games_opened == 3
    assert result.turns == 3  # one finished turn per game, each posted with its table picture
    assert result.ends == 3
    assert len(result.move_ms) == result.moves
    assert len(result.end_ms) == 3
    assert result.requests_play > 0
    # The table posts are the answers to `/cubist end` (interaction routes); the channel
    # message route carries the turn-start DMs, and a table post only when the end was slow.
    assert result.routes["POST /interactions/{id}/{token}/callback"] >= result.moves + result.ends
    assert 1 <= result.routes["POST /channels/{id}/messages"] <= 2 * result.turns
    assert result.peak_rss > 0

    rows = dict(figures(result))
    for name in (
        "w=0 moves per s (move+end)",
        "w=0 finished turns per s",
        "w=0 /cubist move reply ms (median / p95 / max)",
        "w=0 peak memory MiB (RSS of the process / PSS incl. render pool)",
        "w=0 REST requests per s under global limit",
        "w=0 REST requests per finished turn",
    ):
        assert rows[name], name
    assert rows["w=0 problems (stand-in violations, refusals)"] == "0"
