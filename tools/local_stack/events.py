"""The API Gateway REST API (version 1.0 Lambda proxy) event: built here once, for the gateway and tests."""

from __future__ import annotations

import base64
import uuid
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

ACCOUNT_ID = "123456789012"
REST_API_ID = "dixitlocal"

Pairs = Iterable[tuple[str, str]] | Mapping[str, str]


def _pairs(values: Pairs | None) -> list[tuple[str, str]]:
    if values is None:
        return []
    return list(values.items()) if isinstance(values, Mapping) else list(values)


def _single_and_multi(pairs: list[tuple[str, str]]) -> tuple[dict[str, str], dict[str, list[str]]]:
    single: dict[str, str] = {}
    multi: dict[str, list[str]] = {}
    for name, value in pairs:
        single[name] = value  # like API Gateway, the last value wins
        multi.setdefault(name, []).append(value)
    return single, multi


def _body(body: bytes | str | None) -> tuple[str | None, bool]:
    """The event's ``body`` and ``isBase64Encoded``: text as is, bytes that are not UTF-8 as base64."""
    if isinstance(body, str):
        return body, False
    if not body:
        return None, False
    try:
        return body.decode("utf-8"), False
    except UnicodeDecodeError:
        return base64.b64encode(body).decode("ascii"), True


def rest_proxy_event(
    method: str,
    path: str,
    *,
    resource: str,
    path_parameters: Mapping[str, str] | None = None,
    headers: Pairs | None = None,
    query: Pairs | None = None,
    body: bytes | str | None = None,
    stage: str = "dev",
    source_ip: str = "127.0.0.1",
    host: str = "127.0.0.1",
    protocol: str = "HTTP/1.1",
) -> dict[str, Any]:
    """The event API Gateway sends a Lambda proxy integration for one request on ``resource``."""
    header_pairs = _pairs(headers)
    single_headers, multi_headers = _single_and_multi(header_pairs)
    single_query, multi_query = _single_and_multi(_pairs(query))
    body_text, is_base64 = _body(body)
    now = datetime.now(UTC)
    request_id = str(uuid.uuid4())
    user_agent = next((value for name, value in header_pairs if name.lower() == "user-agent"), None)
    return {
        "resource": resource,
        "path": path,
        "httpMethod": method,
        "headers": single_headers or None,
        "multiValueHeaders": multi_headers or None,
        "queryStringParameters": single_query or None,
        "multiValueQueryStringParameters": multi_query or None,
        "pathParameters": dict(path_parameters) if path_parameters else None,
        "stageVariables": None,
        "requestContext": {
            "accountId": ACCOUNT_ID,
            "apiId": REST_API_ID,
            "domainName": host,
            "domainPrefix": host.split(".")[0],
            "extendedRequestId": request_id,
            "httpMethod": method,
            "identity": {
                "accessKey": None,
                "accountId": None,
                "apiKey": None,
                "apiKeyId": None,
                "caller": None,
                "cognitoAuthenticationProvider": None,
                "cognitoAuthenticationType": None,
                "cognitoIdentityId": None,
                "cognitoIdentityPoolId": None,
                "principalOrgId": None,
                "sourceIp": source_ip,
                "user": None,
                "userAgent": user_agent,
                "userArn": None,
            },
            "path": f"/{stage}{path}",
            "protocol": protocol,
            "requestId": request_id,
            "requestTime": now.strftime("%d/%b/%Y:%H:%M:%S +0000"),
            "requestTimeEpoch": int(now.timestamp() * 1000),
            "resourceId": format(abs(hash(resource)) % 0xFFFFFF, "06x"),
            "resourcePath": resource,
            "stage": stage,
        },
        "body": body_text,
        "isBase64Encoded": is_base64,
    }
