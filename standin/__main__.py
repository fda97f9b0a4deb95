"""Run a stand-in on its own: `python -m standin --port 8765 --user alice --user bob`.

Prints the URL and token a bot needs (DISCORD_API_BASE, DISCORD_TOKEN) and the ids of
the world it made, then serves until interrupted. Acting as the users needs the driver
in the same process (see standin.driver), so this is for smoke runs and demos.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib

from .server import DEFAULT_TOKEN, StandIn


async def serve(args: argparse.Namespace) -> None:
    server = StandIn(token=args.token)
    await server.start(args.port)
    guild = server.add_guild(args.guild)
    channel = server.add_channel(guild, args.channel)
    players = [server.add_user(name) for name in args.user]
    print(f"DISCORD_API_BASE={server.url}")
    print(f"DISCORD_TOKEN={server.token}")
    print(f"guild {guild.name}={guild.id} channel #{channel.name}={channel.id}")
    for player in players:
        print(f"user {player.name}={player.id}")
    try:
        await asyncio.Event().wait()
    finally:
        await server.stop()
        for problem in [*server.errors, *server.violations]:
            print(f"recorded: {problem}")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m standin", description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0, help="127.0.0.1 port (default: a free one)")
    parser.add_argument("--token", default=DEFAULT_TOKEN)
    parser.add_argument("--guild", default="Cubist Club")
    parser.add_argument("--channel", default="games")
    parser.add_argument("--user", action="append", default=[], help="a user to create (repeatable)")
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(parser.parse_args()))


if __name__ == "__main__":
    main()
