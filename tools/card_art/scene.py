"""Plan and compose a card's scene from its id.

A card's plan is chosen before anything is drawn: its composition family, the family's subject, a
palette and a setting. Each deck deals its 84 cards evenly over the families (``deal``), and within a
family gives every card its own (subject, palette) pair, so no two cards of a family share both. The
painter draws the plan; the description (``describe``) is written from the same plan, so it names what
is in the picture without drawing it. Every random choice comes from the id's SHA-256, never from
Python's per-process ``hash``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from random import Random

from PIL import Image

from card_art import figures, landscapes, rooms, worlds
from card_art.motifs import Scene
from card_art.painter import Painter
from card_art.palettes import LIGHT, PALETTES, Palette, mix
from dixit.cards import CARDS_PER_OFFICIAL_DECK


@dataclass(frozen=True, slots=True)
class Family:
    name: str
    subjects: Mapping[str, str]  # subject -> how a description names it
    settings: Mapping[str, str]  # setting -> how a description adds it
    paint: Callable[[Scene], None]


FAMILIES: tuple[Family, ...] = (
    Family("horizon", landscapes.SUBJECTS, landscapes.SKIES, landscapes.horizon),
    Family("interior", rooms.INTERIOR_SUBJECTS, rooms.OUTSIDE, rooms.interior),
    Family("close-up", rooms.STILL_LIFE_SUBJECTS, rooms.STILL_LIFE_SETTINGS, rooms.still_life),
    Family("portrait", figures.PORTRAIT_SUBJECTS, figures.PORTRAIT_SETTINGS, figures.portrait),
    Family("encounter", figures.ENCOUNTER_SUBJECTS, figures.ENCOUNTER_SETTINGS, figures.encounter),
    Family("scale", figures.SCALE_SUBJECTS, figures.SCALE_SETTINGS, figures.scale),
    Family("impossible", worlds.IMPOSSIBLE_SUBJECTS, worlds.IMPOSSIBLE_SETTINGS, worlds.impossible),
    Family("underwater", worlds.UNDERWATER_SUBJECTS, worlds.UNDERWATER_SETTINGS, worlds.underwater),
    Family("aerial", worlds.AERIAL_SUBJECTS, worlds.AERIAL_SETTINGS, worlds.aerial),
    Family("dream", worlds.DREAM_SUBJECTS, worlds.DREAM_SETTINGS, worlds.dream),
    Family("sky", worlds.SKY_SUBJECTS, worlds.SKY_SETTINGS, worlds.skyward),
)
_BY_NAME = {family.name: family for family in FAMILIES}


@dataclass(frozen=True, slots=True)
class Plan:
    card_id: str
    family: str
    subject: str
    palette: Palette
    setting: str


def _seed(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def deal(deck_id: str) -> list[tuple[str, int]]:
    """Each of a deck's 84 places: its family and its rank among that family's cards of the deck."""
    slots = [FAMILIES[i % len(FAMILIES)].name for i in range(CARDS_PER_OFFICIAL_DECK)]
    Random(_seed("families:" + deck_id)).shuffle(slots)
    seen: dict[str, int] = {}
    dealt = []
    for name in slots:
        dealt.append((name, seen.get(name, 0)))
        seen[name] = seen.get(name, 0) + 1
    return dealt


def plan(card_id: str) -> Plan:
    deck, _, number = card_id.rpartition("-")
    index = int(number) - 1 if number.isdigit() else _seed(card_id)
    name, rank = deal(deck)[index % CARDS_PER_OFFICIAL_DECK]
    family = _BY_NAME[name]
    pairs = [(subject, p) for subject in family.subjects for p in range(len(PALETTES))]
    Random(_seed(f"deck:{deck}:{name}")).shuffle(pairs)
    subject, palette = pairs[rank % len(pairs)]
    # Cards of a family that share a subject take turns through its settings, so a deck never holds the
    # same subject in the same setting twice (until a subject comes round more often than it has settings).
    again = sum(1 for s, _ in pairs[: rank % len(pairs)] if s == subject)
    settings = sorted(family.settings)
    start = _seed(f"setting:{deck}:{name}:{subject}") % len(settings)
    setting = settings[(start + again) % len(settings)]
    return Plan(card_id, name, subject, PALETTES[palette], setting)


def describe(card_id: str) -> str:
    """What the card shows, from its plan: 'a teacup on a windowsill, a storm outside, in violet light'."""
    p = plan(card_id)
    family = _BY_NAME[p.family]
    return f"{family.subjects[p.subject]}, {family.settings[p.setting]}, {LIGHT[p.palette.name]}"


def compose(card_id: str) -> Image.Image:
    p = plan(card_id)
    pal = p.palette
    rng = Random(_seed(card_id))
    scene = Scene(Painter(pal.sky_top, pal.sky_bottom), pal, rng, horizon=rng.uniform(320, 470))
    scene.subject, scene.setting = p.subject, p.setting
    _BY_NAME[p.family].paint(scene)
    # The landscapes keep their deep vignette; the other families are lit more evenly.
    strength = 0.85 if p.family == "horizon" else 0.55
    scene.p.vignette(*scene.light_at, mix(pal.near, (0, 0, 0), 0.4), strength)
    image = scene.p.finish()
    # Half the cards are mirrored: the same kind of picture then leans the other way.
    return image.transpose(Image.Transpose.FLIP_LEFT_RIGHT) if rng.random() < 0.5 else image
