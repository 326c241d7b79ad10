"""What a card looks like as a whole, measured on its pixels: the checks behind "not one landscape again".

- ``dark_bottom_band``: a dark band right across the bottom fifth, darker than the sky above it: the
  silhouetted horizon nearly every card of generator version 1 had.
- ``bright_upper_disc``: a small, round, bright spot in the upper half: a moon or a sun in the sky.
- ``layout_hash``: the 64-bit average hash of an 8 x 8 thumbnail, which keeps only where the light and
  dark masses sit; two cards near in it have the same layout whatever they show.

They read decoded images so that they measure what a player sees, not what the generator meant to draw.
"""

from __future__ import annotations

import io

from PIL import Image

#: The bottom fifth is split into this many columns; every one must be dark for a band "across".
BAND_COLUMNS = 8
#: A column is dark when its mean grey is at most this share of the upper half's mean grey...
BAND_RATIO = 0.7
#: ... and at most this grey (0-255): a dim floor under a dim sky is not a silhouette.
BAND_MAX_GREY = 90
_DISC_SIZE = (100, 150)  # the card at a quarter of its size: enough for a disc 5 px across or more
#: A disc's pixels are this much brighter than the upper half's mean grey, and at least this bright.
DISC_LIFT = 50
DISC_MIN_GREY = 170
#: How large the bright blob may be (pixels of the 100 x 150 thumbnail) and how round.
DISC_MIN_AREA = 12
DISC_MAX_AREA = 900
DISC_MIN_FILL = 0.55  # of its bounding box (a circle fills 0.785)
DISC_MAX_ASPECT = 1.5


def decode(data: bytes) -> Image.Image:
    with Image.open(io.BytesIO(data)) as image:
        return image.convert("L")


def _mean(pixels: bytes) -> float:
    return sum(pixels) / max(1, len(pixels))


def dark_bottom_band(grey: Image.Image) -> bool:
    """Whether every column of the bottom fifth is much darker than the upper half, and dark outright."""
    w, h = grey.size
    sky = _mean(grey.crop((0, 0, w, h // 2)).tobytes())
    top = h - h // 5
    for k in range(BAND_COLUMNS):
        cell = grey.crop((k * w // BAND_COLUMNS, top, (k + 1) * w // BAND_COLUMNS, h))
        level = _mean(cell.tobytes())
        if level > BAND_RATIO * sky or level > BAND_MAX_GREY:
            return False
    return True


def bright_upper_disc(grey: Image.Image) -> bool:
    """Whether the upper half holds a small round blob much brighter than its surroundings."""
    small = grey.resize(_DISC_SIZE, Image.Resampling.BOX)
    w, h = small.size[0], small.size[1] // 2
    pixels = small.crop((0, 0, w, h)).tobytes()
    threshold = max(DISC_MIN_GREY, _mean(pixels) + DISC_LIFT)
    seen = bytearray(w * h)
    for start in range(w * h):
        if seen[start] or pixels[start] < threshold:
            continue
        # One connected bright blob (4-neighbours), flood-filled from its first pixel.
        seen[start] = 1
        stack, area = [start], 0
        x0, y0, x1, y1 = w, h, 0, 0
        while stack:
            i = stack.pop()
            area += 1
            y, x = divmod(i, w)
            x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
            for j in (i - 1 if x else -1, i + 1 if x < w - 1 else -1, i - w, i + w):
                if 0 <= j < w * h and not seen[j] and pixels[j] >= threshold:
                    seen[j] = 1
                    stack.append(j)
        bw, bh = x1 - x0 + 1, y1 - y0 + 1
        round_enough = max(bw, bh) <= DISC_MAX_ASPECT * min(bw, bh) and area >= DISC_MIN_FILL * bw * bh
        if DISC_MIN_AREA <= area <= DISC_MAX_AREA and round_enough and y1 < h - 1:
            return True
    return False


def layout_hash(grey: Image.Image) -> int:
    """The 8 x 8 average hash: one bit per cell, set when the cell is brighter than the card's mean."""
    cells = grey.resize((8, 8), Image.Resampling.LANCZOS).tobytes()
    mean = _mean(cells)
    bits = 0
    for value in cells:
        bits = (bits << 1) | (value > mean)
    return bits
