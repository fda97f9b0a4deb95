"""The ways a player may have the pictures drawn (``render.STYLES``), named here for the
layers above that store and check a player's choice without drawing anything."""

from __future__ import annotations

from render import STYLES

DEFAULT_STYLE = "iso"  # the high camera

__all__ = ["DEFAULT_STYLE", "STYLES"]
