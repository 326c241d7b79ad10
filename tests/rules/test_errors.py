"""Every rule error: malformed moves are InvalidMoveError, moves not legal now IllegalMoveError."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import pytest

import dixit
from dixit.errors import DixitError, IllegalMoveError, InvalidMoveError
from dixit.moves import (
    Extend,
    GiveClue,
    Join,
    Leave,
    Move,
    OfferSeat,
    RemovePlayer,
    Start,
    Submit,
    TakeSeat,
    Timeout,
    Vacation,
    Vote,
)
from dixit.state import GameState, Phase
from dixit.text import REFUSED_CLASSES, check_device

from .helpers import (
    HOST,
    NOW,
    STORYTELLER,
    act,
    apply,
    cast_votes,
    everyone_votes_storyteller,
    lobby,
    others,
    play_round,
    play_to,
    seated_game,
    storyteller,
    submit_all,
)

# Two days after the moves of these tests (the default timeout is 48 hours).
DEADLINE = NOW + 48 * 3600

Case = Callable[[], tuple[GameState, Move]]


def storytelling() -> GameState:
    return play_to(Phase.STORYTELLING, 4, seed=2)


def submitting() -> GameState:
    return play_to(Phase.SUBMITTING, 4, seed=2)


def voting() -> GameState:
    return play_to(Phase.VOTING, 4, seed=2)


def a_teller_card(state: GameState) -> str:
    return state.hands[storyteller(state)][0]


def an_other(state: GameState, index: int = 0) -> str:
    return others(state)[index]


def someone_elses_card(state: GameState, player: str) -> str:
    return next(c for p, hand in state.hands.items() if p != player for c in hand)


def table_card_not_of(state: GameState, player: str) -> str:
    assert state.round is not None
    return next(c for c in state.round.table if c not in state.round.submissions.get(player, ()))


def finished() -> GameState:
    return play_round(seated_game(4, seed=2, target_score=1), everyone_votes_storyteller)


# One set-up per error code: each returns a state and the move that must be refused in it.


def blank_name() -> tuple[GameState, Move]:
    return lobby(2), Join("x", "   ")


def name_too_long() -> tuple[GameState, Move]:
    return lobby(2), Join("x", "n" * 41)


def invalid_card_id() -> tuple[GameState, Move]:
    state = storytelling()
    return state, GiveClue(storyteller(state), "base-1", "clue")


def invalid_card_ids() -> tuple[GameState, Move]:
    state = submitting()
    return state, Submit(an_other(state), (7,))  # type: ignore[arg-type]


def blank_clue() -> tuple[GameState, Move]:
    state = storytelling()
    return state, GiveClue(storyteller(state), a_teller_card(state), "   ")


def clue_too_long() -> tuple[GameState, Move]:
    state = storytelling()
    return state, GiveClue(storyteller(state), a_teller_card(state), "c" * 201)


def control_character() -> tuple[GameState, Move]:
    return lobby(2), Join("x", "nul\x00here")


def bidi_control() -> tuple[GameState, Move]:
    state = storytelling()
    return state, GiveClue(storyteller(state), a_teller_card(state), "abc\u202edef")


def lone_surrogate() -> tuple[GameState, Move]:
    return lobby(2), Join("x", "half \ud83d")


def unassigned_character() -> tuple[GameState, Move]:
    state = storytelling()
    return state, GiveClue(storyteller(state), a_teller_card(state), "no such \u0378 letter")


def tag_character() -> tuple[GameState, Move]:
    state = storytelling()
    return state, GiveClue(storyteller(state), a_teller_card(state), "home\U000e0068\U000e0069")


def format_character() -> tuple[GameState, Move]:
    return lobby(2), Join("x", "Ada\u200b")


def separator_character() -> tuple[GameState, Move]:
    return lobby(2), Join("x", "Ada\u2028Lovelace")


def private_use_character() -> tuple[GameState, Move]:
    state = storytelling()
    return state, GiveClue(storyteller(state), a_teller_card(state), "a \ue000 here")


def wrong_card_count() -> tuple[GameState, Move]:
    state = submitting()
    return state, Submit(an_other(state), ())


def duplicate_cards() -> tuple[GameState, Move]:
    state = submitting()
    card = state.hands[an_other(state)][0]
    return state, Submit(an_other(state), (card, card))


def already_joined() -> tuple[GameState, Move]:
    return lobby(3), Join("p1", "P1")


def game_full() -> tuple[GameState, Move]:
    return lobby(6), Join("p6", "P6")


def not_a_player() -> tuple[GameState, Move]:
    state = submitting()
    return state, Submit("stranger", (a_teller_card(state),))


def not_host() -> tuple[GameState, Move]:
    return lobby(3), Start("p1")


def not_enough_players() -> tuple[GameState, Move]:
    return lobby(2), Start(HOST)


def game_started() -> tuple[GameState, Move]:
    return storytelling(), Join("late", "Late")


def game_finished() -> tuple[GameState, Move]:
    state = finished()
    return state, GiveClue("p0", state.hands["p0"][0], "clue")


def wrong_phase() -> tuple[GameState, Move]:
    state = storytelling()
    return state, Submit(an_other(state), (state.hands[an_other(state)][0],))


def not_storyteller() -> tuple[GameState, Move]:
    state = storytelling()
    return state, GiveClue(an_other(state), state.hands[an_other(state)][0], "clue")


def card_not_in_hand() -> tuple[GameState, Move]:
    state = storytelling()
    teller = storyteller(state)
    return state, GiveClue(teller, someone_elses_card(state, teller), "clue")


def storyteller_cannot_submit() -> tuple[GameState, Move]:
    state = submitting()
    teller = storyteller(state)
    return state, Submit(teller, (state.hands[teller][0],))


def already_submitted() -> tuple[GameState, Move]:
    state = submitting()
    player = an_other(state)
    state = act(state, Submit(player, (state.hands[player][0],)))
    return state, Submit(player, (state.hands[player][0],))


def storyteller_cannot_vote() -> tuple[GameState, Move]:
    state = voting()
    return state, Vote(storyteller(state), (table_card_not_of(state, ""),))


def already_voted() -> tuple[GameState, Move]:
    state = voting()
    voter = an_other(state)
    state = cast_votes(state, {voter: STORYTELLER})
    return state, Vote(voter, (table_card_not_of(state, voter),))


def card_not_on_table() -> tuple[GameState, Move]:
    state = voting()
    return state, Vote(an_other(state), (state.hands[an_other(state)][0],))


def sitting_out() -> tuple[GameState, Move]:
    state = submitting()
    silent = an_other(state)
    state = submit_all(state, except_for=[silent])
    state = act(state, Timeout(), now=DEADLINE)
    return state, Vote(silent, (table_card_not_of(state, silent),))


def not_due() -> tuple[GameState, Move]:
    return submitting(), Timeout()


def own_card_vote() -> tuple[GameState, Move]:
    state = voting()
    voter = an_other(state)
    assert state.round is not None
    return state, Vote(voter, (state.round.submissions[voter][0],))


def invalid_vacation_days() -> tuple[GameState, Move]:
    return storytelling(), Vacation(HOST, 0)


def _absences() -> GameState:
    return play_to(Phase.SUBMITTING, 4, seed=2)


def already_on_vacation() -> tuple[GameState, Move]:
    state = act(_absences(), Vacation(an_other(_absences()), 1))
    return state, Vacation(an_other(state), 1)


def vacation_this_turn() -> tuple[GameState, Move]:
    state = _absences()
    assert state.round is not None
    state.round.since = NOW - 3600
    away = an_other(state)
    state = act(state, Vacation(away, 1), now=NOW - 1800)
    state = act(state, Submit(away, (state.hands[away][0],)), now=NOW - 900)  # back early
    return state, Vacation(away, 1)


def no_vacation_days_left() -> tuple[GameState, Move]:
    state = _absences()
    return state, Vacation(an_other(state), state.settings.vacation_days + 1)


def not_awaited() -> tuple[GameState, Move]:
    state = _absences()
    return state, Extend(an_other(state), storyteller(state))


def own_move() -> tuple[GameState, Move]:
    state = _absences()
    return state, Extend(an_other(state), an_other(state))


def already_extended() -> tuple[GameState, Move]:
    state = _absences()
    state = act(state, Extend(storyteller(state), an_other(state)))
    return state, Extend(storyteller(state), an_other(state))


def deadline_passed() -> tuple[GameState, Move]:
    state = _absences()
    assert state.round is not None
    state.round.since = NOW - 48 * 3600  # the sweep has not applied the timeout yet
    return state, Extend(storyteller(state), an_other(state))


def _timed_out_seat() -> tuple[GameState, str]:
    state = _absences()
    silent = next(p for p in others(state) if p != HOST)
    state = submit_all(state, except_for=[silent])
    return act(state, Timeout(), now=DEADLINE), silent


def own_seat() -> tuple[GameState, Move]:
    state, _ = _timed_out_seat()
    return state, OfferSeat(HOST, HOST)


def not_timed_out() -> tuple[GameState, Move]:
    state = _absences()
    return state, OfferSeat(HOST, next(p for p in others(state) if p != HOST))


def already_offered() -> tuple[GameState, Move]:
    state, silent = _timed_out_seat()
    state = act(state, OfferSeat(HOST, silent), now=DEADLINE)
    return state, OfferSeat(HOST, silent)


def already_leaving() -> tuple[GameState, Move]:
    state, silent = _timed_out_seat()
    state = act(state, RemovePlayer(HOST, silent), now=DEADLINE)
    return state, OfferSeat(HOST, silent)


def too_few_players() -> tuple[GameState, Move]:
    state = play_to(Phase.SUBMITTING, 3, seed=2)
    silent = next(p for p in others(state) if p != HOST)
    state = act(submit_all(state, except_for=[silent]), Timeout(), now=DEADLINE)
    return state, RemovePlayer(HOST, silent)


def seat_not_offered() -> tuple[GameState, Move]:
    state, silent = _timed_out_seat()
    return state, TakeSeat("newbie", "Newcomer", silent)


INVALID: dict[str, Case] = {
    case.__name__: case
    for case in (
        invalid_vacation_days,
        blank_name,
        name_too_long,
        invalid_card_id,
        invalid_card_ids,
        blank_clue,
        clue_too_long,
        control_character,
        bidi_control,
        lone_surrogate,
        unassigned_character,
        tag_character,
        format_character,
        separator_character,
        private_use_character,
        wrong_card_count,
        duplicate_cards,
    )
}

ILLEGAL: dict[str, Case] = {
    case.__name__: case
    for case in (
        already_on_vacation,
        vacation_this_turn,
        no_vacation_days_left,
        not_awaited,
        own_move,
        already_extended,
        deadline_passed,
        own_seat,
        not_timed_out,
        already_offered,
        seat_not_offered,
        already_leaving,
        too_few_players,
        already_joined,
        game_full,
        not_a_player,
        not_host,
        not_enough_players,
        sitting_out,
        not_due,
        game_started,
        game_finished,
        wrong_phase,
        not_storyteller,
        card_not_in_hand,
        storyteller_cannot_submit,
        already_submitted,
        storyteller_cannot_vote,
        already_voted,
        card_not_on_table,
        own_card_vote,
    )
}


@pytest.mark.parametrize("code", INVALID)
def test_a_malformed_move_is_an_invalid_move_error_with_its_code(code: str) -> None:
    state, move = INVALID[code]()
    before = state.to_json()
    with pytest.raises(InvalidMoveError) as error:
        apply(state, move)
    assert error.value.code == code
    assert state.to_json() == before


@pytest.mark.parametrize("code", ILLEGAL)
def test_a_move_not_legal_now_is_an_illegal_move_error_with_its_code(code: str) -> None:
    state, move = ILLEGAL[code]()
    before = state.to_json()
    with pytest.raises(IllegalMoveError) as error:
        apply(state, move)
    assert error.value.code == code
    assert state.to_json() == before


@pytest.mark.parametrize(
    ("make_move", "code"),
    [
        (lambda s: GiveClue("stranger", "not a card", "clue"), "invalid_card_id"),
        (lambda s: GiveClue("stranger", "base-001", ""), "blank_clue"),
        (lambda s: Submit("stranger", ()), "wrong_card_count"),
        (lambda s: Vote("stranger", ("base-001", "base-001")), "duplicate_cards"),
        (lambda s: Vote("stranger", ("BASE-001",)), "invalid_card_id"),
    ],
)
def test_a_malformed_move_is_reported_as_malformed_whatever_the_state(
    make_move: Callable[[GameState], Move], code: str
) -> None:
    for state in (lobby(3), storytelling(), submitting(), voting(), finished()):
        with pytest.raises(InvalidMoveError) as error:
            apply(state, make_move(state))
        assert error.value.code == code


@pytest.mark.parametrize(
    ("state", "move_for"),
    [
        (voting, lambda s: GiveClue(storyteller(s), "base-001", "clue")),
        (submitting, lambda s: Vote(an_other(s), ("base-001",))),
        (lambda: lobby(3), lambda s: Submit("p1", ("base-001",))),
        (voting, lambda s: Submit(an_other(s), ("base-001",))),
    ],
)
def test_a_move_in_the_wrong_phase_is_illegal(
    state: Callable[[], GameState], move_for: Callable[[GameState], Move]
) -> None:
    game = state()
    with pytest.raises(IllegalMoveError) as error:
        apply(game, move_for(game))
    assert error.value.code == "wrong_phase"


@pytest.mark.parametrize(
    "move",
    [
        Join("x", "X"),
        Leave("p1"),
        Start(HOST),
        Submit("p1", ("base-001",)),
        Vote("p1", ("base-001",)),
        Timeout(),
    ],
)
def test_every_move_on_a_finished_game_is_illegal(move: Move) -> None:
    with pytest.raises(IllegalMoveError) as error:
        apply(finished(), move)
    assert error.value.code == "game_finished"


def test_submitting_a_card_you_do_not_hold_is_illegal() -> None:
    state = submitting()
    player = an_other(state)
    with pytest.raises(IllegalMoveError) as error:
        apply(state, Submit(player, (someone_elses_card(state, player),)))
    assert error.value.code == "card_not_in_hand"


def test_rule_errors_share_a_base_with_a_stable_code_and_a_readable_detail() -> None:
    assert issubclass(InvalidMoveError, DixitError)
    assert issubclass(IllegalMoveError, DixitError)
    assert not issubclass(InvalidMoveError, IllegalMoveError)
    assert not issubclass(IllegalMoveError, InvalidMoveError)
    error = IllegalMoveError("not_host", "only the host can start the game")
    assert error.code == "not_host"
    assert error.detail == str(error) == "only the host can start the game"


SETTINGS_CODES = {
    "invalid_rules",
    "invalid_custom_deck",
    "decks_too_small",
    "invalid_move_timeout",
    "invalid_timeout_policy",
    "invalid_decks",
    "unknown_deck",
    "invalid_max_players",
    "invalid_target_score",
    "title_too_long",
    "invalid_table_talk",
}


# Device labels are checked by the service before any move (dixit.text.check_device), not by a move.
DEVICE_CODES = {"blank_device", "device_too_long"}

# Card descriptions are checked when a custom deck is created (dixit.text.check_description), not by a move.
DESCRIPTION_CODES = {"blank_description", "description_too_long"}

# Table talk is checked before a message is stored (dixit.text.check_message, dixit.table_talk.check_talk),
# not by a move: tests/rules/test_table_talk.py raises each.
MESSAGE_CODES = {"blank_message", "message_too_long", "unknown_reaction"}
TALK_CODES = {"table_talk_closed", "table_talk_off", "round_not_revealed"}

# A personal token's name is checked when the token is made (dixit.text.check_token_name), not by a move.
TOKEN_CODES = {"blank_token_name", "token_name_too_long"}


@pytest.mark.parametrize(
    ("label", "code"),
    [("   ", "blank_device"), ("d" * 41, "device_too_long"), ("\U0001f600" * 21, "device_too_long")],
)
def test_a_device_label_is_held_to_a_names_rules_with_codes_of_its_own(label: str, code: str) -> None:
    with pytest.raises(InvalidMoveError) as refused:
        check_device(label)
    assert refused.value.code == code


def test_a_device_label_within_the_rules_comes_back_trimmed() -> None:
    assert check_device("  Ada's phone ") == "Ada's phone"


def test_every_error_code_the_core_raises_is_covered_here_with_its_class() -> None:
    raised: dict[str, set[str]] = {"InvalidMoveError": set(), "IllegalMoveError": set()}
    for path in (Path(dixit.__file__).parent).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in raised:
                code = node.args[0]
                if isinstance(code, ast.Name) and path.name == "text.py":
                    # dixit.text raises the code of the class refused, from REFUSED_CLASSES.
                    raised[node.func.id] |= set(REFUSED_CLASSES)
                    continue
                # A literal, or a choice between two literals ("blank_name" if blank else "name_too_long").
                codes = [code.body, code.orelse] if isinstance(code, ast.IfExp) else [code]
                for literal in codes:
                    assert isinstance(literal, ast.Constant), f"{path.name}:{node.lineno} has no literal code"
                    raised[node.func.id].add(literal.value)
    # settings codes are covered in test_settings.py
    invalid = set(INVALID) | SETTINGS_CODES | DEVICE_CODES | DESCRIPTION_CODES | MESSAGE_CODES | TOKEN_CODES
    assert raised["InvalidMoveError"] == invalid
    assert raised["IllegalMoveError"] == set(ILLEGAL) | TALK_CODES
