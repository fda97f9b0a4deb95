"""A computer's turn is a job: a bot process (``python -m bot``) killed with SIGKILL in the
middle of a computer's turn (one of its moves stored, the turn not ended) and started again
carries the turn on from the stored position, and the game goes on exactly once: one channel
post per finished turn, one turn-start DM for the person whose turn follows, no move lost."""

from __future__ import annotations

from pathlib import Path

from standin import StandIn

from .processes import BotProcesses, db_rows, pending_one_offs, until

TRIES = 6  # computer turns watched for a moment to kill the bot in


def settled(db: Path) -> bool:
    """Nothing in flight: every post and DM queued is out and no job is held by a process, so
    nothing more can be sent or played until ada moves (her own turn's jobs are hours away)."""
    held = db_rows(db, "SELECT count(*) FROM jobs WHERE claimed_by IS NOT NULL AND due_at IS NOT NULL")[0][0]
    return not held and not pending_one_offs(db)


async def test_a_computers_turn_cut_short_by_sigkill_goes_on_once_after_a_restart(
    standin: StandIn, tmp_path: Path
) -> None:
    guild = standin.add_guild("Club")
    channel = standin.add_channel(guild, "cubist")
    ada = standin.add_user("ada")
    db = tmp_path / "cubist.db"
    bots = BotProcesses(standin, db, TIMER_POLL_SECONDS="0.2")

    def game() -> tuple[int, int, int]:
        return db_rows(db, "SELECT version, turn, current_seat FROM games")[0]  # type: ignore[return-value]

    def ada_turns(turn: int) -> int:
        """Ada's turns begun up to ``turn`` (two seats take turns from seat 0)."""
        return sum(1 for k in range(turn + 1) if k % 2 == ada_seat)

    def turn_dms() -> int:
        return len([m for m in standin.dms(ada) if "Your turn in Cubist" in m.content])

    async with bots:
        await bots.start()
        await ada.slash(channel, "cubist lobby new", players=2)
        await ada.slash(channel, "cubist lobby start", fill="strong")
        await standin.wait_for_message(channel, lambda m: "The game begins" in m.content)
        (ada_seat,) = db_rows(db, "SELECT seat FROM seats WHERE user_id = ?", ada.id)[0]
        killed = None
        for _try in range(TRIES):
            await until(lambda: game()[2] == ada_seat, "ada's turn comes")
            await until(lambda: turn_dms() == ada_turns(game()[1]), "ada's turn-start DM")
            turn = game()[1]
            await ada.slash(channel, "cubist end", keep="")
            await until(lambda t=turn: game()[1] > t, "ada's turn ends")
            begun = game()[0]  # the computer's turn begins at this version
            # Its first move stored, its turn not over: kill the bot there.
            await until(lambda v=begun: game()[0] > v or game()[2] == ada_seat, "the computer moves")
            if game()[2] != ada_seat:
                await bots.kill_last()
                killed = game()
                if killed[2] != ada_seat:
                    break
                await bots.start()  # the turn ended before the kill: try again at the next one
        assert killed is not None and killed[2] != ada_seat, "never caught the computer in the middle of its turn"
        posts_before = len([m for m in standin.channel_messages(channel) if m.attachments])
        await bots.start()  # its lease (2 s) runs out, and the new process takes the turn over
        await until(lambda: game()[2] == ada_seat, "the computer's turn goes on after the restart")
        version, turn, _seat = game()
        assert turn == killed[1] + 1 and version > killed[0]
        await until(lambda: turn_dms() == ada_turns(turn), "ada hears that it is her turn")
        await until(lambda: settled(db), "every job the restart took over is done")
        assert game() == (version, turn, ada_seat)  # nobody played for ada, nothing played twice
        posts = [m for m in standin.channel_messages(channel) if m.attachments]
        turn_posts = [m for m in posts if "The game begins" not in m.content]
        assert len(turn_posts) == turn and len(posts) == posts_before + 1  # each finished turn posted, once
        assert turn_dms() == ada_turns(turn)  # one turn-start DM per turn of ada's
        assert db_rows(db, "SELECT count(*) FROM jobs WHERE failed = 1 OR failures > 0") == [(0,)]
        assert db_rows(db, "SELECT count(*) FROM moves") == [(version,)]  # every stored move counted once
