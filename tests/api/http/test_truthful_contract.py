"""The schema says what the API answers (#25: 12, 14, 15): bodiless 204s, unique card ids, the refusals a
pattern cannot state, and which decks GET /decks/{deck_id}/cards serves."""

from __future__ import annotations

import json
import re
from typing import Any

from handlers import openapi
from handlers.api import whole_api

from ..client import Client
from ..helpers import assert_problem


def document() -> dict[str, Any]:
    found: dict[str, Any] = json.loads(openapi.document(whole_api()))
    return found


def test_every_204_in_the_schema_declares_no_body() -> None:
    for path, operations in document()["paths"].items():
        for method, operation in operations.items():
            answer = operation.get("responses", {}).get("204")
            if answer is not None:
                assert answer.get("content", {}) == {}, f"{method.upper()} {path}"


def test_card_ids_are_unique_items_as_the_rules_require() -> None:
    schema = document()["components"]["schemas"]["ChooseCards"]["properties"]["card_ids"]
    assert schema["uniqueItems"] is True


def test_the_text_patterns_refuse_every_class_the_text_rule_refuses_and_blank_text() -> None:
    """#37: schema-valid names were refused for unassigned code points; the pattern now says so."""
    schemas = document()["components"]["schemas"]
    for described in (
        schemas["GiveClue"]["properties"]["clue"],
        schemas["CreatePlayer"]["properties"]["name"],
        schemas["CreatePlayer"]["properties"]["device"],
        schemas["RenamePlayer"]["properties"]["name"],
        schemas["CreateDeck"]["properties"]["name"],
    ):
        pattern = re.compile(described["pattern"])
        assert pattern.fullmatch("Zoë 美咲 🚀")
        for refused in (
            "a\u0378",
            "a\u2028",
            "a\u200f",
            "a\U000e0041",
            "a\ue000",
            "a\x00",
            "a\u00a0",
            "\u3164",
        ):
            assert not pattern.fullmatch(refused), (described, refused)
        assert "normalised" in described["description"]
    title = schemas["CreateClassicGame"]["properties"]["title"]
    title_pattern = next(branch["pattern"] for branch in title["anyOf"] if branch.get("type") == "string")
    assert re.fullmatch(title_pattern, "")
    assert not re.fullmatch(title_pattern, "Friday\u202e")


def test_the_deck_cards_route_says_it_serves_official_decks_only(players: list[Client]) -> None:
    operation = document()["paths"]["/decks/{deck_id}/cards"]["get"]
    assert "official decks only" in operation["description"]
    made = players[0].post("/decks", {"name": "Mine", "card_count": 6})
    assert made.status == 201, made.raw
    deck_id = made.body["deck_id"]
    assert_problem(players[0].get(f"/decks/{deck_id}/cards"), 404, "deck_not_found")
    assert players[0].get(f"/decks/{deck_id}").status == 200
