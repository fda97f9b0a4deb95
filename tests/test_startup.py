"""Production start-up (issue 16, items 15 and 10): ``python -m bot`` refuses to start
without a token, on a database it cannot write, and on a corrupt one, each with one line
that says what to do; empty settings in .env mean "unset"."""

from __future__ import annotations

import os
import resource
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot.config import Settings

ROOT = Path(__file__).resolve().parents[1]


def run_bot(cwd: Path, env: dict[str, str], *args: str, fsize: int | None = None) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_GUILD", "DATABASE_"))}

    def limit() -> None:
        if fsize is not None:  # a file-size limit: writes past it fail with EFBIG
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env={**clean, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limit,
    )


def test_no_token_is_an_error_that_says_where_to_put_it(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=\nDEV_GUILD_ID=\nDATABASE_PATH=x.db\n")
    r = run_bot(tmp_path, {})
    assert r.returncode == 2, r.stderr
    assert "No DISCORD_TOKEN" in r.stderr and ".env" in r.stderr and "--demo" in r.stderr
    assert not (tmp_path / "demo-out").exists() and not (tmp_path / "x.db").exists()


def test_empty_settings_in_dotenv_mean_unset(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=\nDEV_GUILD_ID=\n")
    s = Settings(_env_file=env)  # type: ignore[call-arg]
    assert s.discord_token is None and s.dev_guild_id is None
    env.write_text("DISCORD_TOKEN=abc\nDEV_GUILD_ID=42\n")
    s = Settings(_env_file=env)  # type: ignore[call-arg]
    assert s.discord_token is not None and s.discord_token.get_secret_value() == "abc" and s.dev_guild_id == 42


def test_a_corrupt_database_is_one_line_naming_the_file_and_the_tools(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    db.write_bytes(b"this is not a database" * 200)
    r = run_bot(tmp_path, {"DISCORD_TOKEN": "t", "DATABASE_PATH": str(db)})
    assert r.returncode == 3, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr
    assert str(db) in lines[0] and "damaged" in lines[0]
    assert "python -m bot.store verify" in lines[0] and "python -m bot.store backup" in lines[0]


def test_a_database_that_cannot_be_written_stops_the_start(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE filler (x)")
        conn.execute("INSERT INTO filler VALUES (zeroblob(200000))")
    r = run_bot(tmp_path, {"DISCORD_TOKEN": "t", "DATABASE_PATH": str(db)}, fsize=4096)
    assert r.returncode == 3, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr
    assert str(db) in lines[0] and "cannot be written" in lines[0]


def test_the_readme_launcher_plays_the_demo_without_a_token(tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "bot.launch", "--players", "2", "--computers", "1", "--seed", "3"],
        cwd=tmp_path,
        env={**{k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert "offline demo" in r.stdout and (tmp_path / "demo-out" / "transcript.md").is_file()


def test_the_bot_takes_its_settings_whole() -> None:
    from bot.client import CubistBot

    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        discord_token="t",
        database_path=Path("x.db"),
        dev_guild_id=5,
        max_open_games=3,
        lobby_cooldown=7,
        job_lease_seconds=11,
        timer_poll_seconds=13,
        shards="1",
        shard_count=2,
        public_url="https://cubist.example",
        web_port=8081,
    )
    bot = CubistBot.from_settings(settings, force_sync=True)
    assert (str(bot.db_path), bot.dev_guild_id, bot.force_sync) == ("x.db", 5, True)
    assert (bot.limits.max_open_games, bot.limits.lobby_cooldown) == (3, 7)
    assert bot.jobs.lease == 11 and bot.jobs.timer_poll_seconds == 13
    assert (bot.shard_ids, bot.shard_count) == ([1], 2)
    assert bot.web_plan is not None and (bot.web_plan.public_url, bot.web_plan.port) == ("https://cubist.example", 8081)


def test_the_console_scripts_run_what_the_modules_run(tmp_path: Path) -> None:
    scripts = Path(sys.executable).parent
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_GUILD", "DATABASE_"))}

    def run(name: str, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(scripts / name), *args], cwd=tmp_path, env=clean, capture_output=True, text=True, timeout=120
        )

    bot = run("cubist-bot")
    assert bot.returncode == 2 and "No DISCORD_TOKEN" in bot.stderr  # as `python -m bot`: never the demo
    for name, says in [
        ("cubist-launch", "--demo"),
        ("cubist-demo", "--keep-open"),
        ("cubist-store", "verify"),
        ("cubist-benchmarks", "--games"),
    ]:
        r = run(name, "--help")
        assert r.returncode == 0 and says in r.stdout, (name, r.stdout, r.stderr)
