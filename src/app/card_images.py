"""The only module that talks to S3: presigned links to card images."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app import aws_clients
from dixit.cards import deck_of

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client


# Card art is WebP: a scene at 400x600 stays under 60 KB where a full-colour PNG would not.
IMAGE_EXTENSION = "webp"


def image_key(card_id: str) -> str:
    """The object key of a card's image: from the card alone, so it never tells who played it."""
    return f"cards/{deck_of(card_id)}/{card_id}.{IMAGE_EXTENSION}"


class CardImages:
    """Signs GET links locally (no request to S3); with no bucket configured every link is None."""

    def __init__(self, bucket: str, ttl_seconds: int, client: S3Client | None = None) -> None:
        self.bucket = bucket
        self.ttl_seconds = ttl_seconds
        self._client = client

    def url_for(self, card_id: str) -> str | None:
        if not self.bucket:
            return None
        if self._client is None:
            self._client = aws_clients.s3()
        return self._client.generate_presigned_url(
            "get_object",
            Params={"Bucket": self.bucket, "Key": image_key(card_id)},
            ExpiresIn=self.ttl_seconds,
        )
