"""S3's presigned POST policy, enforced in front of the twin (moto accepts any form it is sent).

A browser form upload to S3 carries a base64 JSON policy and its SigV4 signature; S3 refuses the upload
unless the signature is the bucket owner's and the form meets every condition (exact key, content-type
prefix, size range, expiry). moto checks none of it, so without this no local test could catch a policy
regression. Only form uploads (multipart POSTs carrying a `policy` field) are judged; the rest passes.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import json
import os
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from werkzeug.formparser import parse_form_data

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]
# Fields S3 never asks a policy to cover.
_UNCOVERED = frozenset({"file", "policy", "x-amz-signature"})
_FAILED = "Invalid according to Policy: Policy Condition failed"


class PolicyRefused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _secret_from_environment(access_key: str) -> str | None:
    """The secret the local stack signs with (its functions run with this process's credentials)."""
    if access_key != os.environ.get("AWS_ACCESS_KEY_ID", "testing"):
        return None
    return os.environ.get("AWS_SECRET_ACCESS_KEY", "testing")


def _signature(secret: str, date: str, region: str, service: str, policy: str) -> str:
    key = f"AWS4{secret}".encode()
    for part in (date, region, service, "aws4_request"):
        key = hmac.new(key, part.encode(), hashlib.sha256).digest()
    return hmac.new(key, policy.encode(), hashlib.sha256).hexdigest()


def judge(
    bucket: str,
    fields: Mapping[str, str],
    file_size: int,
    *,
    now: datetime,
    secret_for: Callable[[str], str | None] = _secret_from_environment,
) -> None:
    """Raise PolicyRefused unless the form (`fields`, names lower-cased; a file of `file_size` bytes)
    is one S3 would take into `bucket`."""
    policy = fields.get("policy", "")
    credential = fields.get("x-amz-credential", "").split("/")
    if fields.get("x-amz-algorithm") != "AWS4-HMAC-SHA256" or len(credential) != 5:
        raise PolicyRefused("InvalidArgument", "the form is not signed with AWS4-HMAC-SHA256")
    access_key, date, region, service, _ = credential
    secret = secret_for(access_key)
    expected = "" if secret is None else _signature(secret, date, region, service, policy)
    if not hmac.compare_digest(expected, fields.get("x-amz-signature", "")) or secret is None:
        raise PolicyRefused("SignatureDoesNotMatch", "the policy's signature does not match")
    try:
        document = json.loads(base64.b64decode(policy, validate=True))
        expiration = datetime.fromisoformat(str(document["expiration"]).replace("Z", "+00:00"))
        conditions = list(document["conditions"])
    except (ValueError, KeyError, TypeError):
        raise PolicyRefused("InvalidPolicyDocument", "the policy cannot be read") from None
    if expiration <= now:
        raise PolicyRefused("AccessDenied", "Invalid according to Policy: Policy expired.")
    values = {**fields, "bucket": bucket}
    covered = {"bucket"}
    for condition in conditions:
        covered |= _meets(condition, values, file_size)
    extra = sorted(set(fields) - covered - _UNCOVERED - {n for n in fields if n.startswith("x-ignore-")})
    if extra:
        raise PolicyRefused(
            "AccessDenied", f"Invalid according to Policy: Extra input fields: {', '.join(extra)}"
        )


def _meets(condition: Any, values: Mapping[str, str], file_size: int) -> set[str]:
    """The fields `condition` covers, if the form meets it; raises PolicyRefused otherwise."""
    if isinstance(condition, dict):
        covered = set()
        for name, wanted in condition.items():
            if values.get(name.lower()) != str(wanted):
                raise PolicyRefused(
                    "AccessDenied", f"Invalid according to Policy: Policy Condition failed: {name}"
                )
            covered.add(name.lower())
        return covered
    operator, *arguments = condition
    if operator == "content-length-range":
        low, high = (int(a) for a in arguments)
        if not low <= file_size <= high:
            code = "EntityTooLarge" if file_size > high else "EntityTooSmall"
            raise PolicyRefused(code, f"the file is {file_size} bytes; the policy allows {low} to {high}")
        return set()
    name = str(arguments[0]).removeprefix("$").lower()
    value = values.get(name, "")
    if (operator == "eq" and value != arguments[1]) or (
        operator == "starts-with" and not value.startswith(str(arguments[1]))
    ):
        raise PolicyRefused("AccessDenied", f"{_FAILED}: {name}")
    return {name}


class PresignedPostPolicy:
    """WSGI middleware: a form upload reaches the twin only if S3 would have taken it."""

    def __init__(self, app: WsgiApp, *, clock: Callable[[], datetime] | None = None,
                 secret_for: Callable[[str], str | None] = _secret_from_environment) -> None:  # fmt: skip
        self.app = app
        self.clock = clock or (lambda: datetime.now(UTC))
        self.secret_for = secret_for

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") != "POST" or not str(environ.get("CONTENT_TYPE", "")).startswith(
            "multipart/form-data"
        ):
            return self.app(environ, start_response)
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(length) if length else b""
        probe = {**environ, "wsgi.input": io.BytesIO(body)}
        _, form, files = parse_form_data(probe)
        environ["wsgi.input"] = io.BytesIO(body)  # moto reads the form again, as sent
        fields = {name.lower(): value for name, value in form.items()}
        if "policy" not in fields:
            return self.app(environ, start_response)
        upload = files.get("file")
        size = 0 if upload is None else len(upload.read())
        bucket = str(environ.get("PATH_INFO", "/")).strip("/").split("/")[0]
        try:
            judge(bucket, fields, size, now=self.clock(), secret_for=self.secret_for)
        except PolicyRefused as refused:
            xml = (f"<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>{refused.code}</Code>"
                   f"<Message>{refused.message}</Message></Error>").encode()  # fmt: skip
            status = "400 Bad Request" if refused.code.startswith("Entity") else "403 Forbidden"
            start_response(status, [("Content-Type", "application/xml"), ("Content-Length", str(len(xml)))])
            return [xml]
        return self.app(environ, start_response)
