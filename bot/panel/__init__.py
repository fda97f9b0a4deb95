"""The private turn panel, as pure functions of the engine game (no Discord here).

``tree`` turns the legal moves into a tree of choices in words: at most 25 options per
select, every legal move at most three picks deep; ``cells`` letters the cells a die may go
to, for the panel's buttons and the studio picture.  (Selects under panels posted before the
tree open today's panel: ``bot/turn/items.py``.)
"""

from bot.panel.tree import MAX_OPTIONS, Choice, TreeError, choice_tree, leaves, node_at

__all__ = ["MAX_OPTIONS", "Choice", "TreeError", "choice_tree", "leaves", "node_at"]
