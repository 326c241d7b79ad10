"""The local twin enforces a presigned POST's policy as S3 does (#25: 11): one test per condition."""

from __future__ import annotations

import io
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest
from botocore.config import Config

from local_stack.post_policy import PresignedPostPolicy

BUCKET = "cards"
KEY = "uploads/d_5f2a9c/d_5f2a9c-001"


def form(**changes: str) -> dict[str, str]:
    """A real presigned form as the API makes it (app.aws.s3), with `changes` to its fields."""
    s3 = boto3.client(
        "s3",
        endpoint_url="http://127.0.0.1:9",
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
        config=Config(signature_version="s3v4"),  # as the API's own client (app.aws.clients)
    )
    made = s3.generate_presigned_post(
        Bucket=BUCKET,
        Key=KEY,
        Conditions=[["content-length-range", 1, 100], ["starts-with", "$Content-Type", "image/"]],
        ExpiresIn=600,
    )
    return {**made["fields"], "Content-Type": "image/png", **changes}


def multipart(fields: dict[str, str], data: bytes) -> bytes:
    parts = [
        f'--x\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        for name, value in fields.items()
    ]
    parts.append(
        b'--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n'
        b"Content-Type: image/png\r\n\r\n" + data + b"\r\n--x--\r\n"
    )
    return b"".join(parts)


def post(
    fields: dict[str, str], data: bytes = b"png!", *, later: timedelta = timedelta()
) -> tuple[str, bytes]:
    passed: list[bytes] = []

    def twin(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        passed.append(environ["wsgi.input"].read(int(environ["CONTENT_LENGTH"])))
        start_response("204 No Content", [])
        return [b""]

    body = multipart(fields, data)
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": f"/{BUCKET}",
        "CONTENT_TYPE": "multipart/form-data; boundary=x",
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": io.BytesIO(body),
    }
    statuses: list[str] = []
    # `later` after now, not after the module's import: a form is signed when its test runs, which on a
    # busy machine can be long after collection.
    posted_at = datetime.now(UTC) + later
    guard = PresignedPostPolicy(twin, clock=lambda: posted_at, secret_for=lambda key: "testing")
    answer = b"".join(guard(environ, lambda status, headers: statuses.append(status)))
    if passed:
        assert passed == [body]  # the twin reads the very form that was sent
    return statuses[0], answer


def test_a_form_within_its_policy_reaches_the_twin() -> None:
    assert post(form())[0].startswith("204")


def test_a_file_over_the_size_range_is_refused() -> None:
    status, answer = post(form(), b"x" * 101)
    assert status.startswith("400")
    assert b"EntityTooLarge" in answer


def test_an_empty_file_under_the_size_range_is_refused() -> None:
    assert b"EntityTooSmall" in post(form(), b"")[1]


def test_a_content_type_outside_the_prefix_is_refused() -> None:
    status, answer = post(form(**{"Content-Type": "text/html"}))
    assert status.startswith("403")
    assert b"content-type" in answer


@pytest.mark.parametrize("key", ["uploads/base/base-001", f"{KEY}x", "cards/base/base-001.webp"])
def test_another_key_than_the_signed_one_is_refused(key: str) -> None:
    status, answer = post(form(key=key))
    assert status.startswith("403")
    assert b"key" in answer


def test_an_expired_policy_is_refused() -> None:
    status, answer = post(form(), later=timedelta(seconds=601))
    assert status.startswith("403")
    assert b"Policy expired" in answer


def test_a_forged_signature_is_refused() -> None:
    status, answer = post(form(**{"x-amz-signature": "0" * 64}))
    assert status.startswith("403")
    assert b"SignatureDoesNotMatch" in answer


def test_a_field_the_policy_does_not_cover_is_refused() -> None:
    assert b"Extra input fields" in post(form(acl="public-read"))[1]
