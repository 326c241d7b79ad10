"""Card image links: what botocore would sign, stable within a window, and saying nothing of players."""

from __future__ import annotations

from datetime import UTC, datetime
from urllib.parse import parse_qs, urlsplit

import boto3
import pytest
from botocore.config import Config

from app.decks.card_images import CardImages, image_key, presign_get
from app.decks.card_images import _signer_of as signer_of

WINDOW = 3_600


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> object:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "secret")
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    config = Config(s3={"addressing_style": "path"}, signature_version="s3v4")
    return boto3.client("s3", region_name="eu-west-1", config=config)


def test_a_link_is_exactly_what_botocore_signs_at_the_same_moment(
    s3: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    moment = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
    monkeypatch.setattr("botocore.auth.get_current_datetime", lambda *a, **k: moment.replace(tzinfo=None))
    params = {"Bucket": "cards-bucket", "Key": image_key("base-007")}
    theirs = s3.generate_presigned_url("get_object", Params=params, ExpiresIn=7200)  # type: ignore[attr-defined]
    ours = presign_get(
        signer_of(s3),  # type: ignore[arg-type]
        "cards-bucket",
        image_key("base-007"),
        signed_at=int(moment.timestamp()),
        expires_in=7200,
    )
    a, b = urlsplit(theirs), urlsplit(ours)
    assert (a.scheme, a.netloc, a.path) == (b.scheme, b.netloc, b.path)
    assert parse_qs(a.query) == parse_qs(b.query)


def test_links_stay_the_same_within_a_window_and_change_with_the_next(s3: object) -> None:
    now = [1_700_000_000.0]
    images = CardImages("b", 600, s3, window_seconds=WINDOW, clock=lambda: now[0])  # type: ignore[arg-type]
    start = now[0] // WINDOW * WINDOW
    now[0] = start + 1
    first = images.url_for("base-001")
    now[0] = start + WINDOW - 1
    assert images.url_for("base-001") == first
    now[0] = start + WINDOW
    assert images.url_for("base-001") != first


def test_a_link_outlives_its_window_by_the_ttl(s3: object) -> None:
    images = CardImages("b", 600, s3, window_seconds=WINDOW, clock=lambda: 1_700_000_123.0)  # type: ignore[arg-type]
    query = parse_qs(urlsplit(images.url_for("base-001") or "").query)
    signed = datetime.strptime(query["X-Amz-Date"][0], "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC).timestamp()
    assert signed % WINDOW == 0
    assert signed + int(query["X-Amz-Expires"][0]) >= 1_700_000_123 + 600


def test_with_a_base_url_official_art_is_unsigned_and_custom_decks_stay_presigned(s3: object) -> None:
    images = CardImages("b", 600, s3, base_url="https://cdn.example.com/")  # type: ignore[arg-type]
    assert images.url_for("base-003") == f"https://cdn.example.com/{image_key('base-003')}"
    assert "X-Amz-Signature" in (images.url_for("d0123456789abcdef-003") or "")
