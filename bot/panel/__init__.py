"""The private turn panel, as pure functions of the engine game (no Discord here).

``tree`` turns the legal moves into a tree of choices in words: at most 25 options per
select, every legal move at most three picks deep.  ``groups`` is the older two-step
grouping, kept so the selects under panels posted before the tree keep working.
"""

from .groups import MAX_OPTIONS, end_choices, end_label, end_needs_choice, group_key, group_label, groups
from .tree import Choice, TreeError, choice_tree, leaves, node_at

__all__ = [
    "MAX_OPTIONS",
    "Choice",
    "TreeError",
    "choice_tree",
    "end_choices",
    "end_label",
    "end_needs_choice",
    "group_key",
    "group_label",
    "groups",
    "leaves",
    "node_at",
]
