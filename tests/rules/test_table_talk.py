"""Table talk: when the table may talk (dixit.table_talk) and what a message may say (dixit.text)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dixit.errors import IllegalMoveError, InvalidMoveError
from dixit.limits import MAX_MESSAGE_LENGTH
from dixit.settings import TableTalk
from dixit.state import Phase
from dixit.table_talk import (
    REACTIONS,
    SECRET_PHASES,
    Reopens,
    check_reaction,
    check_round_target,
    check_talk,
    revealed_round_of,
    talk_window,
)
from dixit.text import check_message

from .helpers import bot_game, play_round, play_to, seated_game


@pytest.mark.parametrize(
    ("phase", "open_"),
    [
        (Phase.LOBBY, True),
        (Phase.STORYTELLING, True),  # from the reveal until the next clue
        (Phase.SUBMITTING, False),
        (Phase.VOTING, False),
        (Phase.FINISHED, True),
    ],
)
def test_between_rounds_is_quiet_only_while_cards_are_chosen_and_votes_cast(
    phase: Phase, open_: bool
) -> None:
    window = talk_window(TableTalk.BETWEEN_ROUNDS, phase)
    assert window.open is open_
    assert window.reopens is (None if open_ else Reopens.AT_REVEAL)


@pytest.mark.parametrize("phase", list(Phase))
def test_always_is_open_and_off_never_opens(phase: Phase) -> None:
    assert talk_window(TableTalk.ALWAYS, phase).open
    off = talk_window(TableTalk.OFF, phase)
    assert (off.open, off.reopens) == (False, Reopens.NEVER)


def test_a_refusal_says_when_talk_opens_again() -> None:
    with pytest.raises(IllegalMoveError) as closed:
        check_talk(TableTalk.BETWEEN_ROUNDS, Phase.VOTING)
    assert closed.value.code == "table_talk_closed"
    assert "opens again at the reveal" in closed.value.detail
    with pytest.raises(IllegalMoveError) as off:
        check_talk(TableTalk.OFF, Phase.LOBBY)
    assert off.value.code == "table_talk_off"
    check_talk(TableTalk.BETWEEN_ROUNDS, Phase.STORYTELLING)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(3, 6), talk=st.sampled_from(list(TableTalk)))
def test_over_whole_games_talk_is_open_exactly_when_no_card_is_secret(
    seed: int, players: int, talk: TableTalk
) -> None:
    for state in bot_game(seated_game(players, seed=seed), bot_seed=seed):
        window = talk_window(talk, state.phase)
        secret = state.phase in SECRET_PHASES
        assert window.open is (talk is TableTalk.ALWAYS or (talk is TableTalk.BETWEEN_ROUNDS and not secret))
        # Closed always says when it opens again, open never does; a refusal is raised exactly when closed.
        assert (window.reopens is None) is window.open
        if window.open:
            check_talk(talk, state.phase)
        else:
            with pytest.raises(IllegalMoveError, match=window.why_closed):
                check_talk(talk, state.phase)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "blank_message"),
        ("   ", "blank_message"),
        ("\u3164", "blank_message"),  # a Hangul filler shows nothing
        ("m" * (MAX_MESSAGE_LENGTH + 1), "message_too_long"),
        ("I knew it\u200b", "format_character"),
        ("it was \u202emine", "bidi_control"),
        ("two\nlines", "control_character"),
    ],
)
def test_a_message_is_held_to_the_one_text_rule(text: str, code: str) -> None:
    with pytest.raises(InvalidMoveError) as refused:
        check_message(text)
    assert refused.value.code == code


def test_a_message_up_to_the_limit_comes_back_trimmed_and_composed() -> None:
    assert check_message("  I knew the cat was yours! ") == "I knew the cat was yours!"
    assert check_message("e\u0301") == "\u00e9"
    longest = "猫" * MAX_MESSAGE_LENGTH  # three bytes a character, still within the byte bound
    assert check_message(longest) == longest


@settings(max_examples=200)
@given(st.text(max_size=MAX_MESSAGE_LENGTH + 20))
def test_any_text_is_either_refused_with_a_code_or_kept_within_the_limits(text: str) -> None:
    refused: InvalidMoveError | None = None
    try:
        kept = check_message(text)
    except InvalidMoveError as error:
        refused = error
    if refused is not None:
        assert refused.code
    else:
        assert 0 < len(kept) <= MAX_MESSAGE_LENGTH
        assert kept == kept.strip(" ")


def test_a_reaction_is_one_of_the_fixed_set() -> None:
    assert [check_reaction(r) for r in REACTIONS] == list(REACTIONS)
    with pytest.raises(InvalidMoveError) as refused:
        check_reaction("angry")
    assert refused.value.code == "unknown_reaction"


@pytest.mark.parametrize(
    ("target", "number"),
    [
        ("round-1", 1),
        ("round-42", 42),
        ("round-0", None),
        ("round-01", None),
        ("m_1", None),
        ("round-", None),
    ],
)
def test_a_target_names_a_round_by_its_number(target: str, number: int | None) -> None:
    assert revealed_round_of(target) == number


def test_only_a_revealed_round_may_be_reacted_to() -> None:
    state = play_to(Phase.STORYTELLING, 4, seed=2)
    with pytest.raises(IllegalMoveError) as early:
        check_round_target(state, 1)
    assert early.value.code == "round_not_revealed"
    state = play_round(state)
    check_round_target(state, 1)
    with pytest.raises(IllegalMoveError):
        check_round_target(state, 2)
