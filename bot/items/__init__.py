"""Persistent buttons and selects, one DynamicItem class per behaviour.

Their custom_ids carry the game (and, for the turn panel, the game's version), so they
keep working after a restart; a panel drawn before the last move answers with the panel
as it stands now.  ``ITEMS`` is what ``setup_hook`` registers.
"""

from .game import (
    BoardButton,
    OldPanelButton,
    OldPanelSelect,
    RematchButton,
    SnoozeButton,
    StopButton,
    StudioButton,
)
from .hint import HintPlayButton, HintShowButton
from .turn import (
    BackButton,
    CellButton,
    ConfirmEndButton,
    DieButton,
    EndChoiceSelect,
    EndTurnButton,
    PanelSelect,
    PlayButton,
    TreeButton,
    UndoButton,
)

ITEMS = (
    PanelSelect,
    PlayButton,
    BackButton,
    EndTurnButton,
    EndChoiceSelect,
    ConfirmEndButton,
    UndoButton,
    DieButton,
    CellButton,
    TreeButton,
    HintPlayButton,
    HintShowButton,
    StudioButton,
    BoardButton,
    RematchButton,
    SnoozeButton,
    StopButton,
    OldPanelButton,
    OldPanelSelect,
)

__all__ = [
    "ITEMS",
    "BackButton",
    "BoardButton",
    "CellButton",
    "ConfirmEndButton",
    "DieButton",
    "EndChoiceSelect",
    "EndTurnButton",
    "HintPlayButton",
    "HintShowButton",
    "OldPanelButton",
    "OldPanelSelect",
    "PanelSelect",
    "PlayButton",
    "RematchButton",
    "SnoozeButton",
    "StopButton",
    "StudioButton",
    "TreeButton",
    "UndoButton",
]
