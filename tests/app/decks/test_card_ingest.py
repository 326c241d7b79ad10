"""The custom card ingest: only real, sane JPEG/PNG/WebP images become cards, without their metadata."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image

from app.decks.ingest import CARD_HEIGHT, CARD_WIDTH, MAX_PIXELS, MAX_UPLOAD_BYTES, Rejected, normalize


def photo(fmt: str, size: tuple[int, int] = (800, 600), **save: object) -> bytes:
    image = Image.new("RGB", size, (200, 80, 40))
    out = io.BytesIO()
    image.save(out, fmt, **save)
    return out.getvalue()


def png_claiming(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims a huge canvas: the classic decompression bomb."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\0" * 64))
        + chunk(b"IEND", b"")
    )


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
def test_a_good_image_becomes_a_standard_size_webp_card(fmt: str) -> None:
    card = Image.open(io.BytesIO(normalize(photo(fmt))))
    assert card.format == "WEBP"
    assert card.size == (CARD_WIDTH, CARD_HEIGHT)


def test_metadata_does_not_survive_the_ingest() -> None:
    exif = Image.Exif()
    exif[0x010F] = "SecretCam"  # Make
    exif[0x8825] = {1: "N", 2: (48.0, 51.0, 29.0)}  # GPS
    card = Image.open(io.BytesIO(normalize(photo("JPEG", exif=exif.tobytes()))))
    assert not card.getexif()
    assert "exif" not in card.info
    assert "icc_profile" not in card.info


def test_an_oversized_upload_is_rejected_as_too_large() -> None:
    with pytest.raises(Rejected) as refused:
        normalize(photo("PNG") + b"\0" * MAX_UPLOAD_BYTES)
    assert refused.value.reason == "too_large"


@pytest.mark.parametrize(
    "data",
    [b"GIF89a" + b"\0" * 100, b"<svg xmlns='http://www.w3.org/2000/svg'/>", b"%PDF-1.7", b""],
    ids=["gif", "svg", "pdf", "empty"],
)
def test_another_type_is_rejected_whatever_it_claims(data: bytes) -> None:
    with pytest.raises(Rejected) as refused:
        normalize(data)
    assert refused.value.reason == "unsupported_format"


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
def test_a_truncated_image_is_rejected_as_undecodable(fmt: str) -> None:
    data = photo(fmt, (1200, 1800), **({"quality": 95} if fmt != "PNG" else {}))
    with pytest.raises(Rejected) as refused:
        normalize(data[: len(data) // 2])
    assert refused.value.reason == "undecodable"


@pytest.mark.parametrize(("width", "height"), [(20_000, 20_000), (100_000, 100_000)], ids=["400MP", "10GP"])
def test_a_decompression_bomb_is_refused_before_its_pixels_are_decoded(width: int, height: int) -> None:
    bomb = png_claiming(width, height)
    assert len(bomb) < 200
    assert width * height > MAX_PIXELS
    with pytest.raises(Rejected) as refused:
        normalize(bomb)
    assert refused.value.reason == "too_many_pixels"


def test_an_image_too_small_to_be_a_card_is_rejected() -> None:
    with pytest.raises(Rejected) as refused:
        normalize(photo("PNG", (32, 48)))
    assert refused.value.reason == "too_small"
