"""``python -m card_art.icons [--out web/icons]``: the web client's app icons, cut from one of the project's
own generated cards (never real Dixit art), so the home-screen icon looks like the cards in play.

Writes icon-192.png, icon-512.png, icon-maskable-512.png (the card kept inside the 80% safe zone a
platform's mask may crop to) and apple-touch-icon.png (180 px, which iOS uses instead of the manifest).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw

from card_art.scene import compose

CARD = "base-002"  # a lit window over a bare floor: a few large shapes, so it still reads at 48 px
BACKGROUND = (59, 42, 99)  # the bar's colour, theme_color in the manifest
OUT = Path(__file__).resolve().parents[2] / "web" / "icons"


def icon(size: int, *, safe_share: float = 0.9) -> Image.Image:
    """The card, its corners rounded, centred on the theme colour, its height `safe_share` of the icon."""
    card = compose(CARD).convert("RGBA")
    height = round(size * safe_share)
    width = round(card.width * height / card.height)
    card = card.resize((width, height), Image.Resampling.LANCZOS)
    mask = Image.new("L", card.size, 0)
    corners = max(2, width // 10)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, width - 1, height - 1), radius=corners, fill=255)
    canvas = Image.new("RGBA", (size, size), (*BACKGROUND, 255))
    canvas.paste(card, ((size - width) // 2, (size - height) // 2), mask)
    return canvas.convert("RGB")


def write(out: Path = OUT) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    made = {
        "icon-192.png": icon(192),
        "icon-512.png": icon(512),
        "icon-maskable-512.png": icon(512, safe_share=0.72),
        "apple-touch-icon.png": icon(180),
    }
    paths = []
    for name, image in made.items():
        path = out / name
        image.save(path, "PNG", optimize=True)
        paths.append(path)
    return paths


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m card_art.icons", description=__doc__)
    parser.add_argument("--out", type=Path, default=OUT)
    for path in write(parser.parse_args(argv).out):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
