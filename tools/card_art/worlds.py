"""Families with no ordinary ground: impossible architecture, underwater, a view from above, a dream
pattern, and high in the sky.
"""

from __future__ import annotations

import math

from card_art import motifs as m
from card_art import objects
from card_art.motifs import Scene
from card_art.painter import HEIGHT, WIDTH
from card_art.palettes import PALETTES, mix

IMPOSSIBLE_SUBJECTS = {
    "loop": "a staircase that climbs back to where it starts",
    "hanging": "an upside-down tower hanging from a cloud",
    "sky_door": "a bridge ending at a door in mid-air",
    "stack": "houses stacked into a leaning tower",
    "arches": "arches standing inside one another",
}
IMPOSSIBLE_SETTINGS = {"clouds": "above the clouds", "lake": "over a still lake", "fog": "in thick fog"}
UNDERWATER_SUBJECTS = {
    "ship": "a sunken ship",
    "whale": "a whale",
    "jellyfish": "drifting jellyfish",
    "diver": "a diver with a lantern",
    "door": "a door standing on the sea bed",
    "key": "a key lying on the sea bed",
}
UNDERWATER_SETTINGS = {
    "kelp": "in a kelp forest",
    "bubbles": "among rising bubbles",
    "sand": "over pale sand",
}
AERIAL_SUBJECTS = {
    "maze": "a hedge maze seen from above",
    "river": "a river winding through fields, seen from above",
    "roofs": "rooftops of a small town, seen from above",
    "sea_boat": "a boat on a calm sea, seen from above",
    "table": "a round table set for tea, seen from above",
    "forest": "a forest with one clearing, seen from above",
}
AERIAL_SETTINGS = {
    "walker": "one tiny walker crossing it",
    "kite": "a kite's shadow over it",
    "birds": "birds flying over it",
}
DREAM_SUBJECTS = {
    "eye": "rings of colour around an open eye",
    "spiral": "a spiral of doors",
    "tiles": "a wall of tiles with one missing",
    "birds": "a checkerboard turning into birds",
    "waves": "waves of pattern",
}
DREAM_SETTINGS = {
    "key": "a key at its heart",
    "figure": "a small figure at its centre",
    "fish": "fish swimming through it",
}
SKY_SUBJECTS = {
    "ship": "a flying ship with sails",
    "whale": "a whale swimming among clouds",
    "kite": "a child lifted by a kite",
    "balloon_house": "a house carried by balloons",
    "fish": "a shoal of fish in the open sky",
}
SKY_SETTINGS = {"clouds": "between banks of cloud", "birds": "among birds", "falling": "under falling stars"}


def _cloud_floor(s: Scene, top: float) -> None:
    s.p.band(top, HEIGHT, mix(s.pal.sky_bottom, s.pal.light, 0.45), mix(s.pal.sky_bottom, s.pal.light, 0.7))
    for k in range(9):
        m.clouds(s, 1, top - 10 + k * 8, top + k * 12)


def impossible(s: Scene) -> None:
    s.p.band(0, HEIGHT, s.pal.sky_top, s.pal.sky_bottom)
    base = s.rng.uniform(440, 480)
    if s.setting == "clouds":
        _cloud_floor(s, base)
    elif s.setting == "lake":
        s.p.band(base, HEIGHT, mix(s.pal.sky_bottom, s.pal.far, 0.2), mix(s.pal.sky_top, s.pal.far, 0.4))
    body, lit = mix(s.pal.near, s.pal.far, 0.3), mix(s.pal.far, s.pal.light, 0.5)
    cx = WIDTH / 2 + s.rng.uniform(-30, 30)
    if s.subject == "loop":
        for side, (x0, y0) in enumerate(
            ((cx - 120, base - 60), (cx + 120, base - 180), (cx - 60, base - 300))
        ):
            for k in range(7):
                d = 1 if side % 2 == 0 else -1
                x, y = x0 + d * k * 24, y0 - k * 14
                s.p.rect(x - 14, y, x + 14, y + 30, body)
                s.p.rect(x - 14, y, x + 14, y + 5, lit)
        m.figure(s, cx - 80, base - 100, 24, "")
        m.figure(s, cx + 80, base - 250, 24, "lantern")
    elif s.subject == "hanging":
        m.clouds(s, 3, 40, 90)
        s.p.soft_ellipse(cx, 70, 160, 50, mix(s.pal.light, s.pal.sky_top, 0.3), 0.9, 6)
        s.p.polygon([(cx - 40, 90), (cx + 40, 90), (cx + 28, 330), (cx - 28, 330)], body)
        s.p.polygon([(cx - 34, 330), (cx + 34, 330), (cx, 400)], body)
        for k in range(4):
            s.p.rect(cx - 4, 130 + k * 48, cx + 4, 142 + k * 48, s.pal.light)
    elif s.subject == "sky_door":
        s.p.polygon([(0, base - 20), (cx, base - 180), (cx + 10, base - 172), (0, base)], body)
        m.door(s, cx + 40, base - 170, 110)
        m.figure(s, cx * 0.45, base - 80, 34, "staff")
    elif s.subject == "stack":
        y, lean = base, 0.0
        for k in range(7):
            w = 90 - k * 6
            lean += s.rng.uniform(-14, 14)
            m.house(s, cx + lean, y, w)
            y -= w * 1.3
    else:  # arches
        for k in range(5):
            w, h = 300 - k * 55, 330 - k * 58
            inside = PALETTES[(PALETTES.index(s.pal) + 3 * k + 3) % len(PALETTES)]
            m.arch(s, cx, base, w, h, inside)
    s.light_at = (cx, base - 200)
    if s.setting == "fog":
        s.p.soft_ellipse(WIDTH / 2, base, 300, 90, mix(s.pal.sky_bottom, s.pal.light, 0.5), 0.85, 20)
        s.p.band(
            base + 40,
            HEIGHT,
            mix(s.pal.sky_bottom, s.pal.light, 0.5),
            mix(s.pal.sky_bottom, s.pal.light, 0.4),
        )


def underwater(s: Scene) -> None:
    deep = PALETTES[7] if s.pal.name in ("desert", "golden", "ember") else s.pal
    top = mix(deep.light, deep.sky_bottom, 0.35)
    s.p.band(0, HEIGHT, top, mix(deep.sky_top, deep.far, 0.3))
    for _ in range(6):  # light from the surface
        x = s.rng.uniform(0, WIDTH)
        s.p.soft_polygon(
            [(x - 10, 0), (x + 20, 0), (x + 110, HEIGHT), (x + 40, HEIGHT)], s.pal.light, 0.25, 10
        )
    floor = s.rng.uniform(470, 520)
    sand = mix(s.pal.light, s.pal.far, 0.45)
    s.p.polygon(
        [
            (0, floor),
            *[(x, floor + 12 * math.sin(x / 50)) for x in range(0, WIDTH + 1, 20)],
            (WIDTH, HEIGHT),
            (0, HEIGHT),
        ],
        sand,
    )
    cx = WIDTH / 2 + s.rng.uniform(-50, 50)
    body = mix(s.pal.near, deep.far, 0.4)
    subject = s.subject
    if subject == "ship":
        s.p.polygon(
            [(cx - 130, floor - 60), (cx + 120, floor - 90), (cx + 90, floor + 10), (cx - 100, floor + 15)],
            body,
        )
        s.p.line([(cx - 10, floor - 75), (cx + 40, floor - 300)], body, 6)
        s.p.polygon(
            [(cx + 36, floor - 280), (cx + 120, floor - 230), (cx + 14, floor - 130)],
            mix(body, s.pal.light, 0.3),
        )
    elif subject == "whale":
        m.whale(s, cx, 260, 150, body)
    elif subject == "jellyfish":
        for _ in range(7):
            m.jellyfish(s, s.rng.uniform(50, 350), s.rng.uniform(80, floor - 80), s.rng.uniform(16, 34))
    elif subject == "diver":
        s.p.ellipse(cx, 250, 34, 34, body)
        s.p.ellipse(cx, 250, 22, 22, mix(s.pal.light, s.pal.far, 0.3))
        s.p.polygon([(cx - 40, 280), (cx + 40, 280), (cx + 30, 420), (cx - 30, 420)], body)
        objects.lantern(s, cx + 60, 330, 40)
    elif subject == "door":
        m.door(s, cx, floor + 5, 180)
    else:
        objects.key(s, cx, floor - 40, 140)
    s.light_at = (cx, 260)
    if s.setting == "kelp":
        for k in range(9):
            x = 20 + k * 45 + s.rng.uniform(-10, 10)
            pts = [(x + 14 * math.sin(j * 0.7 + k), floor + 10 - j * 40) for j in range(s.rng.randint(5, 10))]
            s.p.line(pts, mix(s.pal.far, s.pal.accent, 0.3), 5)
    elif s.setting == "bubbles":
        for _ in range(40):
            r = s.rng.uniform(2, 7)
            s.p.ellipse(
                s.rng.uniform(0, WIDTH), s.rng.uniform(0, floor), r, r, mix(s.pal.light, top, 0.5), 0.7
            )
    else:
        m.fish_school(s, s.rng.uniform(100, 300), s.rng.uniform(120, 380), 9)


def aerial(s: Scene) -> None:
    field, dark, lit = (
        mix(s.pal.far, s.pal.light, 0.3),
        mix(s.pal.near, s.pal.far, 0.4),
        mix(s.pal.light, s.pal.accent, 0.3),
    )
    s.p.band(0, HEIGHT, field, mix(field, s.pal.sky_bottom, 0.3))
    x: float
    y: float
    subject = s.subject
    if subject == "maze":
        cell = 40
        for row in range(HEIGHT // cell + 1):
            for col in range(WIDTH // cell + 1):
                x, y = col * cell, row * cell
                if s.rng.random() < 0.5:
                    s.p.rect(x, y, x + cell, y + 10, dark)
                else:
                    s.p.rect(x, y, x + 10, y + cell, dark)
    elif subject == "river":
        strip = s.rng.uniform(30, 70)
        for k in range(int(HEIGHT / strip) + 1):
            tilt = s.rng.uniform(-30, 30)
            s.p.polygon(
                [
                    (0, k * strip),
                    (WIDTH, k * strip + tilt),
                    (WIDTH, k * strip + tilt + strip / 2),
                    (0, k * strip + strip / 2),
                ],
                mix(field, s.pal.accent, 0.12 * (k % 3)),
            )
        bend, wave, phase = s.rng.uniform(60, 150), s.rng.uniform(50, 130), s.rng.uniform(0, math.tau)
        middle = s.rng.uniform(130, 270)
        pts = [(middle + bend * math.sin(y / wave + phase), y) for y in range(-10, HEIGHT + 20, 20)]
        s.p.line(pts, mix(s.pal.sky_top, s.pal.light, 0.3), 34)
    elif subject == "roofs":
        for _ in range(22):
            x, y = s.rng.uniform(0, WIDTH), s.rng.uniform(0, HEIGHT)
            w, h = s.rng.uniform(40, 80), s.rng.uniform(30, 60)
            s.p.polygon([(x, y), (x + w, y), (x + w * 0.5, y + h * 0.5)], mix(s.pal.accent, s.pal.near, 0.3))
            s.p.polygon(
                [(x, y + h), (x + w, y + h), (x + w * 0.5, y + h * 0.5)], mix(s.pal.accent, s.pal.near, 0.55)
            )
            s.p.polygon([(x, y), (x + w * 0.5, y + h * 0.5), (x, y + h)], mix(s.pal.accent, s.pal.far, 0.2))
    elif subject == "sea_boat":
        s.p.band(0, HEIGHT, mix(s.pal.sky_top, s.pal.far, 0.3), mix(s.pal.sky_bottom, s.pal.far, 0.3))
        for _ in range(60):
            y, x = s.rng.uniform(0, HEIGHT), s.rng.uniform(0, WIDTH)
            s.p.line([(x, y), (x + 18, y + 2)], mix(s.pal.light, s.pal.far, 0.5), 1)
        cx, cy = s.rng.uniform(140, 260), s.rng.uniform(220, 380)
        s.p.polygon([(cx, cy - 50), (cx + 18, cy), (cx, cy + 45), (cx - 18, cy)], dark)
        s.p.line([(cx, cy + 45), (cx - 20, cy + 200)], mix(s.pal.light, s.pal.far, 0.3), 3)
    elif subject == "table":
        cx, cy, r = s.rng.uniform(140, 260), s.rng.uniform(220, 380), s.rng.uniform(120, 175)
        s.p.ellipse(cx, cy, r + 10, r + 10, mix(s.pal.far, s.pal.near, 0.3))
        s.p.ellipse(cx, cy, r, r, lit)
        seats = s.rng.randint(3, 7)
        for k in range(seats):
            a = k * math.tau / seats + s.rng.uniform(0, 0.3)
            px, py = cx + math.cos(a) * r * 0.66, cy + math.sin(a) * r * 0.66
            s.p.ellipse(px, py, 26, 26, mix(s.pal.light, s.pal.far, 0.2))
            s.p.ellipse(px, py, 12, 12, dark)
        s.p.ellipse(cx, cy, 30, 30, s.pal.accent)
    else:  # forest
        clearing = (s.rng.uniform(120, 280), s.rng.uniform(200, 400))
        for _ in range(160):
            x, y = s.rng.uniform(-20, WIDTH + 20), s.rng.uniform(-20, HEIGHT + 20)
            if math.hypot(x - clearing[0], y - clearing[1]) < 70:
                continue
            r = s.rng.uniform(16, 30)
            s.p.ellipse(x, y, r, r, mix(dark, s.pal.accent, s.rng.random() * 0.3))
    s.light_at = (WIDTH / 2, HEIGHT / 2)
    if s.setting == "walker":
        x, y = s.rng.uniform(100, 300), s.rng.uniform(150, 450)
        s.p.ellipse(x, y, 5, 5, s.pal.near)
        s.p.line([(x, y), (x + 14, y + 20)], mix(s.pal.near, field, 0.5), 3)
    elif s.setting == "kite":
        x, y = s.rng.uniform(100, 300), s.rng.uniform(150, 450)
        s.p.polygon([(x, y - 30), (x + 20, y), (x, y + 30), (x - 20, y)], mix(dark, field, 0.3), 0.6)
    else:
        m.birds(s, s.rng.uniform(120, 280), s.rng.uniform(150, 450), 8, 80)


def dream(s: Scene) -> None:
    s.p.band(0, HEIGHT, s.pal.sky_top, s.pal.sky_bottom)
    cx, cy = s.rng.uniform(130, 270), s.rng.uniform(220, 380)
    colours = [s.pal.far, s.pal.accent, s.pal.light, s.pal.sky_top, s.pal.near]
    subject = s.subject
    if subject == "eye":
        ring = s.rng.uniform(18, 40)
        for k in range(int(480 / ring), 0, -1):
            s.p.ellipse(cx, cy, ring * k, ring * k, colours[k % len(colours)])
        s.p.ellipse(cx, cy, 80, 40, s.pal.light)
        s.p.ellipse(cx, cy, 30, 30, s.pal.near)
    elif subject == "spiral":
        turn, grow, twist = s.rng.uniform(0, math.tau), s.rng.uniform(4.5, 7.5), s.rng.uniform(0.4, 0.65)
        for k in range(40):
            a, r = turn + k * twist, 8 + k * grow
            x, y = cx + math.cos(a) * r, cy + math.sin(a) * r
            size = 8 + k * 1.2
            s.p.rect(x - size * 0.3, y - size * 0.5, x + size * 0.3, y + size * 0.5, colours[k % 3])
    elif subject == "tiles":
        gap = s.rng.randrange(70)
        for k in range(70):
            row, col = divmod(k, 7)
            x, y = col * 58 + 6, row * 60 + 4
            if k == gap:
                s.p.glow(x + 25, y + 26, 60, s.pal.light, 0.8)
                continue
            s.p.rect(x, y, x + 52, y + 54, colours[(row * 3 + col) % 4])
            s.p.ellipse(x + 26, y + 27, 12, 12, colours[(row + col + 2) % 5])
    elif subject == "birds":
        c = s.rng.uniform(38, 66)
        slope, edge = s.rng.uniform(-0.8, 0.8), s.rng.uniform(0.3, 0.7) * HEIGHT
        for row in range(int(HEIGHT / c) + 1):
            for col in range(int(WIDTH / c) + 1):
                x, y = col * c, row * c
                if (row + col) % 2:
                    continue
                if y < edge + slope * (x - WIDTH / 2):  # above the edge the squares fly off as birds
                    wing = [
                        (x, y + c / 2),
                        (x + c / 2, y + c / 5),
                        (x + c, y + c / 2),
                        (x + c / 2, y + c / 3),
                    ]
                    s.p.polygon(wing, s.pal.near)
                else:
                    s.p.rect(x, y, x + c, y + c, s.pal.near)
    else:  # waves
        spacing, high, wide = s.rng.uniform(28, 52), s.rng.uniform(6, 26), s.rng.uniform(18, 45)
        phase = s.rng.uniform(0, 6)
        for row in range(int(HEIGHT / spacing) + 2):
            pts = [
                (x, row * spacing + high * math.sin(x / wide + row * 0.7 + phase))
                for x in range(0, WIDTH + 1, 10)
            ]
            s.p.line(pts, colours[row % len(colours)], spacing * 0.3)
    s.light_at = (cx, cy)
    if s.setting == "key":
        objects.key(s, cx, cy, 90)
    elif s.setting == "figure":
        m.figure(s, cx, cy + 40, 70, "lantern")
    else:
        m.fish_school(s, cx, cy + 120, 12)


def skyward(s: Scene) -> None:
    s.p.band(0, HEIGHT, s.pal.sky_top, mix(s.pal.sky_bottom, s.pal.light, 0.3))
    if s.pal.starry or s.setting == "falling":
        m.stars(s, 60, HEIGHT)
    m.clouds(s, 4, 380, 560)
    m.clouds(s, 3, 40, 200)
    cx, cy = WIDTH / 2 + s.rng.uniform(-40, 40), s.rng.uniform(260, 340)
    body = mix(s.pal.near, s.pal.far, 0.2)
    subject = s.subject
    if subject == "ship":
        m.boat(s, cx, cy, 110)
        for side in (-1, 1):
            s.p.polygon(
                [(cx + side * 60, cy - 10), (cx + side * 170, cy - 60), (cx + side * 150, cy + 10)],
                mix(s.pal.light, s.pal.far, 0.3),
            )
    elif subject == "whale":
        m.whale(s, cx, cy, 150, body)
    elif subject == "kite":
        kx, ky = cx + 60, cy - 140
        s.p.polygon([(kx, ky - 50), (kx + 36, ky), (kx, ky + 60), (kx - 36, ky)], s.pal.accent)
        s.p.line([(kx, ky + 60), (cx - 30, cy + 80)], s.pal.near, 1.5)
        m.figure(s, cx - 30, cy + 150, 80, "")
    elif subject == "balloon_house":
        m.house(s, cx, cy + 120, 90)
        for _ in range(14):
            bx, by = cx + s.rng.uniform(-90, 90), cy - s.rng.uniform(60, 200)
            s.p.line([(cx, cy + 20), (bx, by)], s.pal.near, 1)
            s.p.ellipse(bx, by, 16, 19, mix(s.pal.accent, s.pal.light, s.rng.random() * 0.5))
    else:
        m.fish_school(s, cx, cy, 26)
    s.light_at = (cx, cy)
    if s.setting == "birds":
        m.birds(s, cx, cy - 160, 10, 120)
    elif s.setting == "falling":
        for _ in range(5):
            x, y = s.rng.uniform(0, WIDTH), s.rng.uniform(20, 250)
            s.p.line([(x, y), (x - 40, y - 20)], s.pal.light, 1.5)
