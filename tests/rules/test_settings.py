"""Settings, rulesets and the official deck catalogue."""

from __future__ import annotations

import re

import pytest

from dixit.cards import CARDS_PER_OFFICIAL_DECK, OFFICIAL_DECKS, official_deck_cards
from dixit.errors import InvalidMoveError
from dixit.settings import DEFAULT_TARGET_SCORE, Ruleset, Settings


def test_default_settings_are_classic_to_thirty_points_with_the_base_deck_and_six_seats() -> None:
    settings = Settings.build()
    assert settings == Settings(Ruleset.CLASSIC, ("base",), 6, 30)
    assert DEFAULT_TARGET_SCORE == 30


def test_odyssey_seats_up_to_twelve_by_default() -> None:
    assert Settings.build("odyssey").max_players == 12


@pytest.mark.parametrize(
    ("rules", "seats"), [("classic", 3), ("classic", 6), ("odyssey", 3), ("odyssey", 12)]
)
def test_each_ruleset_accepts_its_seat_limits(rules: str, seats: int) -> None:
    assert Settings.build(rules, max_players=seats).max_players == seats


def test_chosen_decks_and_target_score_are_kept() -> None:
    settings = Settings.build("odyssey", ["base", "quest"], 8, 12)
    assert settings == Settings(Ruleset.ODYSSEY, ("base", "quest"), 8, 12)


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"rules": "chess"}, "invalid_rules"),
        ({"decks": []}, "invalid_decks"),
        ({"decks": ["base", "base"]}, "invalid_decks"),
        ({"decks": [*OFFICIAL_DECKS, "custom"]}, "invalid_decks"),
        ({"decks": ["nope"]}, "unknown_deck"),
        ({"decks": ["Base"]}, "unknown_deck"),
        ({"max_players": 2}, "invalid_max_players"),
        ({"rules": "classic", "max_players": 7}, "invalid_max_players"),
        ({"rules": "odyssey", "max_players": 13}, "invalid_max_players"),
        ({"target_score": 0}, "invalid_target_score"),
        ({"target_score": 201}, "invalid_target_score"),
    ],
)
def test_invalid_settings_are_rejected_with_a_code(kwargs: dict[str, object], code: str) -> None:
    with pytest.raises(InvalidMoveError) as error:
        Settings.build(**kwargs)  # type: ignore[arg-type]
    assert error.value.code == code


def test_a_custom_deck_is_accepted_only_when_the_caller_knows_it() -> None:
    settings = Settings.build(decks=["base", "family_pack"], known_decks=frozenset({"family_pack"}))
    assert settings.decks == ("base", "family_pack")


def test_settings_round_trip_through_a_dict() -> None:
    settings = Settings.build("odyssey", ["base", "mirrors"], 9, 25)
    assert Settings.from_dict(settings.to_dict()) == settings


def test_every_official_deck_has_84_cards_numbered_from_001() -> None:
    assert CARDS_PER_OFFICIAL_DECK == 84
    for deck_id, deck in OFFICIAL_DECKS.items():
        cards = deck.card_ids()
        assert len(cards) == len(set(cards)) == 84
        assert cards[0] == f"{deck_id}-001"
        assert cards[-1] == f"{deck_id}-084"
        assert all(re.fullmatch(rf"{deck_id}-\d{{3}}", c) for c in cards)


def test_several_decks_pool_their_cards() -> None:
    cards = official_deck_cards(("base", "odyssey"))
    assert len(cards) == len(set(cards)) == 168
