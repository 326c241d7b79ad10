"""Families about characters: a figure large in frame, two figures meeting, and scale play.

Their grounds are lit (a stage, snow, a tabletop) so the characters stand out as silhouettes against
light rather than sitting on a dark horizon.
"""

from __future__ import annotations

import math

from card_art import motifs as m
from card_art import objects
from card_art.motifs import Scene
from card_art.painter import HEIGHT, WIDTH
from card_art.palettes import mix

PORTRAIT_SUBJECTS = {
    "hood": "a hooded figure seen up close",
    "crown": "a king in a paper crown",
    "hat": "a stranger in a tall hat",
    "starry": "a woman whose hair is full of stars",
    "antlers": "a figure with antlers",
}
PORTRAIT_SETTINGS = {
    "lantern": "holding up a lantern",
    "bird": "with a bird on the shoulder",
    "door": "in front of a glowing door",
    "stripes": "against striped wallpaper",
    "key": "with a key on a string",
}
ENCOUNTER_SUBJECTS = {
    "lantern": "two figures passing a lantern between them",
    "stag": "a traveller meeting a stag",
    "cat_owl": "a cat and an owl face to face",
    "dance": "two figures dancing",
    "key": "a figure handing a key to a rabbit",
}
ENCOUNTER_SETTINGS = {
    "bridge": "on a bridge",
    "snow": "in a snowy field",
    "chess": "on a chessboard floor",
    "spot": "in a ring of light",
}
SCALE_SUBJECTS = {
    "teacup": "a giant teacup",
    "clock": "a giant clock",
    "book": "a giant open book",
    "key": "a giant key",
    "hourglass": "a giant hourglass",
    "cat": "a giant cat",
    "rabbit": "a giant rabbit",
}
SCALE_SETTINGS = {
    "ladder": "a tiny figure climbing a ladder against it",
    "walker": "a tiny walker with a lantern at its foot",
    "house": "a tiny house beside it",
    "birds": "tiny birds circling it",
}


def _backdrop(s: Scene) -> None:
    s.p.band(0, HEIGHT, mix(s.pal.sky_top, s.pal.far, 0.3), mix(s.pal.sky_bottom, s.pal.light, 0.3))


def _bust(s: Scene, x: float, chin: float, size: float) -> None:
    body = s.pal.near
    s.p.polygon(
        [(x - size * 0.12, chin), (x + size * 0.12, chin), (x + size * 0.65, chin + size * 0.55),
         (x + size * 0.8, HEIGHT + 5), (x - size * 0.8, HEIGHT + 5), (x - size * 0.65, chin + size * 0.55)],
        body,
    )  # fmt: skip
    s.p.ellipse(x, chin - size * 0.3, size * 0.25, size * 0.32, body)
    head_top = chin - size * 0.62
    if s.subject == "hood":
        s.p.polygon(
            [
                (x - size * 0.4, chin + size * 0.2),
                (x, head_top - size * 0.15),
                (x + size * 0.4, chin + size * 0.2),
            ],
            body,
        )
        s.p.ellipse(x, chin - size * 0.28, size * 0.16, size * 0.22, mix(body, s.pal.far, 0.3))
        for side in (-1, 1):
            s.p.ellipse(x + side * size * 0.06, chin - size * 0.3, 3, 3, s.pal.light)
    elif s.subject == "crown":
        w = size * 0.24
        s.p.polygon(
            [(x - w, head_top + 18), (x - w, head_top - 22), (x - w / 2, head_top), (x, head_top - 30),
             (x + w / 2, head_top), (x + w, head_top - 22), (x + w, head_top + 18)],
            mix(s.pal.accent, s.pal.light, 0.4),
        )  # fmt: skip
    elif s.subject == "hat":
        s.p.rect(x - size * 0.38, head_top + 12, x + size * 0.38, head_top + 22, body)
        s.p.rect(x - size * 0.2, head_top - size * 0.4, x + size * 0.2, head_top + 14, body)
        s.p.rect(x - size * 0.2, head_top - 4, x + size * 0.2, head_top + 6, s.pal.accent)
    elif s.subject == "starry":
        hair = mix(s.pal.near, s.pal.sky_top, 0.3)
        s.p.ellipse(x, head_top + size * 0.2, size * 0.5, size * 0.38, hair)
        s.p.ellipse(x, chin - size * 0.3, size * 0.25, size * 0.32, body)
        for _ in range(40):
            a, d = s.rng.uniform(math.pi, math.tau), s.rng.uniform(0.3, 1.0)
            sx, sy = x + math.cos(a) * size * 0.48 * d, head_top + size * 0.2 + math.sin(a) * size * 0.36 * d
            s.p.ellipse(sx, sy, 1.3, 1.3, s.pal.light)
    else:  # antlers
        for side in (-1, 1):
            base = (x + side * size * 0.12, head_top + 10)
            tip = (x + side * size * 0.5, head_top - size * 0.35)
            s.p.line([base, tip], body, 5)
            for k in (0.4, 0.7):
                px, py = base[0] + (tip[0] - base[0]) * k, base[1] + (tip[1] - base[1]) * k
                s.p.line([(px, py), (px + side * size * 0.05, py - size * 0.16)], body, 3)


def portrait(s: Scene) -> None:
    _backdrop(s)
    # A soft patch of light somewhere behind: portraits of one kind should not share one layout.
    lx, ly = s.rng.uniform(40, 360), s.rng.uniform(60, 300)
    s.p.soft_ellipse(lx, ly, s.rng.uniform(80, 160), s.rng.uniform(60, 200), s.pal.light, 0.45, 30)
    x = WIDTH / 2 + s.rng.uniform(-40, 40)
    size = s.rng.uniform(300, 360)
    chin = s.rng.uniform(330, 370)
    if s.setting == "stripes":
        for k in range(0, WIDTH, 36):
            s.p.rect(k, 0, k + 16, HEIGHT, mix(s.pal.far, s.pal.accent, 0.2))
    elif s.setting == "door":
        m.door(s, x + s.rng.choice((-1, 1)) * 110, chin + 60, 220)
    _bust(s, x, chin, size)
    s.light_at = (x, chin - size * 0.3)
    side = s.rng.choice((-1, 1))
    if s.setting == "lantern":
        objects.lantern(s, x + side * size * 0.5, chin + 20, 90)
    elif s.setting == "bird":
        bx, by = x + side * size * 0.42, chin + size * 0.2
        s.p.ellipse(bx, by, 22, 14, s.pal.accent)
        s.p.ellipse(bx + side * 16, by - 12, 10, 9, s.pal.accent)
        s.p.polygon(
            [(bx + side * 26, by - 12), (bx + side * 36, by - 9), (bx + side * 25, by - 7)], s.pal.light
        )
    elif s.setting == "key":
        s.p.line(
            [(x - size * 0.12, chin + 10), (x, chin + 90), (x + size * 0.12, chin + 10)], s.pal.accent, 1.5
        )
        objects.key(s, x, chin + 130, 80)


def _ground(s: Scene, top: float) -> None:
    setting = s.setting
    if setting == "snow":
        s.p.band(top, HEIGHT, mix(s.pal.light, s.pal.far, 0.25), mix(s.pal.light, (255, 255, 255), 0.3))
        for _ in range(60):
            s.p.ellipse(s.rng.uniform(0, WIDTH), s.rng.uniform(0, top), 1.5, 1.5, s.pal.light)
    elif setting == "chess":
        s.p.band(top, HEIGHT, mix(s.pal.far, s.pal.light, 0.5), mix(s.pal.far, s.pal.light, 0.5))
        dark = mix(s.pal.far, s.pal.near, 0.3)
        for row in range(8):
            y0 = top + (HEIGHT - top) * (row / 8) ** 1.3
            y1 = top + (HEIGHT - top) * ((row + 1) / 8) ** 1.3
            for col in range(-4, 14):
                if (row + col) % 2:
                    continue
                spread = 1 + row * 0.35
                x0, x1 = WIDTH / 2 + (col - 5) * 40 * spread, WIDTH / 2 + (col - 4) * 40 * spread
                s.p.polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], dark)
    elif setting == "bridge":
        s.p.band(
            top + 40, HEIGHT, mix(s.pal.far, s.pal.sky_bottom, 0.4), mix(s.pal.sky_bottom, s.pal.light, 0.4)
        )
        s.p.polygon(
            [(0, top), (WIDTH, top), (WIDTH, top + 22), (0, top + 22)], mix(s.pal.near, s.pal.far, 0.3)
        )
        for k in range(0, WIDTH + 1, 50):
            s.p.line([(k, top), (k, top - 40)], mix(s.pal.near, s.pal.far, 0.3), 3)
        s.p.line([(0, top - 40), (WIDTH, top - 40)], mix(s.pal.near, s.pal.far, 0.3), 3)
        s.p.pieslice(WIDTH / 2, top + 240, 200, 180, 360, mix(s.pal.far, s.pal.near, 0.2))
    else:  # spot
        s.p.band(top, HEIGHT, mix(s.pal.far, s.pal.near, 0.2), mix(s.pal.far, s.pal.sky_bottom, 0.3))
        s.p.soft_ellipse(WIDTH / 2, top + 60, 170, 50, s.pal.light, 0.7, 8)


def encounter(s: Scene) -> None:
    s.p.band(0, HEIGHT, s.pal.sky_top, s.pal.sky_bottom)
    feet = s.rng.uniform(420, 470)
    _ground(s, feet - 10 if s.setting != "bridge" else feet)
    if s.setting == "bridge":
        feet = feet + 2
    gap = s.rng.uniform(60, 90)
    left, right = WIDTH / 2 - gap, WIDTH / 2 + gap
    subject = s.subject
    if subject == "lantern":
        m.figure(s, left, feet, 150, "")
        m.figure(s, right, feet, 135, "")
        objects.lantern(s, WIDTH / 2, feet - 80, 40)
    elif subject == "stag":
        m.figure(s, left - 10, feet, 140, "staff")
        m.stag(s, right + 10, feet, 160)
    elif subject == "cat_owl":
        m.cat(s, left, feet, 120)
        m.owl(s, right, feet, 110)
    elif subject == "dance":
        m.figure(s, left + 20, feet, 160, "")
        m.figure(s, right - 20, feet, 150, "umbrella")
        s.p.line([(left + 40, feet - 100), (right - 40, feet - 100)], s.pal.near, 4)
    else:
        m.figure(s, left, feet, 160, "")
        m.rabbit(s, right + 10, feet, 90)
        objects.key(s, WIDTH / 2, feet - 80, 36)
    s.light_at = (WIDTH / 2, feet - 80)


def scale(s: Scene) -> None:
    s.p.band(0, HEIGHT, mix(s.pal.sky_top, s.pal.far, 0.2), mix(s.pal.sky_bottom, s.pal.light, 0.2))
    floor = s.rng.uniform(470, 520)
    s.p.band(floor, HEIGHT, mix(s.pal.far, s.pal.light, 0.35), mix(s.pal.sky_bottom, s.pal.light, 0.3))
    big = s.subject
    cx = WIDTH / 2 + s.rng.uniform(-40, 40)
    if big == "cat":
        m.cat(s, cx, floor + 10, 380)
    elif big == "rabbit":
        m.rabbit(s, cx - 40, floor + 10, 330)
    else:
        size = 330 if big != "key" else 380
        objects.DRAW[big](s, cx, floor - size * 0.45, size)
    s.light_at = (cx, floor - 200)
    foot = cx + s.rng.choice((-1, 1)) * 140
    if s.setting == "ladder":
        lx = cx - 110
        s.p.line([(lx, floor), (lx + 50, floor - 220)], s.pal.near, 2)
        s.p.line([(lx + 14, floor), (lx + 64, floor - 220)], s.pal.near, 2)
        for k in range(1, 12):
            t = k / 12
            s.p.line([(lx + 50 * t, floor - 220 * t), (lx + 14 + 50 * t, floor - 220 * t)], s.pal.near, 1.5)
        m.figure(s, lx + 36, floor - 120, 22, "")
    elif s.setting == "walker":
        m.figure(s, foot, floor + 6, 28, "lantern")
    elif s.setting == "house":
        m.house(s, foot, floor + 4, 34)
    else:
        m.birds(s, cx, floor - 330, 12, 120)
