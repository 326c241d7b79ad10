"""Turn one uploaded file into a standard card image, or say why not.

Runs only in CardIngestFunction, whose layer brings Pillow: the API function never imports this module.
The upload is untrusted: its declared content type means nothing, its bytes decide. The decoder sees only
JPEG, PNG and WebP, the pixel count is checked from the header before any pixel is decoded (a small file
can claim gigapixels), and the result is re-encoded from pixels alone, so no EXIF, GPS, ICC or XMP survives.
"""

from __future__ import annotations

import io
import warnings

from PIL import Image, ImageOps

CARD_WIDTH, CARD_HEIGHT = 400, 600
MAX_UPLOAD_BYTES = 5 * 1024 * 1024
# 50 megapixels: a phone photo fits; a decompression bomb's claimed canvas does not.
MAX_PIXELS = 50_000_000
MIN_SIDE = 64
FORMATS = ("JPEG", "PNG", "WEBP")
OUTPUT_QUALITY = 85


class Rejected(Exception):
    """The upload cannot become a card; `reason` is a stable code, `detail` says more."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


def sniff(data: bytes) -> str | None:
    """The format the bytes really are, by signature, or None."""
    if data.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WEBP"
    return None


def normalize(data: bytes) -> bytes:
    """The upload as a CARD_WIDTH x CARD_HEIGHT WebP without metadata; raises Rejected."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise Rejected("too_large", f"{len(data)} bytes; a card image is at most {MAX_UPLOAD_BYTES}")
    kind = sniff(data)
    if kind is None:
        raise Rejected("unsupported_format", "only JPEG, PNG and WebP images are accepted")
    try:
        with warnings.catch_warnings():
            # Pillow only warns between MAX_IMAGE_PIXELS and twice that; make every warning fatal.
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=[kind]) as image:
                width, height = image.size
                if width * height > MAX_PIXELS:
                    raise Rejected("too_many_pixels", f"{width}x{height} is more than {MAX_PIXELS} pixels")
                if min(width, height) < MIN_SIDE:
                    raise Rejected("too_small", f"{width}x{height}: each side needs {MIN_SIDE} pixels")
                image.load()
                upright = ImageOps.exif_transpose(image)
                size = (CARD_WIDTH, CARD_HEIGHT)
                card = ImageOps.fit(upright.convert("RGB"), size, Image.Resampling.LANCZOS)
    except Rejected:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as bomb:
        raise Rejected("too_many_pixels", str(bomb)) from None
    except (OSError, SyntaxError, ValueError, EOFError) as broken:
        # Truncated or corrupt data: Pillow says so with any of these.
        what = type(broken).__name__
        raise Rejected("undecodable", f"the {kind} data cannot be decoded ({what})") from None
    out = io.BytesIO()
    card.save(out, "WEBP", quality=OUTPUT_QUALITY)
    return out.getvalue()
