"""Hand-picked limited palettes: one per card, each a mood (dusk, night, mist, storm, ...).

A palette has six roles so every motif knows which colour to take: the sky's top and bottom, the light
(celestial bodies, lit windows, open doors), the far land that fades into the sky, the near silhouettes,
and one accent.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


def _hex(value: str) -> RGB:
    return (int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16))


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` at ``t == 0``, ``b`` at ``t == 1``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


@dataclass(frozen=True, slots=True)
class Palette:
    name: str
    sky_top: RGB
    sky_bottom: RGB
    light: RGB
    far: RGB
    near: RGB
    accent: RGB
    starry: bool


def _palette(name: str, colours: str, *, starry: bool) -> Palette:
    sky_top, sky_bottom, light, far, near, accent = (_hex(c) for c in colours.split())
    return Palette(name, sky_top, sky_bottom, light, far, near, accent, starry)


PALETTES: tuple[Palette, ...] = (
    _palette("dusk", "#2b1b4a #f08a5d #ffd28a #8a4f7d #1c1330 #ffb347", starry=True),
    _palette("night", "#0b1433 #3a5a8c #f4f1d0 #24375e #070b1a #ffe28a", starry=True),
    _palette("dawn", "#e9a3b4 #fbe8c8 #fff6d6 #c98a9c #4d2c48 #ff7f6e", starry=False),
    _palette("mist", "#1f4037 #99c5a0 #f2f7d0 #4f7a63 #10241c #ffd97a", starry=False),
    _palette("desert", "#d9612f #f6d08a #fff1c1 #b9553a #3f1a16 #ffe0a0", starry=False),
    _palette("arctic", "#1d3557 #a8dadc #f1faee #6f9fb8 #0e1f33 #e9f5ff", starry=True),
    _palette("storm", "#2f3a45 #8a9ba8 #f9e27d #55636e #15191d #ffd400", starry=False),
    _palette("deep", "#022c3a #1f7a8c #bff4ff #0f5160 #01141b #7ff0d8", starry=True),
    _palette("autumn", "#5b2a1e #e8a15a #ffe0a6 #9c4a2b #2a120c #ff9e3d", starry=False),
    _palette("noon", "#2f6fb8 #cde8f2 #fffbe6 #86a9c4 #1f3a2e #ff6b5b", starry=False),
    _palette("ember", "#1a0808 #8a2a1e #ffb26b #4a1410 #080303 #ff5a1f", starry=True),
    _palette("meadow", "#3e4a2a #e9e3c3 #fffbe8 #7d8a55 #1d2414 #e07a5f", starry=False),
    _palette("lavender", "#3d2c6b #c9b6e4 #fbf3ff #7e6bb0 #1e1538 #ffd166", starry=True),
    _palette("jade", "#06231f #2a9d8f #e9f5db #176a60 #031412 #f4a261", starry=True),
    _palette("golden", "#b4541f #f7d774 #fff8d8 #c98b3c #3a2210 #7a2e8c", starry=False),
    _palette("sepia", "#3b2f2f #d8c3a5 #fff4e0 #8e7f6b #1e1717 #e98074", starry=False),
)

#: How each palette reads in a description: the light the card is seen in.
LIGHT: dict[str, str] = {
    "dusk": "in dusk orange",
    "night": "in midnight blue",
    "dawn": "in pink dawn light",
    "mist": "in misty green",
    "desert": "in desert ochre",
    "arctic": "in icy blue",
    "storm": "in stormy grey",
    "deep": "in deep teal",
    "autumn": "in autumn amber",
    "noon": "in bright noon light",
    "ember": "in ember red",
    "meadow": "in pale meadow light",
    "lavender": "in violet light",
    "jade": "in jade green",
    "golden": "in golden light",
    "sepia": "in sepia tones",
}
