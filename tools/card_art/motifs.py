"""The motifs a scene is built from: skies, celestial bodies, land, water, buildings, creatures, figures.

Every motif takes the scene (painter, palette, seeded random) and a place on the card; anything it leaves
to chance comes from the scene's random, so a card id always draws the same picture.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from random import Random

from card_art.painter import HEIGHT, WIDTH, Painter, Point
from card_art.palettes import RGB, Palette, mix


@dataclass(slots=True)
class Scene:
    p: Painter
    pal: Palette
    rng: Random
    horizon: float
    light_at: tuple[float, float] = (WIDTH / 2, HEIGHT / 3)
    # What the card's plan chose (card_art.plan): the painter draws it, the description names it.
    subject: str = ""
    setting: str = ""

    def sky_at(self, y: float) -> RGB:
        return mix(self.pal.sky_top, self.pal.sky_bottom, max(0.0, min(1.0, y / HEIGHT)))

    def haze(self, depth: float) -> RGB:
        """Land colour at ``depth`` (0 near, 1 far): far land fades into the sky at the horizon."""
        return mix(self.pal.near, mix(self.pal.far, self.pal.sky_bottom, 0.45), depth)


# -- sky -------------------------------------------------------------------------------------------


def stars(s: Scene, count: int, below: float) -> None:
    for _ in range(count):
        x, y = s.rng.uniform(0, WIDTH), s.rng.uniform(0, below) ** 1.3 / below**0.3
        r = s.rng.choice((0.7, 0.9, 1.1, 1.6))
        s.p.ellipse(x, y, r, r, mix(s.pal.light, s.sky_at(y), 0.2))
        if r > 1.5:
            s.p.glow(x, y, 14, s.pal.light, 0.5)


def clouds(s: Scene, count: int, top: float, bottom: float) -> None:
    for _ in range(count):
        y = s.rng.uniform(top, bottom)
        x = s.rng.uniform(-40, WIDTH + 40)
        width = s.rng.uniform(70, 170)
        colour = mix(s.sky_at(y), s.pal.light, s.rng.uniform(0.25, 0.55))
        for k in range(4):
            s.p.soft_ellipse(
                x + (k - 1.5) * width * 0.3, y - (k % 2) * 8, width * 0.35, 11 + 6 * (k % 2), colour, 0.75, 6
            )


def celestial(s: Scene, x: float, y: float, r: float, kind: str) -> None:
    light = s.pal.light
    s.light_at = (x, y)
    s.p.glow(x, y, r * 5.5, light, 0.55)
    s.p.glow(x, y, r * 2.6, light, 0.7)
    if kind == "sun":
        s.p.ellipse(x, y, r, r, light)
    elif kind == "moon":
        s.p.ellipse(x, y, r, r, light)
        for _ in range(4):
            a, d = s.rng.uniform(0, math.tau), s.rng.uniform(0, r * 0.6)
            c = s.rng.uniform(r * 0.1, r * 0.22)
            s.p.ellipse(x + math.cos(a) * d, y + math.sin(a) * d, c, c, mix(light, s.pal.far, 0.18))
    elif kind == "crescent":
        s.p.ellipse(x, y, r, r, light)
        side = s.rng.choice((-1, 1))
        s.p.ellipse(x + side * r * 0.45, y - r * 0.2, r * 0.92, r * 0.92, mix(s.sky_at(y), light, 0.25))
    elif kind == "planet":
        ring = mix(light, s.pal.accent, 0.5)
        s.p.ellipse(x, y, r, r, mix(light, s.pal.far, 0.25))
        s.p.ellipse(x - r * 0.2, y - r * 0.25, r * 0.7, r * 0.7, light, 0.5)
        tilt = s.rng.uniform(-0.35, 0.35)
        pts = [
            (
                x + math.cos(t) * r * 2.0 - math.sin(t) * r * 0.45 * tilt,
                y + math.sin(t) * r * 0.45 + tilt * math.cos(t) * r,
            )
            for t in (i * math.pi / 24 for i in range(25))
        ]
        s.p.line(pts, ring, 3)
    elif kind == "eclipse":
        s.p.glow(x, y, r * 3.5, s.pal.accent, 0.8)
        s.p.ellipse(x, y, r * 1.05, r * 1.05, light)
        s.p.ellipse(x, y, r, r, mix(s.pal.near, s.sky_at(y), 0.2))
    else:  # two moons
        s.p.ellipse(x, y, r, r, light)
        s.p.glow(x + r * 2.4, y + r * 1.3, r * 2, s.pal.accent, 0.6)
        s.p.ellipse(x + r * 2.4, y + r * 1.3, r * 0.45, r * 0.45, mix(light, s.pal.accent, 0.6))


# -- land and water ------------------------------------------------------------------------------------


def ridge(rng: Random, base: float, amplitude: float, roughness: float) -> list[float]:
    """Heights at 33 points across the card by midpoint displacement: jagged when ``roughness`` is high."""
    heights = [base + rng.uniform(-amplitude, amplitude) for _ in range(2)]
    span = amplitude
    while len(heights) < 33:
        refined: list[float] = []
        for a, b in itertools.pairwise(heights):
            refined += [a, (a + b) / 2 + rng.uniform(-span, span)]
        refined.append(heights[-1])
        heights = refined
        span *= roughness
    return heights


def land(s: Scene, base: float, amplitude: float, roughness: float, colour: RGB) -> list[float]:
    heights = ridge(s.rng, base, amplitude, roughness)
    step = WIDTH / (len(heights) - 1)
    pts: list[Point] = [(i * step, h) for i, h in enumerate(heights)]
    s.p.polygon([(-2, HEIGHT + 2), *pts, (WIDTH + 2, HEIGHT + 2)], colour)
    return heights


def height_at(heights: list[float], x: float) -> float:
    step = WIDTH / (len(heights) - 1)
    i = max(0, min(len(heights) - 2, int(x / step)))
    t = (x - i * step) / step
    return heights[i] + (heights[i + 1] - heights[i]) * t


def hills(s: Scene, base: float, amplitude: float, colour: RGB) -> list[float]:
    phases = [s.rng.uniform(0, math.tau) for _ in range(3)]
    freq = s.rng.uniform(0.8, 1.6)
    heights = [
        base
        + amplitude * 0.6 * math.sin(freq * i / 32 * math.tau / 2 + phases[0])
        + amplitude * 0.3 * math.sin(freq * 2.3 * i / 32 * math.tau / 2 + phases[1])
        + amplitude * 0.1 * math.sin(freq * 5.1 * i / 32 * math.tau / 2 + phases[2])
        for i in range(33)
    ]
    step = WIDTH / 32
    s.p.polygon(
        [(-2, HEIGHT + 2), *[(i * step, h) for i, h in enumerate(heights)], (WIDTH + 2, HEIGHT + 2)], colour
    )
    return heights


def water(s: Scene, top: float, light_x: float | None) -> None:
    s.p.band(top, HEIGHT, mix(s.pal.sky_bottom, s.pal.far, 0.35), mix(s.pal.near, s.pal.sky_top, 0.3))
    if light_x is not None:
        for i in range(26):
            y = top + 3 + i * i * 0.45
            if y > HEIGHT:
                break
            half = (16 + i * 1.8) * s.rng.uniform(0.4, 1.0)
            shift = s.rng.uniform(-6, 6)
            s.p.polygon(
                [
                    (light_x + shift - half, y),
                    (light_x + shift + half, y),
                    (light_x + shift + half * 0.8, y + 1.4),
                    (light_x + shift - half * 0.8, y + 1.4),
                ],
                mix(s.pal.light, s.pal.far, i / 40),
            )
    for _ in range(18):
        y = s.rng.uniform(top + 8, HEIGHT)
        x = s.rng.uniform(0, WIDTH)
        w = 6 + (y - top) * 0.12
        s.p.line([(x - w, y), (x + w, y)], mix(s.pal.far, s.pal.light, 0.35), 0.8)


# -- things on the land --------------------------------------------------------------------------------


def door(s: Scene, x: float, ground: float, h: float) -> None:
    w = h * 0.5
    frame = s.pal.near
    s.p.soft_polygon(
        [
            (x - w / 2, ground),
            (x + w / 2, ground),
            (x + w * 2.2, ground + h * 0.9),
            (x - w * 1.6, ground + h * 0.9),
        ],
        s.pal.light,
        0.55,
        8,
    )
    s.p.glow(x, ground - h / 2, h * 1.3, s.pal.light, 0.5)
    s.p.rect(x - w / 2 - 4, ground - h, x + w / 2 + 4, ground, frame)
    s.p.ellipse(x, ground - h, w / 2 + 4, w / 2 + 4, frame)
    s.p.rect(x - w / 2, ground - h, x + w / 2, ground, s.pal.light)
    s.p.ellipse(x, ground - h, w / 2, w / 2, s.pal.light)
    leaf = mix(frame, s.pal.accent, 0.25)
    s.p.polygon(
        [
            (x + w / 2, ground - h),
            (x + w * 0.95, ground - h * 1.06),
            (x + w * 0.95, ground + h * 0.04),
            (x + w / 2, ground),
        ],
        leaf,
    )


def stairs(s: Scene, x0: float, y0: float, x1: float, y1: float) -> None:
    """Floating steps that climb from the ground towards the sky, each a slab with a lit tread."""
    length = math.hypot(x1 - x0, y1 - y0)
    steps = max(8, int(length / 24))
    bow = s.rng.uniform(-70, 70)
    for i in reversed(range(steps)):
        t = i / steps
        x = x0 + (x1 - x0) * t + bow * math.sin(t * math.pi)
        y = y0 + (y1 - y0) * t
        size = 30 * (1 - 0.6 * t)
        colour = mix(s.pal.near, s.haze(0.8), t * 0.7)
        thick = size * 0.32
        s.p.polygon(
            [(x - size, y), (x + size, y), (x + size * 0.9, y + thick), (x - size * 0.9, y + thick)], colour
        )
        s.p.polygon(
            [
                (x - size, y),
                (x + size, y),
                (x + size * 0.8, y - thick * 0.5),
                (x - size * 0.8, y - thick * 0.5),
            ],
            mix(mix(s.pal.near, s.pal.light, 0.45), colour, t * 0.5),
        )


def tower(s: Scene, x: float, ground: float, h: float, w: float, lean: float) -> None:
    body = s.pal.near
    top_x = x + lean
    s.p.polygon(
        [
            (x - w / 2, ground),
            (x + w / 2, ground),
            (top_x + w * 0.4, ground - h),
            (top_x - w * 0.4, ground - h),
        ],
        body,
    )
    roof = s.rng.random() < 0.5
    if roof:
        s.p.polygon(
            [
                (top_x - w * 0.55, ground - h),
                (top_x + w * 0.55, ground - h),
                (top_x + lean * 0.3, ground - h - w * 1.3),
            ],
            body,
        )
    else:
        s.p.rect(top_x - w * 0.5, ground - h - 10, top_x + w * 0.5, ground - h, body)
        for k in range(4):
            bx = top_x - w * 0.5 + k * w / 3.5
            s.p.rect(bx, ground - h - 18, bx + w / 7, ground - h - 9, body)
    for k in range(s.rng.randint(2, 4)):
        if s.rng.random() < 0.65:
            wy = ground - h * (0.2 + 0.22 * k)
            wx = x + lean * (wy - ground) / -h
            s.p.glow(wx, wy, 26, s.pal.light, 0.5)
            s.p.rect(wx - 3, wy - 6, wx + 3, wy + 5, s.pal.light)


def _branch(
    s: Scene, x: float, y: float, angle: float, length: float, width: float, depth: int, tips: list[Point]
) -> None:
    x2 = x + math.cos(angle) * length
    y2 = y - math.sin(angle) * length
    s.p.polygon(
        [
            (x - math.sin(angle) * width / 2, y - math.cos(angle) * width / 2),
            (x + math.sin(angle) * width / 2, y + math.cos(angle) * width / 2),
            (x2 + math.sin(angle) * width * 0.35, y2 + math.cos(angle) * width * 0.35),
            (x2 - math.sin(angle) * width * 0.35, y2 - math.cos(angle) * width * 0.35),
        ],
        s.pal.near,
    )
    if depth == 0:
        tips.append((x2, y2))
        return
    for spread in (-1, 1) if s.rng.random() < 0.8 else (-1, 0, 1):
        _branch(
            s,
            x2,
            y2,
            angle + spread * s.rng.uniform(0.25, 0.6),
            length * s.rng.uniform(0.62, 0.8),
            width * 0.68,
            depth - 1,
            tips,
        )


def tree(s: Scene, x: float, ground: float, size: float, leafy: bool) -> None:
    tips: list[Point] = []
    _branch(s, x, ground + 2, math.pi / 2 + s.rng.uniform(-0.12, 0.12), size * 0.32, size * 0.09, 6, tips)
    if leafy:
        leaf = mix(s.pal.near, s.pal.far, 0.25)
        for tx, ty in tips[:: max(1, len(tips) // 24)]:
            r = size * s.rng.uniform(0.07, 0.12)
            s.p.ellipse(tx, ty, r, r * 0.85, leaf)
        if s.rng.random() < 0.6:
            for tx, ty in tips[:: max(1, len(tips) // 6)]:
                s.p.glow(tx, ty, 18, s.pal.accent, 0.6)
                s.p.ellipse(tx, ty, 2.2, 2.2, s.pal.accent)


def house(s: Scene, x: float, ground: float, w: float) -> None:
    h = w * 0.7
    s.p.rect(x - w / 2, ground - h, x + w / 2, ground + 2, s.pal.near)
    s.p.polygon(
        [(x - w * 0.62, ground - h), (x + w * 0.62, ground - h), (x, ground - h - w * 0.55)], s.pal.near
    )
    s.p.rect(x + w * 0.2, ground - h - w * 0.5, x + w * 0.33, ground - h - w * 0.15, s.pal.near)
    for k in range(5):
        s.p.soft_ellipse(
            x + w * 0.27 + k * 6,
            ground - h - w * 0.6 - k * 14,
            5 + k * 2,
            4 + k * 2,
            mix(s.sky_at(ground - h), s.pal.light, 0.3),
            0.5,
            3,
        )
    s.p.glow(x - w * 0.15, ground - h * 0.5, w * 0.9, s.pal.light, 0.45)
    s.p.rect(x - w * 0.25, ground - h * 0.65, x - w * 0.05, ground - h * 0.35, s.pal.light)


def path(s: Scene, ground: float, end_x: float) -> None:
    colour = mix(s.pal.far, s.pal.light, 0.35)
    bend = s.rng.uniform(-120, 120)
    left: list[Point] = []
    right: list[Point] = []
    for i in range(21):
        t = i / 20
        y = HEIGHT + 5 - (HEIGHT + 5 - ground) * t
        cx = WIDTH / 2 + (end_x - WIDTH / 2) * t + bend * math.sin(t * math.pi) * (1 - t * 0.3)
        half = 75 * (1 - t) ** 1.3 + 1.5
        left.append((cx - half, y))
        right.append((cx + half, y))
    s.p.polygon([*left, *reversed(right)], colour)


def boat(s: Scene, x: float, y: float, size: float) -> None:
    hull = s.pal.near
    s.p.polygon(
        [
            (x - size, y - size * 0.18),
            (x + size, y - size * 0.18),
            (x + size * 0.7, y + size * 0.12),
            (x - size * 0.7, y + size * 0.12),
        ],
        hull,
    )
    s.p.line([(x, y - size * 0.18), (x, y - size * 1.5)], hull, 2)
    s.p.polygon(
        [(x + 2, y - size * 1.45), (x + 2, y - size * 0.3), (x + size * 0.8, y - size * 0.3)],
        mix(s.pal.light, s.pal.far, 0.2),
    )
    s.p.polygon(
        [
            (x - size, y + size * 0.15),
            (x + size, y + size * 0.15),
            (x + size * 0.7, y + size * 0.4),
            (x - size * 0.7, y + size * 0.4),
        ],
        mix(hull, s.pal.far, 0.5),
        0.5,
    )


def island(s: Scene, x: float, y: float, w: float) -> None:
    rock = s.pal.near
    pts: list[Point] = [(x - w / 2, y)]
    for i in range(1, 12):
        t = i / 12
        depth = math.sin(t * math.pi) * w * 0.75 * s.rng.uniform(0.7, 1.1)
        pts.append((x - w / 2 + w * t, y + depth))
    pts.append((x + w / 2, y))
    s.p.polygon(pts, rock)
    s.p.polygon(
        [(x - w / 2 - 4, y + 2), (x - w / 2 + 10, y - 6), (x + w / 2 - 10, y - 7), (x + w / 2 + 4, y + 2)],
        mix(rock, s.pal.far, 0.4),
    )
    for _ in range(7):
        rx = x + s.rng.uniform(-w * 0.35, w * 0.35)
        ry = y + math.sin((rx - x + w / 2) / w * math.pi) * w * 0.6
        s.p.line([(rx, ry), (rx + s.rng.uniform(-6, 6), ry + s.rng.uniform(15, 50))], rock, 1.2)


def arch(s: Scene, x: float, ground: float, w: float, h: float, inside: Palette) -> None:
    """A standing arch that opens on another sky: the other side of the arch has another palette."""
    s.p.glow(x, ground - h * 0.5, w * 1.6, inside.light, 0.5)
    s.p.rect(x - w / 2 - 12, ground - h, x + w / 2 + 12, ground + 3, s.pal.near)
    s.p.ellipse(x, ground - h, w / 2 + 12, w / 2 + 12, s.pal.near)
    s.p.arch_window(x, ground, w, h, inside.sky_top, inside.sky_bottom)
    sun_y = ground - h * 0.75
    s.p.glow(x + w * 0.1, sun_y, w * 0.6, inside.light, 0.5)
    s.p.ellipse(x + w * 0.1, sun_y, w * 0.12, w * 0.12, inside.light)
    s.p.polygon(
        [
            (x - w / 2, ground),
            (x - w / 2, ground - h * 0.2),
            (x - w * 0.1, ground - h * 0.3),
            (x + w / 2, ground - h * 0.15),
            (x + w / 2, ground),
        ],
        inside.near,
    )


def lighthouse(s: Scene, x: float, ground: float, h: float) -> None:
    w = h * 0.16
    angle = s.rng.uniform(-0.25, 0.25)
    side = s.rng.choice((-1, 1))
    top = ground - h
    s.p.soft_polygon(
        [
            (x, top - w * 0.4),
            (x + side * 420, top - w * 0.4 - 90 + angle * 200),
            (x + side * 420, top - w * 0.4 + 60 + angle * 200),
        ],
        s.pal.light,
        0.5,
        4,
    )
    s.p.polygon(
        [(x - w / 2, ground), (x + w / 2, ground), (x + w * 0.33, top), (x - w * 0.33, top)], s.pal.near
    )
    for k in range(1, 4):
        yy = ground - h * k / 4
        s.p.rect(
            x - w * 0.45 + k * 2, yy - 6, x + w * 0.45 - k * 2, yy + 6, mix(s.pal.near, s.pal.accent, 0.35)
        )
    s.p.glow(x, top - w * 0.4, 60, s.pal.light, 0.8)
    s.p.rect(x - w * 0.3, top - w * 0.8, x + w * 0.3, top, s.pal.light)
    s.p.polygon(
        [(x - w * 0.42, top - w * 0.8), (x + w * 0.42, top - w * 0.8), (x, top - w * 1.3)], s.pal.near
    )


# -- creatures and figures ------------------------------------------------------------------------------


def figure(s: Scene, x: float, feet: float, h: float, prop: str) -> None:
    body = s.pal.near
    head = h * 0.1
    # A hooded cloak: narrow neck, sloping shoulders, a hem that flares and sways to one side.
    sway = s.rng.uniform(-0.06, 0.06) * h
    s.p.polygon(
        [
            (x - h * 0.05, feet - h * 0.8),
            (x + h * 0.05, feet - h * 0.8),
            (x + h * 0.13, feet - h * 0.7),
            (x + h * 0.15, feet - h * 0.4),
            (x + h * 0.2 + sway, feet),
            (x - h * 0.2 + sway, feet),
            (x - h * 0.15, feet - h * 0.4),
            (x - h * 0.13, feet - h * 0.7),
        ],
        body,
    )
    s.p.ellipse(x, feet - h * 0.87, head, head * 1.1, body)
    s.p.polygon(
        [(x - head, feet - h * 0.86), (x + head * 0.3, feet - h * 1.04), (x + head, feet - h * 0.86)], body
    )
    if prop == "lantern":
        lx, ly = x + h * 0.25, feet - h * 0.42
        s.p.line([(x + h * 0.08, feet - h * 0.6), (lx, ly - 5)], body, 1.5)
        s.p.glow(lx, ly, h * 1.1, s.pal.light, 0.7)
        s.p.ellipse(lx, ly, 3.5, 4.5, s.pal.light)
    elif prop == "balloon":
        bx, by = x + h * 0.3, feet - h * 1.5
        s.p.line([(x + h * 0.08, feet - h * 0.6), (bx, by + h * 0.16)], body, 1)
        s.p.ellipse(bx, by, h * 0.14, h * 0.17, s.pal.accent)
        s.p.ellipse(bx - h * 0.04, by - h * 0.06, h * 0.04, h * 0.05, mix(s.pal.accent, s.pal.light, 0.6))
    elif prop == "umbrella":
        s.p.line([(x, feet - h * 0.6), (x, feet - h * 1.15)], body, 1.5)
        s.p.pieslice(x, feet - h * 1.1, h * 0.4, 180, 360, s.pal.accent)
    elif prop == "staff":
        s.p.line([(x - h * 0.22, feet), (x - h * 0.26, feet - h * 1.05)], body, 2)
        s.p.glow(x - h * 0.26, feet - h * 1.08, h * 0.6, s.pal.accent, 0.7)


def birds(s: Scene, x: float, y: float, count: int, spread: float) -> None:
    for _ in range(count):
        bx, by = x + s.rng.uniform(-spread, spread), y + s.rng.uniform(-spread * 0.5, spread * 0.5)
        w = s.rng.uniform(4, 9)
        flap = s.rng.uniform(-0.3, 0.5) * w
        s.p.line(
            [
                (bx - w, by - flap),
                (bx - w * 0.3, by - w * 0.15),
                (bx, by + 1),
                (bx + w * 0.3, by - w * 0.15),
                (bx + w, by - flap),
            ],
            s.pal.near,
            1.4,
        )


def whale(s: Scene, x: float, y: float, size: float, fill: RGB) -> None:
    d = s.rng.choice((-1, 1))
    s.p.ellipse(x, y, size, size * 0.36, fill)
    s.p.ellipse(x + d * size * 0.25, y + size * 0.1, size * 0.8, size * 0.28, fill)
    tail = x - d * size * 1.0
    s.p.polygon(
        [
            (x - d * size * 0.6, y - size * 0.1),
            (tail - d * size * 0.3, y - size * 0.45),
            (tail - d * size * 0.1, y),
            (tail - d * size * 0.35, y + size * 0.25),
            (x - d * size * 0.6, y + size * 0.1),
        ],
        fill,
    )
    s.p.polygon(
        [
            (x + d * size * 0.2, y + size * 0.25),
            (x + d * size * 0.05, y + size * 0.6),
            (x + d * size * 0.45, y + size * 0.28),
        ],
        fill,
    )
    s.p.ellipse(x + d * size * 0.6, y - size * 0.04, 2.5, 2.5, s.pal.light)


def fish_school(s: Scene, x: float, y: float, count: int) -> None:
    d = s.rng.choice((-1, 1))
    for _ in range(count):
        fx, fy, size = x + s.rng.uniform(-90, 90), y + s.rng.uniform(-60, 60), s.rng.uniform(6, 13)
        colour = mix(s.pal.accent, s.pal.light, s.rng.random() * 0.5)
        s.p.ellipse(fx, fy, size, size * 0.45, colour)
        s.p.polygon(
            [
                (fx - d * size * 0.8, fy),
                (fx - d * size * 1.5, fy - size * 0.5),
                (fx - d * size * 1.5, fy + size * 0.5),
            ],
            colour,
        )


def cat(s: Scene, x: float, feet: float, h: float) -> None:
    c = s.pal.near
    s.p.ellipse(x, feet - h * 0.3, h * 0.28, h * 0.32, c)
    s.p.ellipse(x, feet - h * 0.72, h * 0.17, h * 0.15, c)
    for side in (-1, 1):
        s.p.polygon(
            [
                (x + side * h * 0.16, feet - h * 0.76),
                (x + side * h * 0.15, feet - h * 0.98),
                (x + side * h * 0.03, feet - h * 0.84),
            ],
            c,
        )
    tail = [
        (x + h * 0.25, feet - h * 0.05),
        (x + h * 0.45, feet - h * 0.1),
        (x + h * 0.5, feet - h * 0.3),
        (x + h * 0.42, feet - h * 0.5),
    ]
    s.p.line(tail, c, h * 0.06)
    for side in (-1, 1):
        s.p.ellipse(x + side * h * 0.065, feet - h * 0.73, h * 0.025, h * 0.018, s.pal.accent)


def rabbit(s: Scene, x: float, feet: float, h: float) -> None:
    c = s.pal.near
    s.p.ellipse(x, feet - h * 0.25, h * 0.3, h * 0.25, c)
    s.p.ellipse(x + h * 0.22, feet - h * 0.5, h * 0.14, h * 0.13, c)
    s.p.polygon(
        [(x + h * 0.18, feet - h * 0.58), (x + h * 0.1, feet - h * 1.05), (x + h * 0.22, feet - h * 0.6)], c
    )
    s.p.polygon(
        [(x + h * 0.26, feet - h * 0.58), (x + h * 0.32, feet - h * 1.0), (x + h * 0.3, feet - h * 0.56)], c
    )
    s.p.ellipse(x - h * 0.3, feet - h * 0.25, h * 0.07, h * 0.07, mix(c, s.pal.light, 0.4))


def stag(s: Scene, x: float, feet: float, h: float) -> None:
    c = s.pal.near
    s.p.ellipse(x, feet - h * 0.55, h * 0.38, h * 0.16, c)
    for lx in (-0.28, -0.18, 0.2, 0.3):
        s.p.line([(x + lx * h, feet - h * 0.5), (x + lx * h, feet)], c, h * 0.035)
    s.p.polygon(
        [
            (x + h * 0.22, feet - h * 0.6),
            (x + h * 0.36, feet - h * 0.95),
            (x + h * 0.44, feet - h * 0.92),
            (x + h * 0.34, feet - h * 0.55),
        ],
        c,
    )
    s.p.ellipse(x + h * 0.44, feet - h * 0.95, h * 0.1, h * 0.06, c)
    for side in (-1, 1):
        base = (x + h * 0.4, feet - h * 1.0)
        top = (base[0] + side * h * 0.18, base[1] - h * 0.35)
        s.p.line([base, top], c, 2)
        for k in (0.35, 0.65):
            px, py = base[0] + (top[0] - base[0]) * k, base[1] + (top[1] - base[1]) * k
            s.p.line([(px, py), (px + side * h * 0.12, py - h * 0.08)], c, 1.5)


def jellyfish(s: Scene, x: float, y: float, size: float) -> None:
    colour = mix(s.pal.accent, s.pal.light, 0.4)
    s.p.glow(x, y, size * 3, colour, 0.5)
    s.p.pieslice(x, y, size, 180, 360, colour)
    for k in range(5):
        tx = x - size * 0.7 + k * size * 0.35
        pts = [(tx + math.sin(j * 0.9 + k) * 3, y + j * size * 0.35) for j in range(8)]
        s.p.line(pts, colour, 1.2)


def owl(s: Scene, x: float, y: float, h: float) -> None:
    c = s.pal.near
    s.p.ellipse(x, y - h * 0.4, h * 0.28, h * 0.42, c)
    s.p.polygon([(x - h * 0.26, y - h * 0.7), (x - h * 0.2, y - h * 0.95), (x - h * 0.05, y - h * 0.76)], c)
    s.p.polygon([(x + h * 0.26, y - h * 0.7), (x + h * 0.2, y - h * 0.95), (x + h * 0.05, y - h * 0.76)], c)
    for side in (-1, 1):
        s.p.ellipse(x + side * h * 0.11, y - h * 0.62, h * 0.07, h * 0.07, s.pal.accent)
