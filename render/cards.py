"""What the cards say and how they look: each artist kind's colour and its action in words."""

from __future__ import annotations

from engine import ArtistCard, ArtistKind

from .labels import Labels

KIND_COLOURS: dict[ArtistKind, tuple[int, int, int]] = {
    ArtistKind.MALEVICH: (40, 40, 44),
    ArtistKind.BOCCIONI: (98, 70, 52),
    ArtistKind.MARC: (46, 72, 120),
    ArtistKind.POPOVA: (120, 52, 64),
    ArtistKind.LA_FRESNAYE: (74, 100, 58),
    ArtistKind.GRIS: (84, 90, 102),
    ArtistKind.PASCIN: (104, 78, 122),
    ArtistKind.ROZANOVA: (40, 104, 104),
}


def action_text(card: ArtistCard, labels: Labels) -> str:
    """The card's action in a few words (the bot's help has the long form)."""
    match card.artist:
        case ArtistKind.MALEVICH:
            return labels.text("take", value=card.value)
        case ArtistKind.BOCCIONI:
            a, b = card.values or (0, 0)
            return labels.text("take_either", a=a, b=b)
        case ArtistKind.MARC:
            return labels.text("take_any")
        case ArtistKind.POPOVA | ArtistKind.LA_FRESNAYE:
            return labels.text("change", delta=f"{card.delta:+d}".replace("-", "−"))
        case ArtistKind.GRIS:
            return labels.text("remove_top")
        case ArtistKind.PASCIN:
            return labels.text("move_top")
        case ArtistKind.ROZANOVA:
            return labels.text("steal")
    raise AssertionError(card.artist)  # pragma: no cover - every artist is listed above
