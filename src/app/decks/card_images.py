"""The only module that talks to S3 for card images: links to read them, forms to upload a deck's cards.

Links are SigV4 query-presigned here rather than by botocore, for two reasons. A link must stay the same
for a whole time window so clients can cache the image: botocore signs with the current second, we sign
with the window's start and an expiry that covers the window plus the TTL. And a vote's answer carries a
dozen links: botocore's generic request pipeline made presigning 29 % of the handler's CPU, one HMAC per
link (memoized per window in a warm Lambda) costs almost nothing.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlsplit

from app.aws import clients as aws_clients
from dixit.cards import OFFICIAL_DECKS, deck_of

if TYPE_CHECKING:
    from collections.abc import Callable

    from mypy_boto3_s3 import S3Client

# Card art is WebP: a scene at 400x600 stays under 60 KB where a full-colour PNG would not; the ingest
# re-encodes custom cards to WebP too.
IMAGE_EXTENSION = "webp"
CONTENT_TYPE = "image/webp"
UPLOAD_PREFIX = "uploads/"
# SigV4 refuses an X-Amz-Expires above seven days.
MAX_EXPIRES_SECONDS = 604_800


def image_key(card_id: str) -> str:
    """Where a card's image lives: derived from the card alone, so it never says who holds or played it."""
    return f"cards/{deck_of(card_id)}/{card_id}.{IMAGE_EXTENSION}"


def upload_key(card_id: str) -> str:
    """Where a custom card's raw upload lands; the ingest turns it into image_key(card_id)."""
    return f"{UPLOAD_PREFIX}{deck_of(card_id)}/{card_id}"


def card_of_upload(key: str) -> str | None:
    """The card an upload key belongs to, or None for any other key."""
    if not key.startswith(UPLOAD_PREFIX):
        return None
    parts = key[len(UPLOAD_PREFIX) :].split("/")
    if len(parts) != 2:
        return None
    deck_id, card_id = parts
    try:
        return card_id if deck_of(card_id) == deck_id else None
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class Signer:
    """What a presigned link needs from the client: where S3 is and whose credentials sign."""

    endpoint: str
    region: str
    access_key: str
    secret_key: str
    token: str | None


def _signer_of(client: S3Client) -> Signer:
    credentials = client._request_signer._credentials.get_frozen_credentials()  # type: ignore[attr-defined]
    return Signer(
        endpoint=client.meta.endpoint_url.rstrip("/"),
        region=client.meta.region_name,
        access_key=credentials.access_key,
        secret_key=credentials.secret_key,
        token=credentials.token,
    )


def _hmac(key: bytes, message: str) -> bytes:
    return hmac.new(key, message.encode(), hashlib.sha256).digest()


def presign_get(signer: Signer, bucket: str, key: str, *, signed_at: int, expires_in: int) -> str:
    """A path-style SigV4 query-signed GET link (what botocore's generate_presigned_url makes)."""
    when = datetime.fromtimestamp(signed_at, UTC)
    stamp, day = when.strftime("%Y%m%dT%H%M%SZ"), when.strftime("%Y%m%d")
    scope = f"{day}/{signer.region}/s3/aws4_request"
    parts = urlsplit(signer.endpoint)
    path = f"{parts.path}/{bucket}/{quote(key, safe='/~')}"
    query = {
        "X-Amz-Algorithm": "AWS4-HMAC-SHA256",
        "X-Amz-Credential": f"{signer.access_key}/{scope}",
        "X-Amz-Date": stamp,
        "X-Amz-Expires": str(expires_in),
        "X-Amz-SignedHeaders": "host",
    }
    if signer.token:
        query["X-Amz-Security-Token"] = signer.token
    canonical_query = "&".join(f"{quote(k, safe='~')}={quote(v, safe='~')}" for k, v in sorted(query.items()))
    canonical_request = f"GET\n{path}\n{canonical_query}\nhost:{parts.netloc}\n\nhost\nUNSIGNED-PAYLOAD"
    to_sign = f"AWS4-HMAC-SHA256\n{stamp}\n{scope}\n{hashlib.sha256(canonical_request.encode()).hexdigest()}"
    key_bytes = _hmac(
        _hmac(_hmac(_hmac(f"AWS4{signer.secret_key}".encode(), day), signer.region), "s3"), "aws4_request"
    )
    signature = hmac.new(key_bytes, to_sign.encode(), hashlib.sha256).hexdigest()
    return f"{parts.scheme}://{parts.netloc}{path}?{canonical_query}&X-Amz-Signature={signature}"


class CardImages:
    """Image links for cards: stable for a time window, memoized per warm Lambda.

    With `base_url`, official decks' art comes from there (a CDN in front of the bucket) unsigned; custom
    decks are always presigned. With no bucket configured every link is None.
    """

    def __init__(
        self,
        bucket: str,
        ttl_seconds: int,
        client: S3Client | None = None,
        *,
        window_seconds: int = 3_600,
        base_url: str = "",
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.bucket = bucket
        self.ttl_seconds = ttl_seconds
        self.window_seconds = window_seconds
        self.base_url = base_url.rstrip("/")
        self._client = client
        self._clock = clock or (lambda: datetime.now(UTC).timestamp())
        self._memo: dict[str, str] = {}
        self._memo_window: tuple[int, str] | None = None

    def _s3(self) -> S3Client:
        # Not kept: aws_clients caches the client, and tests switch endpoints under a shared instance.
        return self._client or aws_clients.s3()

    def url_for(self, card_id: str) -> str | None:
        if self.base_url and deck_of(card_id) in OFFICIAL_DECKS:
            return f"{self.base_url}/{image_key(card_id)}"
        if not self.bucket:
            return None
        window_start = int(self._clock()) // self.window_seconds * self.window_seconds
        signer = _signer_of(self._s3())
        # New window or rotated credentials: every memoized link is stale.
        if self._memo_window != (window_start, signer.access_key):
            self._memo = {}
            self._memo_window = (window_start, signer.access_key)
        url = self._memo.get(card_id)
        if url is None:
            url = presign_get(
                signer,
                self.bucket,
                image_key(card_id),
                signed_at=window_start,
                expires_in=min(self.window_seconds + self.ttl_seconds, MAX_EXPIRES_SECONDS),
            )
            self._memo[card_id] = url
        return url

    def upload_form(self, card_id: str, *, max_bytes: int, expires_in: int) -> dict[str, Any]:
        """A presigned POST form for one custom card: JPEG, PNG or WebP only, at most `max_bytes`."""
        form: dict[str, Any] = self._s3().generate_presigned_post(
            Bucket=self.bucket,
            Key=upload_key(card_id),
            Conditions=[
                ["content-length-range", 1, max_bytes],
                ["starts-with", "$Content-Type", "image/"],
            ],
            ExpiresIn=expires_in,
        )
        return form

    def read_upload(self, key: str, max_bytes: int) -> bytes | None:
        """An upload's first `max_bytes` + 1 bytes (enough to tell it is too large); None if gone."""
        try:
            body = self._s3().get_object(Bucket=self.bucket, Key=key)["Body"]
        except self._s3().exceptions.NoSuchKey:
            return None
        data: bytes = body.read(max_bytes + 1)
        body.close()
        return data

    def store_image(self, card_id: str, data: bytes) -> None:
        self._s3().put_object(Bucket=self.bucket, Key=image_key(card_id), Body=data, ContentType=CONTENT_TYPE)

    def delete(self, key: str) -> None:
        self._s3().delete_object(Bucket=self.bucket, Key=key)

    def delete_image(self, card_id: str) -> None:
        self.delete(image_key(card_id))
