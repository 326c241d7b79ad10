"""The committed openapi.json is what the code generates, and it is served."""

from __future__ import annotations

import json
from pathlib import Path

from handlers.openapi import render

from .client import call

PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}
COMMITTED = Path(__file__).resolve().parents[2] / "openapi.json"


def test_the_committed_openapi_document_matches_the_code() -> None:
    assert COMMITTED.read_text() == render(), "openapi.json drifted: run `make openapi` and commit it"


def test_every_route_documents_the_problem_shape_for_errors() -> None:
    doc = json.loads(COMMITTED.read_text())
    for operations in doc["paths"].values():
        for operation in operations.values():
            for status in ("404", "422", "500"):
                content = operation["responses"][status]["content"]
                assert content == {"application/problem+json": {"schema": PROBLEM_REF}}


def test_the_document_is_served_without_a_token(aws: None) -> None:
    reply = call("GET", "/openapi.json")
    assert reply.status == 200
    assert json.loads(reply.raw) == json.loads(COMMITTED.read_text())


def test_the_docs_page_is_served_without_a_token(aws: None) -> None:
    reply = call("GET", "/docs")
    assert reply.status == 200
    assert "swagger" in reply.raw.lower()
