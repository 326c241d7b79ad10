"""A deck measured as a whole: how many cards have a horizon band or a sky disc, how the families are
spread, and the nearest pairs by layout and by the 256-bit difference hash. The tests hold every
official deck to the bounds below; ``python -m card_art survey`` prints the numbers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from card_art.cache import cached
from card_art.measures import bright_upper_disc, dark_bottom_band, decode, layout_hash
from card_art.perceptual_hash import closest_pair, dhash
from card_art.scene import plan

#: At most a third of a deck's 84 cards may show a horizon band, and as many a sky disc.
MAX_BANDS = 28
MAX_DISCS = 28
#: At least this many families in a deck, none holding more than a fifth of it.
MIN_FAMILIES = 10
MAX_PER_FAMILY = 17
#: Two layouts this close (of 64 bits) read as the same composition.
LAYOUT_NEAR_BITS = 6


@dataclass(frozen=True, slots=True)
class Survey:
    cards: int
    bands: int
    discs: int
    families: dict[str, int]
    nearest_layout: tuple[int, str, str]
    layout_near_pairs: int
    nearest_dhash: tuple[int, str, str]
    largest_bytes: int

    def summary(self) -> str:
        return (
            f"{self.bands}/{self.cards} bands, {self.discs}/{self.cards} discs, "
            f"{len(self.families)} families (largest {max(self.families.values())}), "
            f"layout nearest {self.nearest_layout[0]}/64 ({self.layout_near_pairs} pairs <= "
            f"{LAYOUT_NEAR_BITS}), dhash nearest {self.nearest_dhash[0]}/256 "
            f"({self.nearest_dhash[1]} {self.nearest_dhash[2]}), largest {self.largest_bytes // 1024} KB"
        )


def survey(card_ids: Sequence[str], image: Callable[[str], bytes] = cached) -> Survey:
    bands = discs = largest = 0
    layouts: dict[str, int] = {}
    hashes: dict[str, int] = {}
    for card_id in card_ids:
        data = image(card_id)
        largest = max(largest, len(data))
        grey = decode(data)
        bands += dark_bottom_band(grey)
        discs += bright_upper_disc(grey)
        layouts[card_id] = layout_hash(grey)
        hashes[card_id] = dhash(data)
    values = list(layouts.values())
    near = sum(
        1 for i, a in enumerate(values) for b in values[i + 1 :] if (a ^ b).bit_count() <= LAYOUT_NEAR_BITS
    )
    return Survey(
        cards=len(card_ids),
        bands=bands,
        discs=discs,
        families=dict(Counter(plan(card_id).family for card_id in card_ids)),
        nearest_layout=closest_pair(layouts),
        layout_near_pairs=near,
        nearest_dhash=closest_pair(hashes),
        largest_bytes=largest,
    )
