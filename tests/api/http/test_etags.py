"""Reading If-Match into the version a client vouches for (the use cases only ever see that number)."""

from __future__ import annotations

import pytest

from handlers.etags import NO_VERSION, expected_version, game_etag
from handlers.problems import MalformedRequest

GAME = "g_0123456789abcdef"


def test_no_header_an_empty_one_or_a_star_sets_no_precondition() -> None:
    assert expected_version(None, GAME, "p_a") is None
    assert expected_version("", GAME, "p_a") is None
    assert expected_version(" ", GAME, "p_a") is None
    assert expected_version('"3-abc", *', GAME, "p_a") is None


def test_a_tag_the_viewer_was_given_vouches_for_its_version() -> None:
    assert expected_version(game_etag(GAME, 7, "p_a"), GAME, "p_a") == 7


def test_weak_foreign_or_forged_tags_vouch_for_no_version() -> None:
    mine = game_etag(GAME, 7, "p_a")
    for header in (f"W/{mine}", game_etag(GAME, 7, "p_b"), game_etag("g_ffffffffffffffff", 7, "p_a"),
                   '"7-0000000000000000"', '"99999999999999999999-x"'):  # fmt: skip
        assert expected_version(header, GAME, "p_a") == NO_VERSION, header


def test_a_header_that_is_no_list_of_entity_tags_is_malformed() -> None:
    for header in ("garbage", "7-abc", '"7-abc', ","):
        with pytest.raises(MalformedRequest) as refused:
            expected_version(header, GAME, "p_a")
        assert refused.value.code == "malformed_if_match"


def test_of_several_valid_tags_the_newest_counts() -> None:
    header = f"{game_etag(GAME, 3, 'p_a')}, {game_etag(GAME, 5, 'p_a')}"
    assert expected_version(header, GAME, "p_a") == 5
