"""An orderly close (``CubistBot.close``): what discord.py is still running for the bot
finishes before the HTTP session closes under it.

discord.py runs each interaction (slash command, button, modal) and each event handler as
a task of its own, and ``Client.close`` closes the HTTP session without waiting for them:
a command still answering then fails with "Session is closed" and logs a traceback (the
turn's table post, "answering a stored move ... failed").  ``finish_in_flight`` waits for
those tasks, at most ``timeout`` seconds, and cancels what is left: a move is stored whole
or not at all (the store's transactions run to their end even when cancelled), and what it
had to post is in the outbox, which the next start sends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

log = logging.getLogger(__name__)

GRACE_SECONDS = 10.0  # for the interactions under way when the bot closes

# The names discord.py gives the tasks that run the bot's code (discord/app_commands/tree.py,
# ui/view.py, ui/modal.py, client.py): commands, component and modal callbacks, events.
_IN_FLIGHT = ("CommandTree-invoker", "discord-ui-view-dispatch", "discord-ui-dynamic-item", "discord-ui-modal-dispatch")
_EVENTS = "discord.py: on_"
_NOT_WORK = ("discord.py: on_shard_", "discord.py: on_disconnect", "discord.py: on_socket_")


def in_flight() -> set[asyncio.Task[object]]:
    """The tasks running the bot's answers to Discord right now (not the caller's own)."""
    me = asyncio.current_task()
    found: set[asyncio.Task[object]] = set()
    for task in asyncio.all_tasks():
        name = task.get_name()
        if task is me or task.done():
            continue
        if name.startswith(_IN_FLIGHT) or (name.startswith(_EVENTS) and not name.startswith(_NOT_WORK)):
            found.add(task)
    return found


async def finish_in_flight(timeout: float = GRACE_SECONDS) -> int:
    """Waits for the answers under way (and any they start meanwhile) for at most
    ``timeout`` seconds, then cancels the rest; returns how many were cancelled."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while (tasks := in_flight()) and (left := deadline - loop.time()) > 0:
        await asyncio.wait(tasks, timeout=left)
    tasks = in_flight()
    if tasks:
        log.warning("closing: %d answers still under way after %.0f s are cut short", len(tasks), timeout)
        for task in tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*tasks, return_exceptions=True)
    return len(tasks)
