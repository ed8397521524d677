"""The colours every picture uses (terminal, SVG, HTML): hue by warp, shade by lane; shared memory by bank.

Plain Python, no numpy, so that the terminal colouring costs no import. ``page.js`` computes the same colours with
the same formulas (a test compares them).

Warp hues step by the golden angle from blue, so that neighbouring warps differ a lot and any number of warps stay
distinct: warp 0 is 210°, warp 1 347.508°, warp 2 125.016°, ... Lane 0 is the lightest shade of its warp's hue, the last
lane the darkest, all light enough for black text.
"""
from __future__ import annotations

import colorsys

GOLDEN_ANGLE = 137508           # thousandths of a degree: integer arithmetic, so page.js gets the same digits
FIRST_HUE = 210000
SATURATION = 70
LIGHTEST, DARKEST = 90, 56
BANK_LIGHTNESS = (74, 86)       # even and odd banks, so that neighbouring banks differ in shade as well as hue
COPY_GREY = (0, 0, 80)


def warp_hue(group: int) -> float:
    """Hue of warp group `group` (block * warps + warp), in degrees."""
    return (FIRST_HUE + group * GOLDEN_ANGLE) % 360000 / 1000


def lane_lightness(lane: int, lanes: int) -> int:
    """Lightness of lane `lane` of `lanes`: LIGHTEST for lane 0 down to DARKEST for the last lane."""
    if lanes <= 1:
        return (LIGHTEST + DARKEST) // 2
    return round(LIGHTEST - (LIGHTEST - DARKEST) * lane / (lanes - 1))


def thread_hsl(group: int, lane: int, lanes: int) -> tuple[float, int, int]:
    return warp_hue(group), SATURATION, lane_lightness(lane, lanes)


def bank_hsl(bank: int, banks: int = 32) -> tuple[float, int, int]:
    """Banks go round the colour wheel once; even and odd banks also differ in lightness."""
    return bank * 360 / banks % 360, SATURATION, BANK_LIGHTNESS[bank % 2]


def css(hsl) -> str:
    """'hsl(210,70%,90%)'."""
    h, s, l = hsl
    return f"hsl({h:g},{s}%,{l}%)"


def rgb(hsl) -> tuple[int, int, int]:
    """The same colour as 8-bit RGB (for the terminal, where rich needs RGB)."""
    h, s, l = hsl
    r, g, b = colorsys.hls_to_rgb(h / 360, l / 100, s / 100)
    return round(r * 255), round(g * 255), round(b * 255)
