"""Things one can hold: a key, a teacup, a clock, a mask, a book, an hourglass, a lantern, a shell.

Each is drawn centred on (x, y) and ``size`` tall, so the same teacup can fill a close-up, hold a tiny
figure in scale play, sit on a table in an interior or lie on the sea bed.
"""

from __future__ import annotations

import math

from card_art.motifs import Scene
from card_art.palettes import RGB, mix


def _body(s: Scene) -> RGB:
    return mix(s.pal.near, s.pal.accent, 0.45)


def key(s: Scene, x: float, y: float, size: float) -> None:
    c, lit = _body(s), mix(s.pal.accent, s.pal.light, 0.5)
    r = size * 0.18
    top = y - size / 2 + r
    s.p.ellipse(x, top, r, r, c)
    s.p.ellipse(x, top, r * 0.5, r * 0.5, s.sky_at(top))
    s.p.rect(x - size * 0.04, top + r * 0.8, x + size * 0.04, y + size / 2, c)
    for k, w in ((0.32, 0.14), (0.42, 0.1)):
        s.p.rect(x, y + size * k, x + size * w, y + size * (k + 0.06), c)
    s.p.line([(x - r * 0.6, top - r * 0.6), (x - r * 0.2, top - r * 0.9)], lit, max(1.0, size * 0.012))


def teacup(s: Scene, x: float, y: float, size: float) -> None:
    c, rim = _body(s), mix(s.pal.light, s.pal.accent, 0.3)
    w = size * 0.55
    s.p.ellipse(x, y + size * 0.42, w * 1.25, size * 0.1, mix(c, s.pal.near, 0.5))  # the saucer
    s.p.pieslice(x, y - size * 0.05, w, 0, 180, c)
    s.p.ellipse(x, y - size * 0.05, w, size * 0.09, rim)
    s.p.ellipse(x, y - size * 0.04, w * 0.88, size * 0.065, mix(s.pal.near, s.pal.far, 0.4))
    s.p.line(
        [(x + w * 0.95, y + size * 0.02), (x + w * 1.3, y + size * 0.06), (x + w * 0.85, y + size * 0.3)],
        c,
        max(2.0, size * 0.05),
    )
    for k in range(3):  # steam
        sx = x - w * 0.4 + k * w * 0.4
        pts = [
            (sx + math.sin(j * 0.8 + k) * size * 0.05, y - size * 0.15 - j * size * 0.06) for j in range(7)
        ]
        s.p.line(pts, mix(s.pal.light, s.sky_at(y), 0.4), max(1.0, size * 0.015))


def clock(s: Scene, x: float, y: float, size: float) -> None:
    r = size / 2
    s.p.ellipse(x, y, r, r, _body(s))
    s.p.ellipse(x, y, r * 0.86, r * 0.86, mix(s.pal.far, s.pal.light, 0.35))
    for k in range(12):
        a = k * math.tau / 12
        s.p.line(
            [
                (x + math.cos(a) * r * 0.7, y + math.sin(a) * r * 0.7),
                (x + math.cos(a) * r * 0.8, y + math.sin(a) * r * 0.8),
            ],
            s.pal.near,
            max(1.0, size * 0.015),
        )
    hour, minute = s.rng.uniform(0, math.tau), s.rng.uniform(0, math.tau)
    s.p.line([(x, y), (x + math.cos(hour) * r * 0.4, y + math.sin(hour) * r * 0.4)], s.pal.near, size * 0.03)
    s.p.line(
        [(x, y), (x + math.cos(minute) * r * 0.62, y + math.sin(minute) * r * 0.62)], s.pal.near, size * 0.018
    )
    s.p.ellipse(x, y, size * 0.03, size * 0.03, s.pal.accent)


def mask(s: Scene, x: float, y: float, size: float) -> None:
    c = mix(s.pal.light, s.pal.accent, 0.35)
    w = size * 0.42
    s.p.ellipse(x, y - size * 0.08, w, size * 0.36, c)
    s.p.polygon([(x - w * 0.9, y), (x + w * 0.9, y), (x, y + size * 0.45)], c)
    for side in (-1, 1):
        s.p.ellipse(x + side * w * 0.42, y - size * 0.1, w * 0.22, size * 0.06, s.pal.near)
        s.p.line(
            [(x + side * w, y - size * 0.15), (x + side * w * 1.7, y - size * 0.3)],
            s.pal.accent,
            max(1.0, size * 0.02),
        )
    s.p.ellipse(x, y + size * 0.2, w * 0.2, size * 0.025, mix(s.pal.near, s.pal.accent, 0.4))


def book(s: Scene, x: float, y: float, size: float) -> None:
    w, h = size * 0.62, size * 0.4
    cover = _body(s)
    s.p.polygon(
        [
            (x - w, y + h * 0.1),
            (x + w, y + h * 0.1),
            (x + w * 0.95, y + h * 0.5),
            (x - w * 0.95, y + h * 0.5),
        ],
        cover,
    )
    page = mix(s.pal.light, s.pal.far, 0.15)
    for side in (-1, 1):
        s.p.polygon(
            [
                (x, y + h * 0.3),
                (x + side * w * 0.95, y + h * 0.2),
                (x + side * w * 0.9, y - h * 0.5),
                (x, y - h * 0.35),
            ],
            page,
        )
        for k in range(5):
            ly = y - h * 0.3 + k * h * 0.12
            s.p.line(
                [(x + side * w * 0.15, ly), (x + side * w * 0.75, ly - h * 0.03)],
                mix(page, s.pal.near, 0.35),
                1,
            )
    s.p.glow(x, y - h * 0.4, size * 0.8, s.pal.light, 0.45)


def hourglass(s: Scene, x: float, y: float, size: float) -> None:
    frame, glass, sand = s.pal.near, mix(s.pal.far, s.pal.light, 0.4), mix(s.pal.accent, s.pal.light, 0.3)
    w, h = size * 0.3, size / 2
    s.p.polygon(
        [
            (x - w, y - h * 0.85),
            (x + w, y - h * 0.85),
            (x + w * 0.08, y),
            (x + w, y + h * 0.85),
            (x - w, y + h * 0.85),
            (x - w * 0.08, y),
        ],
        glass,
    )
    s.p.polygon([(x - w * 0.5, y - h * 0.45), (x + w * 0.5, y - h * 0.45), (x, y - h * 0.05)], sand)
    s.p.polygon([(x - w * 0.9, y + h * 0.82), (x + w * 0.9, y + h * 0.82), (x, y + h * 0.45)], sand)
    s.p.line([(x, y), (x, y + h * 0.5)], sand, 1.2)
    for top in (y - h, y + h * 0.85):
        s.p.rect(x - w * 1.25, top, x + w * 1.25, top + h * 0.15, frame)
    for side in (-1, 1):
        s.p.rect(x + side * w * 1.1 - 2, y - h * 0.9, x + side * w * 1.1 + 2, y + h * 0.9, frame)


def lantern(s: Scene, x: float, y: float, size: float) -> None:
    frame = s.pal.near
    w, h = size * 0.28, size * 0.36
    s.p.glow(x, y, size * 1.6, s.pal.light, 0.6)
    s.p.rect(x - w, y - h, x + w, y + h, mix(s.pal.light, s.pal.accent, 0.25))
    s.p.ellipse(x, y + h * 0.2, w * 0.3, h * 0.4, s.pal.light)
    for bx in (x - w, x, x + w):
        s.p.line([(bx, y - h), (bx, y + h)], frame, max(1.0, size * 0.02))
    s.p.polygon([(x - w * 1.3, y - h), (x + w * 1.3, y - h), (x, y - h - size * 0.18)], frame)
    s.p.rect(x - w * 1.2, y + h, x + w * 1.2, y + h + size * 0.06, frame)
    s.p.line([(x, y - h - size * 0.18), (x, y - size * 0.5)], frame, max(1.0, size * 0.015))


def shell(s: Scene, x: float, y: float, size: float) -> None:
    c = mix(s.pal.light, s.pal.accent, 0.5)
    r = size * 0.5
    s.p.pieslice(x, y + r * 0.4, r, 180, 360, c)
    ridge = mix(c, s.pal.near, 0.45)
    for k in range(1, 8):
        a = math.pi + k * math.pi / 8
        s.p.line(
            [(x, y + r * 0.4), (x + math.cos(a) * r, y + r * 0.4 + math.sin(a) * r)],
            ridge,
            max(1.0, size * 0.012),
        )
    s.p.polygon([(x - r * 0.25, y + r * 0.4), (x + r * 0.25, y + r * 0.4), (x, y + r * 0.65)], c)


DRAW = {
    "key": key,
    "teacup": teacup,
    "clock": clock,
    "mask": mask,
    "book": book,
    "hourglass": hourglass,
    "lantern": lantern,
    "shell": shell,
}
