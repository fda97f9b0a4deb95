"""Colour-vision deficiency simulation (for the gallery and the palette test).

Machado, Oliveira and Fernandes (2009), "A physiologically-based model for simulation of
color vision deficiency", severity 1.0 matrices.  They are meant for linear RGB; applied
here to the sRGB values directly (Pillow's RGB matrix conversion, no numpy), which is the
common approximation and good enough to see whether two colours collapse into one.
"""

from __future__ import annotations

from PIL import Image

Matrix = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]

MATRICES: dict[str, Matrix] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
}


def simulate(img: Image.Image, kind: str) -> Image.Image:
    """``img`` as seen with ``kind`` ("protanopia" or "deuteranopia")."""
    m = MATRICES[kind]
    flat = (*m[0], 0.0, *m[1], 0.0, *m[2], 0.0)
    return img.convert("RGB").convert("RGB", matrix=flat)


def simulate_colour(rgb: tuple[int, int, int], kind: str) -> tuple[int, int, int]:
    m = MATRICES[kind]
    return tuple(max(0, min(255, round(sum(m[i][j] * rgb[j] for j in range(3))))) for i in range(3))  # type: ignore[return-value]
