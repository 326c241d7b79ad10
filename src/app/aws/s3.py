"""The only module that talks to S3: card images' links, upload forms, reads and writes.

Links are SigV4 query-presigned here rather than by botocore, for two reasons. A link must stay the same
for a whole time window so clients can cache the image: botocore signs with the current second, the
caller (app.decks.card_images) signs with the window's start and an expiry that covers the window plus
the TTL. And a vote's answer carries a dozen links: botocore's generic request pipeline made presigning
29 % of the handler's CPU, one HMAC per link (memoized per window in a warm Lambda) costs almost nothing.

The signing credentials come from the session's public API: `get_credentials()` is a
RefreshableCredentials under a role, and `get_frozen_credentials()` at each signing refreshes it when it
is about to expire, so a rotation is honoured; the memo is per (window, access key), so a rotation
empties it.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlsplit

from botocore.exceptions import NoCredentialsError

from app.aws import clients as aws_clients
from dixit.lean_dataclass import dataclass

if TYPE_CHECKING:
    from collections.abc import Sequence

    import botocore.session
    from botocore.credentials import ReadOnlyCredentials
    from mypy_boto3_s3 import S3Client


@dataclass(frozen=True, slots=True)
class Signer:
    """What a presigned link needs: where S3 is and whose credentials sign, as of now."""

    endpoint: str
    region: str
    access_key: str
    secret_key: str
    token: str | None


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


class S3ObjectStore:
    """app.decks.ports.ObjectStore over S3.

    With no `session`, the client and credentials are app.aws.clients' (looked up at each call, not
    kept: tests switch endpoints and credentials under a shared instance and reset the clients).
    """

    def __init__(self, session: botocore.session.Session | None = None) -> None:
        self._session = session
        self._client: S3Client | None = None
        self._memo: dict[tuple[str, str], str] = {}
        self._memo_for: tuple[int, int, str, object] | None = None

    @property
    def client(self) -> S3Client:
        if self._session is None:
            return aws_clients.s3()
        if self._client is None:
            self._client = aws_clients.s3_of(self._session)
        return self._client

    def _credentials(self) -> ReadOnlyCredentials:
        credentials = (self._session or aws_clients.session()).get_credentials()
        # Frozen at each signing: a RefreshableCredentials refreshes here when it is about to expire.
        frozen = credentials.get_frozen_credentials() if credentials is not None else None
        if frozen is None or not frozen.access_key or not frozen.secret_key:
            raise NoCredentialsError()
        return frozen

    @staticmethod
    def _signer_of(client: S3Client, frozen: ReadOnlyCredentials) -> Signer:
        return Signer(
            endpoint=client.meta.endpoint_url.rstrip("/"),
            region=client.meta.region_name,
            access_key=frozen.access_key or "",
            secret_key=frozen.secret_key or "",
            token=frozen.token,
        )

    def signer(self) -> Signer:
        """Where S3 is and the credentials that sign now, through public APIs only."""
        return self._signer_of(self.client, self._credentials())

    def link(self, bucket: str, key: str, *, signed_at: int, expires_in: int) -> str:
        (url,) = self.links(bucket, (key,), signed_at=signed_at, expires_in=expires_in)
        return url

    def links(self, bucket: str, keys: Sequence[str], *, signed_at: int, expires_in: int) -> list[str]:
        client, frozen = self.client, self._credentials()
        # A new window, rotated credentials or another client (endpoint): every memoized link is stale.
        memo_for = (signed_at, expires_in, frozen.access_key or "", client)
        if self._memo_for != memo_for:
            self._memo = {}
            self._memo_for = memo_for
        memo, signer, urls = self._memo, None, []
        for key in keys:
            url = memo.get((bucket, key))
            if url is None:
                signer = signer or self._signer_of(client, frozen)  # on a miss only: a hit is a lookup
                url = memo[(bucket, key)] = presign_get(
                    signer, bucket, key, signed_at=signed_at, expires_in=expires_in
                )
            urls.append(url)
        return urls

    def upload_form(
        self, bucket: str, key: str, *, max_bytes: int, content_type_prefix: str, expires_in: int
    ) -> dict[str, Any]:
        form: dict[str, Any] = self.client.generate_presigned_post(
            Bucket=bucket,
            Key=key,
            Conditions=[
                ["content-length-range", 1, max_bytes],
                ["starts-with", "$Content-Type", content_type_prefix],
            ],
            ExpiresIn=expires_in,
        )
        return form

    def read(self, bucket: str, key: str, *, limit: int) -> bytes | None:
        client = self.client
        try:
            body = client.get_object(Bucket=bucket, Key=key)["Body"]
        except client.exceptions.NoSuchKey:
            return None
        data: bytes = body.read(limit)
        body.close()
        return data

    def put(self, bucket: str, key: str, data: bytes, *, content_type: str) -> None:
        self.client.put_object(Bucket=bucket, Key=key, Body=data, ContentType=content_type)

    def delete(self, bucket: str, key: str) -> None:
        self.client.delete_object(Bucket=bucket, Key=key)
