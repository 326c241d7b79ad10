"""Drawing primitives in card units (400 x 600), painted at a higher resolution for smooth edges.

Pillow's polygons have no anti-aliasing, so the card is painted ``SUPERSAMPLE`` times larger and scaled
down once at the end. Soft light (glows, mist, spilled light) is painted on a quarter-size mask, blurred
there and scaled up, which keeps a blur of any radius cheap.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFilter

from card_art.palettes import RGB, mix

WIDTH = 400
HEIGHT = 600
SUPERSAMPLE = 2
_SOFT = 4  # soft masks are painted at 1 / _SOFT of the canvas

Point = tuple[float, float]


class Painter:
    def __init__(self, top: RGB, bottom: RGB) -> None:
        self.scale = SUPERSAMPLE
        self.size = (WIDTH * self.scale, HEIGHT * self.scale)
        self.image = vertical_gradient(self.size, top, bottom)
        self.draw = ImageDraw.Draw(self.image)

    # -- hard shapes -------------------------------------------------------------------------------

    def _pts(self, points: Sequence[Point]) -> list[tuple[float, float]]:
        s = self.scale
        return [(x * s, y * s) for x, y in points]

    def _box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        s = self.scale
        return (min(x0, x1) * s, min(y0, y1) * s, max(x0, x1) * s, max(y0, y1) * s)

    def polygon(self, points: Sequence[Point], fill: RGB, alpha: float = 1.0) -> None:
        if alpha >= 1.0:
            self.draw.polygon(self._pts(points), fill=fill)
            return
        mask = Image.new("L", self.size, 0)
        ImageDraw.Draw(mask).polygon(self._pts(points), fill=round(255 * alpha))
        self._tint(fill, mask)

    def ellipse(self, cx: float, cy: float, rx: float, ry: float, fill: RGB, alpha: float = 1.0) -> None:
        box = self._box(cx - rx, cy - ry, cx + rx, cy + ry)
        if alpha >= 1.0:
            self.draw.ellipse(box, fill=fill)
            return
        mask = Image.new("L", self.size, 0)
        ImageDraw.Draw(mask).ellipse(box, fill=round(255 * alpha))
        self._tint(fill, mask)

    def rect(self, x0: float, y0: float, x1: float, y1: float, fill: RGB) -> None:
        self.draw.rectangle(self._box(x0, y0, x1, y1), fill=fill)

    def line(self, points: Sequence[Point], fill: RGB, width: float) -> None:
        self.draw.line(self._pts(points), fill=fill, width=max(1, round(width * self.scale)), joint="curve")

    def pieslice(self, cx: float, cy: float, r: float, start: float, end: float, fill: RGB) -> None:
        self.draw.pieslice(self._box(cx - r, cy - r, cx + r, cy + r), start, end, fill=fill)

    # -- soft light --------------------------------------------------------------------------------

    def _soft_mask(self) -> tuple[Image.Image, ImageDraw.ImageDraw, float]:
        factor = self.scale / _SOFT
        mask = Image.new("L", (round(WIDTH * factor), round(HEIGHT * factor)), 0)
        return mask, ImageDraw.Draw(mask), factor

    def _apply_soft(self, mask: Image.Image, blur: float, fill: RGB) -> None:
        drawn = mask.getbbox()
        if drawn is None:
            return
        # Blur and scale up only the patch around what was drawn: most glows cover a small part.
        radius = blur * self.scale / _SOFT
        margin = math.ceil(radius * 3) + 1
        box = (
            max(0, drawn[0] - margin),
            max(0, drawn[1] - margin),
            min(mask.width, drawn[2] + margin),
            min(mask.height, drawn[3] + margin),
        )
        patch = mask.crop(box)
        if radius > 0:
            patch = patch.filter(ImageFilter.GaussianBlur(radius))
        patch = patch.resize((patch.width * _SOFT, patch.height * _SOFT), Image.Resampling.BILINEAR)
        x0, y0 = box[0] * _SOFT, box[1] * _SOFT
        self.image.paste(fill, (x0, y0, x0 + patch.width, y0 + patch.height), patch)

    def glow(self, cx: float, cy: float, radius: float, fill: RGB, strength: float = 0.8) -> None:
        """A soft halo: strongest at the centre, gone at about ``radius``."""
        mask, draw, f = self._soft_mask()
        r = radius * 0.45
        draw.ellipse(((cx - r) * f, (cy - r) * f, (cx + r) * f, (cy + r) * f), fill=round(255 * strength))
        self._apply_soft(mask, radius * 0.4, fill)

    def soft_polygon(self, points: Sequence[Point], fill: RGB, alpha: float, blur: float) -> None:
        mask, draw, f = self._soft_mask()
        draw.polygon([(x * f, y * f) for x, y in points], fill=round(255 * alpha))
        self._apply_soft(mask, blur, fill)

    def soft_ellipse(
        self, cx: float, cy: float, rx: float, ry: float, fill: RGB, alpha: float, blur: float
    ) -> None:
        mask, draw, f = self._soft_mask()
        draw.ellipse(((cx - rx) * f, (cy - ry) * f, (cx + rx) * f, (cy + ry) * f), fill=round(255 * alpha))
        self._apply_soft(mask, blur, fill)

    def band(self, y0: float, y1: float, top: RGB, bottom: RGB) -> None:
        """Repaint a horizontal band with its own vertical gradient (water, a fog bank)."""
        s = self.scale
        top_px, bottom_px = round(y0 * s), round(y1 * s)
        if bottom_px <= top_px:
            return
        strip = vertical_gradient((self.size[0], bottom_px - top_px), top, bottom)
        self.image.paste(strip, (0, top_px))

    def band_in(self, x0: float, y0: float, x1: float, y1: float, top: RGB, bottom: RGB) -> None:
        """A vertical gradient filling only the box (a window pane, a picture)."""
        left, upper, right, lower = (round(v) for v in self._box(x0, y0, x1, y1))
        if right > left and lower > upper:
            self.image.paste(vertical_gradient((right - left, lower - upper), top, bottom), (left, upper))

    def arch_window(self, cx: float, ground: float, w: float, h: float, top: RGB, bottom: RGB) -> None:
        """Another sky seen through an arch: a gradient shown only inside the arch's opening."""
        mask = Image.new("L", self.size, 0)
        draw = ImageDraw.Draw(mask)
        draw.rectangle(self._box(cx - w / 2, ground - h, cx + w / 2, ground), fill=255)
        draw.ellipse(self._box(cx - w / 2, ground - h - w / 2, cx + w / 2, ground - h + w / 2), fill=255)
        s = self.scale
        top_px = round((ground - h - w / 2) * s)
        window = vertical_gradient((self.size[0], max(1, round((h + w / 2) * s))), top, bottom)
        canvas = Image.new("RGB", self.size, bottom)
        canvas.paste(window, (0, top_px))
        self.image.paste(canvas, (0, 0), mask)

    def vignette(self, cx: float, cy: float, fill: RGB, strength: float) -> None:
        """Darken what lies far from the light at (cx, cy): the eye goes where the light is."""
        factor = self.scale / _SOFT
        w, h = round(WIDTH * factor), round(HEIGHT * factor)
        reach = 2 * h  # the radial gradient covers the whole card wherever its centre is
        radial = Image.radial_gradient("L").resize((reach, reach), Image.Resampling.BILINEAR)
        left, top = round(reach / 2 - cx * factor), round(reach / 2 - cy * factor)
        mask = radial.crop((left, top, left + w, top + h))
        mask = mask.point(lambda v: round(255 * strength * _smooth((v - 40) / 140)))
        self._tint(fill, mask.resize(self.size, Image.Resampling.BILINEAR))

    def _tint(self, fill: RGB, mask: Image.Image) -> None:
        box = mask.getbbox()
        if box is not None:
            self.image.paste(fill, box, mask.crop(box))

    def finish(self) -> Image.Image:
        return self.image.reduce(self.scale)


def vertical_gradient(size: tuple[int, int], top: RGB, bottom: RGB) -> Image.Image:
    height = size[1]
    column = b"".join(bytes(mix(top, bottom, y / max(1, height - 1))) for y in range(height))
    return Image.frombytes("RGB", (1, height), column).resize(size, Image.Resampling.NEAREST)


def _smooth(t: float) -> float:
    t = max(0.0, min(1.0, t))
    return t * t * (3 - 2 * t)
