"""The move notation: every documented example parses and prints back the same."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import MoveSyntaxError, parse_move

from .helpers import english

NOTATION = Path(__file__).resolve().parents[2] / "engine" / "NOTATION.md"


def documented_moves() -> list[str]:
    rows = re.findall(r"^\| `([^`]+)`(?: / `([^`]+)`)?(?: / `([^`]+)`)? \|", NOTATION.read_text(), re.M)
    return [m for row in rows for m in row if (m and " " in m) or m in ("release", "undo", "end")]


def test_the_notation_file_documents_a_move_of_every_kind() -> None:
    verbs = {m.split()[0] for m in documented_moves()}
    assert verbs >= {"place", "museum", "artist", "use", "complete", "abandon", "release", "switch", "end", "undo"}


@pytest.mark.parametrize("text", documented_moves())
def test_documented_examples_round_trip(text: str) -> None:
    assert str(parse_move(text)) == text


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty move"),
        ("fly w1", "unknown move 'fly'"),
        ("place 4 w3 c3", "not a workroom"),
        ("place 4 w1 z9", "not a cell"),
        ("place 4 w1 c9", "off the grid"),
        ("place 9 w1 c3", "not a die"),
        ("museum 4 d4", "only dice on completed installation cards"),
        ("artist 5 3 3", "not an artist slot"),
        ("end 1 2 3", "at most two dice"),
        ("use 2 p9 5", "not a player"),
        ("complete w1 seven", "not an installation card number"),
    ],
)
def test_malformed_texts_say_what_was_expected(text: str, fragment: str) -> None:
    with pytest.raises(MoveSyntaxError) as refusal:
        parse_move(text)
    assert fragment in english(refusal.value)


def test_artist_dice_are_written_in_one_canonical_order() -> None:
    assert str(parse_move("artist 2 i1.1 x3 3")) == "artist 2 3 x3 i1.1"
    assert parse_move("artist 2 i1.1 x3 3") == parse_move("artist 2 3 x3 i1.1")
    assert str(parse_move("end 2 6")) == "end 6 2"
