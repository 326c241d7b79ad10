"""Settings, rulesets and the official deck catalogue."""

from __future__ import annotations

import re

import pytest

from dixit.cards import CARDS_PER_OFFICIAL_DECK, OFFICIAL_DECKS
from dixit.errors import InvalidMoveError
from dixit.settings import DEFAULT_TARGET_SCORE, Ruleset, Settings, TableTalk, TimeoutPolicy


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
        ({"target_score": True}, "invalid_target_score"),
        ({"move_timeout_hours": 0}, "invalid_move_timeout"),
        ({"move_timeout_hours": 337}, "invalid_move_timeout"),
        ({"move_timeout_hours": 1.5}, "invalid_move_timeout"),
        ({"timeout_policy": "never"}, "invalid_timeout_policy"),
        ({"vacation_days": 31}, "invalid_vacation_days"),
        ({"table_talk": "sometimes"}, "invalid_table_talk"),
        ({"vacation_days": -1}, "invalid_vacation_days"),
    ],
)
def test_invalid_settings_are_rejected_with_a_code(kwargs: dict[str, object], code: str) -> None:
    with pytest.raises(InvalidMoveError) as error:
        Settings.build(**kwargs)  # type: ignore[arg-type]
    assert error.value.code == code


def test_a_custom_deck_is_accepted_only_when_the_caller_knows_it() -> None:
    settings = Settings.build(decks=["base", "family_pack"], custom_decks={"family_pack": 12, "other": 50})
    assert settings.decks == ("base", "family_pack")
    assert settings.custom_decks == (("family_pack", 12),)
    assert settings.deck_sizes() == (("base", 84), ("family_pack", 12))
    with pytest.raises(InvalidMoveError) as error:
        Settings.build(decks=["base", "family_pack"])
    assert error.value.code == "unknown_deck"


def test_a_custom_deck_deals_its_own_card_ids_numbered_from_001() -> None:
    settings = Settings.build("odyssey", ["ours"], max_players=5, custom_decks={"ours": 200})
    cards = settings.card_ids()
    assert len(cards) == len(set(cards)) == 200
    assert (cards[0], cards[-1]) == ("ours-001", "ours-200")


@pytest.mark.parametrize(
    "custom",
    [{"base": 84}, {"Ours": 84}, {"ours-": 84}, {"ours": 5}, {"ours": 201}, {"ours": True}, {"ours": "84"}],
)
def test_a_custom_deck_with_a_bad_id_or_size_is_refused(custom: dict[str, object]) -> None:
    with pytest.raises(InvalidMoveError) as error:
        Settings.build(decks=["base"], custom_decks=custom)  # type: ignore[arg-type]
    assert error.value.code == "invalid_custom_deck"


@pytest.mark.parametrize(
    ("rules", "seats", "cards", "needed"),
    [
        # classic: 6 x 6 dealt, 5 refills of a 6-card table, and one card left to start the 6th round
        ("classic", 6, 66, 67),
        ("classic", 3, 31, 32),
        # odyssey reshuffles the discard: full hands are all it needs
        ("odyssey", 12, 71, 72),
        ("odyssey", 3, 20, 21),
    ],
)
def test_a_deck_mix_too_small_for_a_full_rotation_is_refused_with_the_numbers(
    rules: str, seats: int, cards: int, needed: int
) -> None:
    with pytest.raises(InvalidMoveError) as error:
        Settings.build(rules, ["ours"], seats, custom_decks={"ours": cards})
    assert error.value.code == "decks_too_small"
    assert f"{cards} cards" in error.value.detail
    assert f"{needed} are needed" in error.value.detail
    assert Settings.build(rules, ["ours"], seats, custom_decks={"ours": needed}).card_ids()[-1] == (
        f"ours-{needed:03d}"
    )


def test_a_small_custom_deck_is_enough_once_mixed_with_an_official_one() -> None:
    settings = Settings.build("odyssey", ["base", "ours"], 12, custom_decks={"ours": 6})
    assert len(settings.card_ids()) == 90


def test_timeouts_default_to_48_hours_and_autoplay() -> None:
    settings = Settings.build()
    assert settings.move_timeout_hours == 48
    assert settings.timeout_policy is TimeoutPolicy.AUTOPLAY
    assert Settings.build(move_timeout_hours=1, timeout_policy="wait").timeout_policy is TimeoutPolicy.WAIT
    assert Settings.build(move_timeout_hours=336).move_timeout_seconds == 336 * 3600


def test_table_talk_defaults_to_between_rounds_and_is_stored_only_when_chosen_otherwise() -> None:
    assert Settings.build().table_talk is TableTalk.BETWEEN_ROUNDS
    assert "table_talk" not in Settings.build().to_dict()
    for chosen in TableTalk:
        settings = Settings.build(table_talk=chosen.value)
        assert settings.table_talk is chosen
        assert Settings.from_dict(settings.to_dict()) == settings
    # A game stored before the setting existed talks between rounds.
    assert Settings.from_dict(Settings.build().to_dict()).table_talk is TableTalk.BETWEEN_ROUNDS


def test_settings_round_trip_through_a_dict() -> None:
    settings = Settings.build("odyssey", ["base", "mirrors"], 9, 25)
    assert Settings.from_dict(settings.to_dict()) == settings
    custom = Settings.build(
        "odyssey", ["ours", "base"], 9, custom_decks={"ours": 7}, move_timeout_hours=3, timeout_policy="wait"
    )
    assert Settings.from_dict(custom.to_dict()) == custom


def test_every_official_deck_has_84_cards_numbered_from_001() -> None:
    assert CARDS_PER_OFFICIAL_DECK == 84
    for deck_id, deck in OFFICIAL_DECKS.items():
        cards = deck.card_ids()
        assert len(cards) == len(set(cards)) == 84
        assert cards[0] == f"{deck_id}-001"
        assert cards[-1] == f"{deck_id}-084"
        assert all(re.fullmatch(rf"{deck_id}-\d{{3}}", c) for c in cards)


def test_several_decks_pool_their_cards() -> None:
    cards = Settings.build(decks=["base", "odyssey"]).card_ids()
    assert len(cards) == len(set(cards)) == 168


def test_a_title_is_trimmed_kept_through_a_dict_and_left_out_when_there_is_none() -> None:
    titled = Settings.build(title="  Friday game ")
    assert titled.title == "Friday game"
    assert Settings.from_dict(titled.to_dict()) == titled
    assert "title" not in Settings.build().to_dict()
    assert Settings.build(title="   ").title is None


@pytest.mark.parametrize("title", ["t" * 41, "a\u202eb"])
def test_a_title_is_held_to_a_names_rules(title: str) -> None:
    with pytest.raises(InvalidMoveError) as refused:
        Settings.build(title=title)
    assert refused.value.code in {"title_too_long", "bidi_control"}
