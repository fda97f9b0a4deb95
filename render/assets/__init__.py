"""Bundled data files: DejaVu Sans fonts (Bitstream Vera licence, see LICENSE-DejaVu.txt)."""
