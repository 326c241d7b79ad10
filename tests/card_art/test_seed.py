"""Seeding a bucket on moto: uploads once, skips on rerun, and the bytes are the card's."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import boto3
import pytest
from moto import mock_aws

import card_art
from app.aws import clients as aws_clients
from app.decks.card_images import image_key
from card_art.cli import main
from dixit.cards import OFFICIAL_DECKS

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

BUCKET = "dixit-cards-seed-test"


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[S3Client]:
    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    aws_clients.reset()
    with mock_aws():
        client = boto3.client("s3")
        client.create_bucket(Bucket=BUCKET)
        yield client
    aws_clients.reset()


def _body(s3: S3Client, key: str) -> tuple[bytes, str]:
    answer = s3.get_object(Bucket=BUCKET, Key=key)
    return answer["Body"].read(), answer["ContentType"]


def test_seeding_uploads_each_card_once_and_a_rerun_skips_them_all(s3: S3Client) -> None:
    cards = ["base-001", "base-002", "quest-084"]
    first = card_art.seed_bucket(s3, BUCKET, cards, image_key)
    again = card_art.seed_bucket(s3, BUCKET, cards, image_key)
    assert (first.uploaded, first.skipped) == (3, 0)
    assert (again.uploaded, again.skipped) == (0, 3)
    for card_id in cards:
        assert _body(s3, image_key(card_id)) == (card_art.render(card_id), card_art.CONTENT_TYPE)


def test_seeding_leaves_an_object_already_at_a_key_untouched(s3: S3Client) -> None:
    s3.put_object(Bucket=BUCKET, Key=image_key("base-005"), Body=b"someone's own art")
    result = card_art.seed_bucket(s3, BUCKET, ["base-005", "base-006"], image_key)
    assert (result.uploaded, result.skipped) == (1, 1)
    assert _body(s3, image_key("base-005"))[0] == b"someone's own art"


def test_seed_art_uploads_the_chosen_decks_from_the_cache_and_skips_them_on_rerun(
    s3: S3Client,
    stub_cache: Callable[[str, tuple[int, int, int]], bytes],
    capsys: pytest.CaptureFixture[str],
) -> None:
    cards = OFFICIAL_DECKS["origins"].card_ids()
    stored = {card_id: stub_cache(card_id, (i, 0, 0)) for i, card_id in enumerate(cards)}

    assert main(["seed-art", "--bucket", BUCKET, "--decks", "origins"]) == 0
    assert "84 uploaded, 0 already there" in capsys.readouterr().out
    assert main(["seed-art", "--bucket", BUCKET, "--decks", "origins"]) == 0
    assert "0 uploaded, 84 already there" in capsys.readouterr().out

    listed = s3.list_objects_v2(Bucket=BUCKET)
    assert sorted(item["Key"] for item in listed["Contents"]) == sorted(image_key(c) for c in cards)
    for card_id in (cards[0], cards[-1]):
        assert _body(s3, image_key(card_id)) == (stored[card_id], card_art.CONTENT_TYPE)


def test_seed_art_refuses_a_deck_that_does_not_exist(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["seed-art", "--bucket", BUCKET, "--decks", "nope"])
    assert stop.value.code == 2
    assert "no official deck 'nope'" in capsys.readouterr().err


def test_seed_art_reports_a_missing_bucket_in_one_line(
    s3: S3Client, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["seed-art", "--bucket", "no-such-bucket", "--decks", "base"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("seed-art: ")
    assert "NoSuchBucket" in err
    assert "Traceback" not in err
