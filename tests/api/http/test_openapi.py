"""The committed openapi.json is what the routes declare, it is served, and /docs shows the same."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest

from app.games.idempotency import MAX_KEY_LENGTH
from app.games.schemas import GiveClue
from app.players.schemas import CreatePlayer
from dixit.limits import MAX_CLUE_LENGTH, MAX_NAME_LENGTH
from handlers import openapi
from handlers.api import whole_api

from ..client import call

PROBLEM = {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
COMMITTED = Path(__file__).resolve().parents[3] / "openapi.json"
MOVES = ("join", "leave", "start", "clue", "submissions", "votes")


def committed() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(COMMITTED.read_text())
    return document


def operation(method: str, path: str) -> dict[str, Any]:
    found: dict[str, Any] = committed()["paths"][path][method]
    return found


def header(op: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in op["parameters"] if p["in"] == "header" and p["name"].lower() == name.lower())


def test_the_committed_openapi_document_matches_the_code() -> None:
    assert COMMITTED.read_text() == openapi.document(whole_api()), "openapi.json drifted: run `make openapi`"


def test_every_error_a_route_documents_is_a_problem_and_every_route_documents_500() -> None:
    for path, operations in committed()["paths"].items():
        for op in operations.values():
            errors = {status: r for status, r in op["responses"].items() if int(status) >= 400}
            assert "500" in errors
            if path == "/oauth/token":
                # RFC 6749 §5.2 fixes the token endpoint's errors: JSON with `error`, not a problem.
                oauth = errors.pop("400")["content"]["application/json"]["schema"]
                assert oauth == {"$ref": "#/components/schemas/OAuthErrorOut"}
            assert all(r["content"] == PROBLEM for r in errors.values())


def test_routes_document_the_problems_they_can_answer_and_no_others() -> None:
    assert "404" not in operation("get", "/decks")["responses"]
    assert "401" not in operation("post", "/players")["responses"]
    assert "412" not in operation("post", "/games")["responses"]
    for move in MOVES:
        responses = operation("post", f"/games/{{game_id}}/{move}")["responses"]
        assert {"400", "401", "403", "404", "409", "412", "413", "422", "500"} <= set(responses)


def test_caching_and_idempotency_headers_are_declared_on_the_routes_that_read_them() -> None:
    for move in MOVES:
        op = operation("post", f"/games/{{game_id}}/{move}")
        assert header(op, "If-Match")
        assert header(op, "Idempotency-Key")
    key_schema = header(operation("post", "/games"), "Idempotency-Key")["schema"]  # a string, never null
    assert key_schema["maxLength"] == MAX_KEY_LENGTH
    assert key_schema["minLength"] == 1
    get_game = operation("get", "/games/{game_id}")
    assert header(get_game, "If-None-Match")
    assert "304" in get_game["responses"]


@pytest.mark.parametrize(
    ("status", "name"),
    [("201", "Location"), ("202", "Location"), ("401", "WWW-Authenticate"), ("429", "Retry-After"),
     ("503", "Retry-After")],
)  # fmt: skip
def test_every_answer_of_a_status_documents_the_header_it_always_carries(status: str, name: str) -> None:
    answers = [
        op["responses"][status]
        for operations in committed()["paths"].values()
        for op in operations.values()
        if status in op["responses"]
    ]
    assert answers
    assert all(answer["headers"][name]["required"] is True for answer in answers)


def test_the_schema_limits_are_the_rules_limits() -> None:
    schemas = committed()["components"]["schemas"]
    assert schemas["CreatePlayer"]["properties"]["name"]["maxLength"] == MAX_NAME_LENGTH
    assert schemas["GiveClue"]["properties"]["clue"]["maxLength"] == MAX_CLUE_LENGTH
    assert CreatePlayer.model_json_schema()["properties"]["name"]["maxLength"] == MAX_NAME_LENGTH
    assert GiveClue.model_json_schema()["properties"]["clue"]["maxLength"] == MAX_CLUE_LENGTH


def test_the_finished_view_documents_why_the_game_ended() -> None:
    end_reason = committed()["components"]["schemas"]["GameOut"]["properties"]["end_reason"]
    assert {"$ref": "#/components/schemas/EndReason"} in end_reason["anyOf"]
    assert set(committed()["components"]["schemas"]["EndReason"]["enum"]) >= {
        "target_score",
        "deck_exhausted",
        "everyone_left",
    }


def test_the_document_is_served_without_a_token(aws: None) -> None:
    reply = call("GET", "/openapi.json")
    assert reply.status == 200
    assert json.loads(reply.raw) == committed()


def embedded_spec(page: str) -> dict[str, Any]:
    found = re.search(r"var swaggerUIOptions = \{.*?spec: (\{.*?\n\})\s*,\n", page, re.DOTALL)
    assert found, "no spec embedded in the Swagger page"
    spec: dict[str, Any] = json.loads(found.group(1).replace("<\\/", "</"))
    return spec


def test_the_docs_page_embeds_the_very_document_openapi_json_serves(aws: None) -> None:
    reply = call("GET", "/docs")
    assert reply.status == 200
    assert reply.headers["Content-Type"] == "text/html"
    assert "SwaggerUIBundle" in reply.raw
    served = json.loads(call("GET", "/openapi.json").raw)
    assert embedded_spec(reply.raw) == served
    assert json.loads(call("GET", "/docs", query={"format": "json"}).raw) == served


@pytest.mark.parametrize(
    ("page", "stage"),
    [
        ("http://127.0.0.1:3000/docs", ""),
        ("https://abc.execute-api.eu-west-1.amazonaws.com/dev/docs", "/dev"),
    ],
)
def test_try_it_out_reaches_a_real_route_locally_and_under_a_stage(aws: None, page: str, stage: str) -> None:
    # What Swagger UI does: resolve the server URL against the page, drop a trailing slash, add the path.
    server = committed()["servers"][0]["url"]
    url = urljoin(page, server).rstrip("/") + "/decks"
    path = urlsplit(url).path
    assert path == f"{stage}/decks"
    reply = call("GET", path.removeprefix(stage))  # API Gateway strips the stage before the Lambda
    assert reply.status == 200, reply.raw


# Powertools' own validation-error models: not part of this API's contract (answers are problem+json).
FRAMEWORK_SCHEMAS = {"HTTPValidationError", "ValidationError", "ResponseValidationError"}


def test_every_property_of_every_schema_has_a_description_and_an_example() -> None:
    undocumented = [
        f"{name}.{prop}"
        for name, schema in committed()["components"]["schemas"].items()
        if name not in FRAMEWORK_SCHEMAS
        for prop, spec in schema.get("properties", {}).items()
        if not spec.get("description") or not (spec.get("examples") or "example" in spec)
    ]
    assert undocumented == []


def test_a_field_name_means_one_thing_across_every_response() -> None:
    schemas = committed()["components"]["schemas"]
    game = schemas["GameOut"]["properties"]
    assert "rules" not in game
    assert "rules" in schemas["SettingsOut"]["properties"]
    assert game["players"]["items"] == {"$ref": "#/components/schemas/SeatOut"}
    for name in ("InboxGame", "OpenGameOut"):
        assert "players" not in schemas[name]["properties"]
        assert schemas[name]["properties"]["player_count"]["type"] == "integer"
    assert "players" not in schemas["GamePreview"]["properties"]
    assert schemas["OpenGameOut"]["properties"]["player_names"]["type"] == "array"


def test_polled_routes_document_the_poll_interval_headers() -> None:
    for path in ("/games/{game_id}", "/players/me/games"):
        responses = operation("get", path)["responses"]
        statuses = ("200", "304") if path == "/games/{game_id}" else ("200",)
        for status in statuses:
            assert {"Cache-Control", "Retry-After"} <= set(responses[status]["headers"]), (path, status)


HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options")


def test_every_operation_is_named_by_a_camel_case_verb_that_generated_clients_can_use() -> None:
    ids = [op["operationId"] for ops in committed()["paths"].values() for op in ops.values()]
    assert len(ids) == len(set(ids))
    for name in ids:
        assert re.fullmatch(r"[a-z]+(?:[A-Z][a-z]+)*", name), name
        assert not name.lower().endswith(HTTP_METHODS), name
    assert {"createGame", "submitCards", "castVotes", "getGame", "listMyGames"} <= set(ids)


def test_every_webhook_event_is_an_openapi_webhook_whose_body_is_the_events_model() -> None:
    from app.feed.events import EVENT_TYPES

    document = committed()
    assert document["openapi"].startswith("3.1")
    assert set(document["webhooks"]) == set(EVENT_TYPES)
    schemas = document["components"]["schemas"]
    for event_type, item in document["webhooks"].items():
        body = item["post"]["requestBody"]["content"]["application/json"]["schema"]
        model = schemas[body["$ref"].rsplit("/", 1)[1]]
        assert model["properties"]["type"]["default"] == event_type
        assert {p["name"] for p in item["post"]["parameters"]} >= {"Dixit-Signature", "Dixit-Event"}
