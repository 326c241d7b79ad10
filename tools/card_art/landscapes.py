"""The horizon landscapes of generator version 1, now one family among many: a sky with a moon or a sun
over silhouetted land, and a subject standing on it (a door, a tower, a tree, a boat, ...).

The family's setting is the sky's body, so the description can say what hangs there.
"""

from __future__ import annotations

from collections.abc import Callable

from card_art import motifs as m
from card_art.motifs import Scene
from card_art.painter import HEIGHT, WIDTH
from card_art.palettes import PALETTES, mix


def _sky(
    s: Scene, celestial_at: tuple[float, float] | None = None, kind: str | None = None
) -> tuple[float, float]:
    if s.pal.starry:
        m.stars(s, s.rng.randint(25, 70), s.horizon)
    x, y = celestial_at or (s.rng.uniform(70, WIDTH - 70), s.rng.uniform(70, s.horizon - 140))
    # The plan's sky wins over the subject's preference: the description names it.
    kind = s.setting or kind or s.rng.choice(("sun", "moon", "crescent", "planet", "eclipse", "twins"))
    m.celestial(s, x, y, s.rng.uniform(22, 48), kind)
    if s.rng.random() < 0.6:
        m.clouds(s, s.rng.randint(1, 4), 60, s.horizon - 40)
    return x, y


def _far_land(s: Scene, layers: int) -> None:
    for k in range(layers, 0, -1):
        depth = 0.45 + 0.5 * k / layers
        base = s.horizon - 20 * k
        if s.rng.random() < 0.5:
            m.land(s, base, 40 + 15 * k, 0.55, s.haze(depth))
        else:
            m.hills(s, base, 25 + 10 * k, s.haze(depth))


def _creature(s: Scene, x: float, ground: float) -> None:
    pick = s.rng.randrange(6)
    if pick == 0:
        m.cat(s, x, ground, s.rng.uniform(30, 55))
    elif pick == 1:
        m.rabbit(s, x, ground, s.rng.uniform(25, 45))
    elif pick == 2:
        m.stag(s, x, ground, s.rng.uniform(45, 70))
    elif pick == 3:
        m.birds(s, x, ground - 250, s.rng.randint(3, 9), 60)
    elif pick == 4:
        m.figure(
            s, x, ground, s.rng.uniform(35, 60), s.rng.choice(("lantern", "balloon", "umbrella", "staff"))
        )
    else:
        m.owl(s, x, ground, 30)


def door(s: Scene) -> None:
    _sky(s)
    _far_land(s, 2)
    ground = m.hills(s, s.horizon + 40, 20, s.pal.near)
    x = s.rng.uniform(140, 260)
    g = m.height_at(ground, x)
    m.door(s, x, g + 4, s.rng.uniform(80, 130))
    if s.rng.random() < 0.7:
        fx = x + s.rng.choice((-1, 1)) * s.rng.uniform(70, 120)
        m.figure(
            s, fx, m.height_at(ground, fx) + 6, s.rng.uniform(40, 60), s.rng.choice(("lantern", "", "staff"))
        )


def stairs(s: Scene) -> None:
    cx, cy = _sky(s, kind=s.rng.choice(("moon", "crescent", "sun", "planet")))
    _far_land(s, 2)
    ground = m.hills(s, s.horizon + 50, 25, s.pal.near)
    x0 = s.rng.uniform(80, 320)
    m.stairs(s, x0, m.height_at(ground, x0) - 4, cx, cy + 45)
    if s.rng.random() < 0.6:
        m.figure(s, x0 + 30, m.height_at(ground, x0 + 30) + 4, 34, "lantern")


def tower(s: Scene) -> None:
    _sky(s)
    if s.rng.random() < 0.4:
        _far_land(s, 1)
        m.water(s, s.horizon + 30, None)
        rock = m.land(s, s.horizon + 10, 40, 0.6, s.pal.near)
    else:
        _far_land(s, 2)
        rock = m.land(s, s.horizon + 40, 60, 0.5, s.pal.near)
    x = s.rng.uniform(110, 290)
    m.tower(
        s,
        x,
        m.height_at(rock, x) + 10,
        s.rng.uniform(190, 300),
        s.rng.uniform(36, 60),
        s.rng.uniform(-30, 30),
    )
    m.birds(s, x + s.rng.uniform(-80, 80), s.rng.uniform(90, 180), s.rng.randint(3, 8), 50)


def tree(s: Scene) -> None:
    _sky(s)
    _far_land(s, s.rng.randint(1, 3))
    ground = m.hills(s, s.horizon + 60, 20, s.pal.near)
    x = s.rng.uniform(130, 270)
    m.tree(s, x, m.height_at(ground, x), s.rng.uniform(220, 320), s.rng.random() < 0.55)
    cx = x + s.rng.choice((-1, 1)) * s.rng.uniform(90, 140)
    _creature(s, cx, m.height_at(ground, cx) + 6)


def path(s: Scene) -> None:
    end_x = s.rng.uniform(120, 280)
    _sky(s, (end_x + s.rng.uniform(-40, 40), s.horizon - s.rng.uniform(60, 160)))
    _far_land(s, 2)
    m.hills(s, s.horizon + 10, 10, s.haze(0.35))
    m.path(s, s.horizon + 10, end_x)
    for side in (-1, 1):
        if s.rng.random() < 0.7:
            m.tree(
                s,
                WIDTH / 2 + side * s.rng.uniform(120, 190),
                HEIGHT - s.rng.uniform(10, 80),
                s.rng.uniform(200, 320),
                False,
            )
    m.figure(s, end_x + 8, s.horizon + 60, 26, s.rng.choice(("lantern", "staff", "balloon")))


def island(s: Scene) -> None:
    s.horizon = s.rng.uniform(460, 540)
    _sky(s)
    m.clouds(s, 5, s.horizon - 40, s.horizon + 30)
    x, y = s.rng.uniform(130, 270), s.rng.uniform(260, 360)
    w = s.rng.uniform(140, 200)
    for _ in range(s.rng.randint(1, 3)):
        m.island(s, s.rng.uniform(30, 370), s.rng.uniform(120, 420), s.rng.uniform(30, 60))
    m.island(s, x, y, w)
    pick = s.rng.randrange(3)
    if pick == 0:
        m.tree(s, x, y - 4, w * 1.2, True)
    elif pick == 1:
        m.house(s, x, y - 4, w * 0.35)
    else:
        m.tower(s, x, y - 4, w * 0.9, w * 0.2, 0)
    m.hills(s, s.horizon + 30, 15, s.haze(0.6))


def boat(s: Scene) -> None:
    # Open water is the plainest layout, so the horizon, a shore and what stands on it vary the most here.
    s.horizon = s.rng.uniform(250, 460)
    cx, _ = _sky(s, kind=s.rng.choice(("moon", "sun", "crescent", "eclipse", "twins")))
    if s.rng.random() < 0.5:
        _far_land(s, 1)
    m.water(s, s.horizon, cx)
    side = s.rng.choice((-1, 1))
    if s.rng.random() < 0.7:
        edge = 0.0 if side < 0 else float(WIDTH)
        reach = s.rng.uniform(125, 180)
        top = s.horizon - s.rng.uniform(60, 200)
        inner = edge - side * reach
        s.p.polygon(
            [
                (edge, HEIGHT + 2),
                (edge, top),
                (edge - side * reach * 0.45, top + 12),
                (inner, s.horizon + 40),
                (inner - side * 30, HEIGHT + 2),
            ],
            s.pal.near,
        )
        ridge_x = edge - side * reach * 0.3
        if s.rng.random() < 0.5:
            m.tree(s, ridge_x, top + 8, s.rng.uniform(110, 170), s.rng.random() < 0.5)
        else:
            m.house(s, ridge_x, top + 10, 40)
    else:
        ix = s.rng.uniform(80, 320)
        s.p.ellipse(ix, s.horizon + 2, s.rng.uniform(40, 80), 10, s.haze(0.5))
        m.tree(s, ix, s.horizon - 2, s.rng.uniform(50, 80), True)
    bx = WIDTH / 2 - side * s.rng.uniform(0, 120)  # out on the water, away from the shore
    m.boat(s, bx, s.rng.uniform(s.horizon + 50, HEIGHT - 70), s.rng.uniform(26, 55))
    pick = s.rng.random()
    if pick < 0.35:
        m.fish_school(
            s, s.rng.uniform(100, 300), s.rng.uniform(110, max(130, s.horizon - 60)), s.rng.randint(5, 11)
        )
    elif pick < 0.6:
        m.birds(
            s, s.rng.uniform(100, 300), s.rng.uniform(90, max(110, s.horizon - 80)), s.rng.randint(3, 7), 60
        )


def sky_creature(s: Scene) -> None:
    _sky(s)
    _far_land(s, 2)
    ground = m.hills(s, s.horizon + 60, 25, s.pal.near)
    fill = mix(s.pal.near, s.pal.far, 0.35)
    pick = s.rng.randrange(3)
    x, y = s.rng.uniform(130, 270), s.rng.uniform(170, 300)
    if pick == 0:
        m.whale(s, x, y, s.rng.uniform(90, 140), fill)
    elif pick == 1:
        for _ in range(s.rng.randint(3, 6)):
            m.jellyfish(s, s.rng.uniform(60, 340), s.rng.uniform(100, s.horizon - 60), s.rng.uniform(14, 28))
    else:
        m.fish_school(s, x, y, s.rng.randint(14, 24))
    fx = s.rng.uniform(80, 320)
    m.figure(
        s, fx, m.height_at(ground, fx) + 4, s.rng.uniform(40, 60), s.rng.choice(("", "lantern", "umbrella"))
    )


def wanderer(s: Scene) -> None:
    _sky(s)
    _far_land(s, 3)
    ground = m.land(s, s.horizon + 90, 30, 0.45, s.pal.near)
    x = s.rng.uniform(120, 280)
    m.figure(
        s,
        x,
        m.height_at(ground, x) + 20,
        s.rng.uniform(110, 170),
        s.rng.choice(("lantern", "balloon", "umbrella", "staff")),
    )
    if s.rng.random() < 0.5:
        m.birds(s, s.rng.uniform(80, 320), s.rng.uniform(100, 200), s.rng.randint(2, 6), 70)


def house(s: Scene) -> None:
    _sky(s, kind=s.rng.choice(("moon", "crescent", "twins", "planet")))
    _far_land(s, 2)
    ground = m.hills(s, s.horizon + 50, 20, s.pal.near)
    x = s.rng.uniform(110, 290)
    m.house(s, x, m.height_at(ground, x) + 6, s.rng.uniform(60, 100))
    tx = x + s.rng.choice((-1, 1)) * s.rng.uniform(90, 140)
    m.tree(s, tx, m.height_at(ground, tx) + 4, s.rng.uniform(120, 200), s.rng.random() < 0.5)
    cx = s.rng.uniform(60, 340)
    _creature(s, cx, m.height_at(ground, cx) + 8)


def creature(s: Scene) -> None:
    _sky(s, kind=s.rng.choice(("moon", "sun", "crescent", "eclipse")))
    _far_land(s, 2)
    ground = m.land(s, s.horizon + 70, 25, 0.4, s.pal.near)
    x = s.rng.uniform(130, 270)
    g = m.height_at(ground, x) + 10
    pick = s.rng.randrange(4)
    if pick == 0:
        m.cat(s, x, g, s.rng.uniform(90, 140))
    elif pick == 1:
        m.rabbit(s, x, g, s.rng.uniform(80, 120))
    elif pick == 2:
        m.stag(s, x, g, s.rng.uniform(110, 150))
    else:
        m.tree(s, x, g, 160, False)
        m.owl(s, x + 5, g - 95, 45)


def portal(s: Scene) -> None:
    _sky(s)
    _far_land(s, 2)
    if s.rng.random() < 0.5:
        m.water(s, s.horizon + 40, None)
    ground = m.hills(s, s.horizon + 80, 15, s.pal.near)
    inside = PALETTES[(PALETTES.index(s.pal) + s.rng.randint(4, len(PALETTES) - 4)) % len(PALETTES)]
    x = s.rng.uniform(140, 260)
    m.arch(s, x, m.height_at(ground, x) + 6, s.rng.uniform(80, 120), s.rng.uniform(90, 150), inside)
    fx = x + s.rng.choice((-1, 1)) * s.rng.uniform(75, 110)
    m.figure(
        s, fx, m.height_at(ground, fx) + 6, s.rng.uniform(35, 55), s.rng.choice(("", "staff", "lantern"))
    )


def lighthouse(s: Scene) -> None:
    _sky(s)
    m.water(s, s.horizon, None)
    rock = m.land(s, s.horizon + 60, 40, 0.6, s.pal.near)
    x = s.rng.choice((s.rng.uniform(80, 150), s.rng.uniform(250, 320)))
    m.lighthouse(s, x, m.height_at(rock, x) + 10, s.rng.uniform(170, 260))
    if s.rng.random() < 0.6:
        m.boat(s, WIDTH - x + s.rng.uniform(-40, 40), s.horizon + 35, 18)


def balloons(s: Scene) -> None:
    _sky(s)
    _far_land(s, 2)
    ground = m.hills(s, s.horizon + 60, 20, s.pal.near)
    for _ in range(s.rng.randint(6, 16)):
        x, y = s.rng.uniform(30, 370), s.rng.uniform(60, s.horizon)
        size = 3 + 9 * (y / s.horizon)
        s.p.glow(x, y, size * 5, s.pal.accent, 0.6)
        s.p.rect(
            x - size * 0.5,
            y - size * 0.7,
            x + size * 0.5,
            y + size * 0.7,
            mix(s.pal.accent, s.pal.light, 0.5),
        )
    for k in range(s.rng.randint(1, 3)):
        fx = s.rng.uniform(60, 340)
        m.figure(s, fx, m.height_at(ground, fx) + 4, 40 + 10 * k, "lantern" if k else "")


PAINT: dict[str, Callable[[Scene], None]] = {
    f.__name__: f
    for f in (
        door,
        stairs,
        tower,
        tree,
        path,
        island,
        boat,
        sky_creature,
        wanderer,
        house,
        creature,
        portal,
        lighthouse,
        balloons,
    )
}
SUBJECTS = {
    "door": "a lit door standing alone in the hills",
    "stairs": "stairs climbing into the sky",
    "tower": "a lonely tower",
    "tree": "a great tree",
    "path": "a winding path with a traveller at its end",
    "island": "a floating island",
    "boat": "a sailing boat on open water",
    "sky_creature": "creatures swimming through the sky over a walker",
    "wanderer": "a cloaked wanderer on a ridge",
    "house": "a lone house with a smoking chimney",
    "creature": "an animal on a ridge",
    "portal": "an arch opening onto another sky",
    "lighthouse": "a lighthouse by the sea",
    "balloons": "lanterns rising over the hills",
}
SKIES = {
    "sun": "under a low sun",
    "moon": "under a full moon",
    "crescent": "under a crescent moon",
    "planet": "under a ringed planet",
    "eclipse": "under an eclipse",
    "twins": "under two moons",
}


def horizon(s: Scene) -> None:
    PAINT[s.subject](s)
