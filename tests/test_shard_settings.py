"""Settings for running beyond one process (issue 19): DATABASE_URL, SHARDS and SHARD_COUNT."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Settings, database_target, parse_shards

ROOT = Path(__file__).resolve().parents[1]


def test_shard_lists_and_ranges() -> None:
    assert parse_shards("0-3") == [0, 1, 2, 3]
    assert parse_shards("4, 0-1") == [0, 1, 4]
    for bad in ("", "a", "3-1", "0,0", "1-", "-1"):
        with pytest.raises(ValueError):
            parse_shards(bad)


def test_shard_plan_from_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings().shard_plan() is None  # one process, one shard
    monkeypatch.setenv("SHARDS", "2-3")
    monkeypatch.setenv("SHARD_COUNT", "4")
    plan = Settings().shard_plan()
    assert plan is not None and (plan.shard_ids, plan.shard_count) == ([2, 3], 4)
    monkeypatch.delenv("SHARDS")
    plan = Settings().shard_plan()
    assert plan is not None and plan.shard_ids == [0, 1, 2, 3]  # a count alone: every shard here
    monkeypatch.setenv("SHARDS", "3-4")
    with pytest.raises(ValueError, match=r"\[4\] do not exist among 4 shards"):
        Settings().shard_plan()
    monkeypatch.delenv("SHARD_COUNT")
    with pytest.raises(ValueError, match="needs --shard-count"):
        Settings().shard_plan()


def test_database_url(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings(database_path=Path("games.db")).database().path == Path("games.db")
    assert database_target("sqlite:///cubist.db").path == Path("cubist.db")
    assert database_target("sqlite:////var/lib/cubist.db").path == Path("/var/lib/cubist.db")
    pg = database_target("postgresql://cubist:secret@db.example/cubist")
    assert pg.kind == "postgresql" and pg.where.endswith("@db.example/cubist")
    assert database_target("postgres://h/db").kind == "postgresql"
    for bad in ("cubist.db", "mysql://h/db", "sqlite://"):
        with pytest.raises(ValueError):
            database_target(bad)
    monkeypatch.setenv("DATABASE_URL", "sqlite:///other.db")
    assert Settings().database().path == Path("other.db")
    monkeypatch.setenv("DATABASE_URL", "oracle://x")
    with pytest.raises(ValueError, match="unknown database"):
        Settings()


def test_bad_shard_arguments_are_one_clear_line(tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "bot", "--shards", "0-9", "--shard-count", "8"],
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "t"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2
    assert "shard ids [8, 9] do not exist among 8 shards" in r.stderr
    assert not (tmp_path / "cubist.db").exists()


def test_an_unreachable_postgresql_is_one_line_without_the_password(tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env={
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(ROOT),
            "DISCORD_TOKEN": "t",
            "DATABASE_URL": "postgresql://cubist:s3cret@127.0.0.1:9/cubist",  # port 9: nobody listens
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 3, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot be opened" in lines[0] and "DATABASE_URL" in lines[0]
    assert "s3cret" not in r.stderr and "postgresql://cubist:***@127.0.0.1:9/cubist" in lines[0]
