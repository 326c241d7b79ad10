"""Indoor families: interiors (a room, a library, a stair) and close-ups of one object.

Both light the floor or the table rather than the sky, so neither has a dark band along the bottom.
"""

from __future__ import annotations

import math

from card_art import motifs as m
from card_art import objects
from card_art.motifs import Scene
from card_art.painter import HEIGHT, WIDTH
from card_art.palettes import mix

INTERIOR_SUBJECTS = {
    "room": "an empty room with a tall window",
    "library": "a library with a ladder against the shelves",
    "stair": "a staircase climbing a bare wall",
    "attic": "an attic under sloping beams",
    "doors": "a hall of closed doors and one open",
}
OUTSIDE = {
    "storm": "a storm outside",
    "snow": "snow falling outside",
    "sea": "the sea outside",
    "stars": "stars outside",
    "cat": "a cat asleep on the floor",
}
STILL_LIFE_SUBJECTS = {name: f"{'an' if name[0] in 'aeiouh' else 'a'} {name}" for name in objects.DRAW}
STILL_LIFE_SETTINGS = {
    "sill_storm": "on a windowsill, a storm outside",
    "sill_night": "on a windowsill at night",
    "cloth": "on a patterned tablecloth",
    "grass": "in tall grass",
    "petals": "among falling petals",
}


def _wall(s: Scene, floor_y: float) -> None:
    wall_top, wall_bottom = mix(s.pal.far, s.pal.sky_top, 0.4), mix(s.pal.far, s.pal.sky_bottom, 0.5)
    s.p.band(0, floor_y, wall_top, wall_bottom)
    # A lit floor in perspective: boards converge on a point on the back wall.
    s.p.band(floor_y, HEIGHT, mix(s.pal.far, s.pal.light, 0.3), mix(s.pal.sky_bottom, s.pal.light, 0.45))
    vanish = WIDTH / 2 + s.rng.uniform(-60, 60)
    for k in range(-6, 7):
        s.p.line([(vanish + k * 18, floor_y), (vanish + k * 110, HEIGHT)], mix(s.pal.far, s.pal.near, 0.3), 1)
    s.p.rect(0, floor_y - 4, WIDTH, floor_y + 2, mix(s.pal.far, s.pal.near, 0.4))


def window(s: Scene, x0: float, y0: float, x1: float, y1: float, outside: str) -> None:
    """A window frame with the weather ``outside`` painted in it."""
    night = outside in ("stars", "sill_night")
    top = mix(s.pal.sky_top, (10, 12, 30), 0.5) if night else s.pal.sky_top
    bottom = (
        mix(s.pal.sky_bottom, (40, 44, 60), 0.55) if outside in ("storm", "sill_storm") else s.pal.sky_bottom
    )
    s.p.glow((x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) * 1.2, s.pal.light, 0.35)
    s.p.band_in(x0, y0, x1, y1, top, bottom)
    if outside in ("storm", "sill_storm"):
        for _ in range(40):
            rx, ry = s.rng.uniform(x0, x1), s.rng.uniform(y0, y1 - 12)
            s.p.line([(rx, ry), (rx - 4, ry + 12)], mix(bottom, s.pal.light, 0.5), 0.8)
        bolt_x = s.rng.uniform(x0 + 10, x1 - 10)
        s.p.line(
            [(bolt_x, y0), (bolt_x - 8, (y0 + y1) / 2), (bolt_x + 4, (y0 + y1) / 2), (bolt_x - 6, y1)],
            s.pal.light,
            2,
        )
    elif outside == "snow":
        for _ in range(50):
            r = s.rng.uniform(0.8, 2)
            s.p.ellipse(
                s.rng.uniform(x0, x1), s.rng.uniform(y0, y1), r, r, mix(s.pal.light, (255, 255, 255), 0.5)
            )
    elif outside == "sea":
        s.p.band_in(x0, (y0 + y1) * 0.5 + 10, x1, y1, mix(s.pal.far, s.pal.sky_bottom, 0.4), s.pal.far)
        m.boat(s, s.rng.uniform(x0 + 20, x1 - 20), (y0 + y1) * 0.5 + 22, 10)
    elif night:
        for _ in range(25):
            s.p.ellipse(s.rng.uniform(x0, x1), s.rng.uniform(y0, y1), 0.9, 0.9, s.pal.light)
        cx, cy = s.rng.uniform(x0 + 15, x1 - 15), y0 + (y1 - y0) * 0.3
        s.p.ellipse(cx, cy, 6, 6, s.pal.light)
    frame = mix(s.pal.near, s.pal.far, 0.3)
    w = max(4.0, (x1 - x0) * 0.05)
    for a, b, c, d in (
        (x0 - w, y0 - w, x1 + w, y0),
        (x0 - w, y1, x1 + w, y1 + w),
        (x0 - w, y0, x0, y1),
        (x1, y0, x1 + w, y1),
    ):
        s.p.rect(a, b, c, d, frame)
    s.p.rect((x0 + x1) / 2 - w / 3, y0, (x0 + x1) / 2 + w / 3, y1, frame)
    s.p.rect(x0, (y0 + y1) / 2 - w / 3, x1, (y0 + y1) / 2 + w / 3, frame)
    s.light_at = ((x0 + x1) / 2, (y0 + y1) / 2)


def _shelves(s: Scene, x0: float, x1: float, top: float, bottom: float) -> None:
    wood = mix(s.pal.near, s.pal.far, 0.35)
    s.p.rect(x0, top, x1, bottom, wood)
    rows = int((bottom - top) / 60)
    for r in range(rows):
        y = top + 10 + r * 60
        x = x0 + 6
        while x < x1 - 12:
            w = s.rng.uniform(6, 13)
            h = s.rng.uniform(32, 46)
            colour = mix(s.pal.accent, s.pal.far, s.rng.random())
            s.p.rect(x, y + 46 - h, x + w, y + 46, colour)
            x += w + 1.5
        s.p.rect(x0, y + 46, x1, y + 52, mix(wood, s.pal.near, 0.5))


def interior(s: Scene) -> None:
    floor_y = s.rng.uniform(400, 450)
    _wall(s, floor_y)
    subject = s.subject
    if subject == "attic":
        for side in (-1, 1):
            edge = 0.0 if side < 0 else float(WIDTH)
            s.p.polygon([(edge, 0), (WIDTH / 2, 0), (edge, 260)], mix(s.pal.near, s.pal.far, 0.25))
        cx = WIDTH / 2
        s.p.ellipse(cx, 210, 62, 62, mix(s.pal.near, s.pal.far, 0.3))
        window(s, cx - 45, 165, cx + 45, 255, s.setting)
    else:
        wx = s.rng.uniform(60, 200) if subject != "room" else WIDTH / 2 - 70
        window(
            s,
            wx,
            90,
            wx + 140 if subject == "room" else wx + 90,
            330 if subject == "room" else 230,
            s.setting,
        )
    if subject == "library":
        side = s.rng.choice((0, 1))
        x0 = 10 if side == 0 else 230
        _shelves(s, x0, x0 + 160, 60, floor_y)
        s.p.line([(x0 + 40, floor_y + 40), (x0 + 110, 70)], s.pal.near, 5)
        s.p.line([(x0 + 70, floor_y + 40), (x0 + 140, 70)], s.pal.near, 5)
        for k in range(1, 9):
            t = k / 9
            s.p.line(
                [
                    (x0 + 40 + 70 * t, floor_y + 40 - (floor_y - 30) * t),
                    (x0 + 70 + 70 * t, floor_y + 40 - (floor_y - 30) * t),
                ],
                s.pal.near,
                3,
            )
    elif subject == "stair":
        going = s.rng.choice((-1, 1))
        for k in range(12):
            x = (40 if going > 0 else WIDTH - 40) + going * k * 26
            y = floor_y - k * 26
            s.p.rect(x - 24, y - 8, x + 24, floor_y, mix(s.pal.near, s.pal.far, 0.2 + k * 0.02))
            s.p.rect(x - 24, y - 8, x + 24, y - 4, mix(s.pal.light, s.pal.far, 0.4))
        m.figure(s, WIDTH / 2 + going * 30, floor_y - 130, 50, "lantern")
    elif subject == "doors":
        open_at = s.rng.randrange(4)
        for k in range(4):
            x = 70 + k * 87
            colour = s.pal.light if k == open_at else mix(s.pal.near, s.pal.far, 0.2)
            s.p.rect(x - 26, floor_y - 130, x + 26, floor_y, mix(s.pal.near, s.pal.far, 0.1))
            s.p.rect(x - 20, floor_y - 122, x + 20, floor_y, colour)
            if k == open_at:
                s.p.soft_polygon(
                    [(x - 20, floor_y), (x + 20, floor_y), (x + 70, HEIGHT), (x - 60, HEIGHT)],
                    s.pal.light,
                    0.5,
                    6,
                )
    elif subject == "room":
        cx = s.rng.uniform(90, 310)
        s.p.rect(cx - 30, floor_y + 10, cx + 30, floor_y + 18, s.pal.near)  # a chair
        s.p.rect(cx - 30, floor_y - 60, cx - 24, floor_y + 70, s.pal.near)
        s.p.rect(cx + 24, floor_y + 10, cx + 30, floor_y + 70, s.pal.near)
        s.p.soft_polygon([(130, 330), (270, 330), (330, HEIGHT), (80, HEIGHT)], s.pal.light, 0.35, 10)
    if s.setting == "cat":
        m.cat(s, s.rng.uniform(80, 320), s.rng.uniform(floor_y + 90, HEIGHT - 30), 55)


def still_life(s: Scene) -> None:
    setting = s.setting
    draw = objects.DRAW[s.subject]
    size = s.rng.uniform(230, 290)
    cx, cy = WIDTH / 2 + s.rng.uniform(-25, 25), s.rng.uniform(330, 370)
    if setting.startswith("sill"):
        s.p.band(0, HEIGHT, mix(s.pal.far, s.pal.sky_top, 0.5), mix(s.pal.far, s.pal.near, 0.3))
        window(s, 30, 40, 370, cy + size * 0.3, setting)
        s.p.band(cy + size * 0.4, HEIGHT, mix(s.pal.far, s.pal.light, 0.4), mix(s.pal.far, s.pal.light, 0.2))
    elif setting == "cloth":
        s.p.band(0, HEIGHT, mix(s.pal.far, s.pal.sky_top, 0.3), mix(s.pal.sky_bottom, s.pal.far, 0.3))
        stripe = mix(s.pal.far, s.pal.accent, 0.25)
        for x in range(0, WIDTH, 40):
            s.p.rect(x, 0, x + 14, cy + size * 0.3, stripe)
        top = cy + size * 0.35
        s.p.band(top, HEIGHT, mix(s.pal.light, s.pal.accent, 0.2), mix(s.pal.light, s.pal.far, 0.3))
        for row in range(6):
            for col in range(11):
                s.p.ellipse(
                    col * 40 + (row % 2) * 20, top + 20 + row * 30, 5, 3, mix(s.pal.accent, s.pal.light, 0.4)
                )
    else:
        s.p.band(0, HEIGHT, s.pal.sky_top, s.pal.sky_bottom)
        s.p.glow(cx, cy, size * 1.3, s.pal.light, 0.5)
    draw(s, cx, cy, size)
    s.light_at = (cx, cy)
    if setting == "grass":
        for _ in range(140):
            gx = s.rng.uniform(-10, WIDTH + 10)
            gy = s.rng.uniform(cy + size * 0.25, HEIGHT + 20)
            lean = s.rng.uniform(-14, 14)
            s.p.line(
                [(gx, gy), (gx + lean, gy - s.rng.uniform(30, 90))],
                mix(s.pal.far, s.pal.accent, s.rng.random() * 0.4),
                1.6,
            )
    elif setting == "petals":
        for _ in range(45):
            a = s.rng.uniform(0, math.tau)
            px, py = s.rng.uniform(0, WIDTH), s.rng.uniform(0, HEIGHT)
            s.p.ellipse(px, py, 5 + 3 * math.cos(a), 3, mix(s.pal.accent, s.pal.light, 0.5))
