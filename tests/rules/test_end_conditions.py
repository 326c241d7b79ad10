"""When a game ends and who wins it: the target score, an exhausted pile, Odyssey's reshuffle, ties."""

from __future__ import annotations

from dixit.engine import new_game
from dixit.moves import Join, Start
from dixit.settings import Settings
from dixit.state import GameState, Phase

from .helpers import (
    HOST,
    STORYTELLER,
    act,
    everyone_votes_storyteller,
    others,
    play_round,
    seated_game,
    storyteller,
)


def scores(state: GameState) -> dict[str, int]:
    return {p.player_id: p.score for p in state.players}


def top_scorers(state: GameState) -> list[str]:
    best = max(p.score for p in state.players)
    return [p.player_id for p in state.players if p.score == best]


def with_pile(state: GameState, size: int) -> GameState:
    """The same game with only `size` cards left to draw: the ones skipped over count as discarded."""
    state = state.copy()
    state.deck_position = len(state.deck()) - size
    return state


def smallest_odyssey_game(players: int = 4) -> GameState:
    """Odyssey with a custom deck of exactly the cards the hands take: nothing left to draw."""
    settings = Settings.build(
        "odyssey", ["tiny"], max_players=players, target_score=200, custom_decks={"tiny": 6 * players}
    )
    state = new_game("g", host_id=HOST, host_name="Host", settings=settings, seed=6)
    for seat in range(1, players):
        state = act(state, Join(f"p{seat}", f"Player {seat}"))
    return act(state, Start(HOST))


def one_finder(state: GameState) -> dict[str, str]:
    """The first other player finds the storyteller; everyone else votes for that player's card."""
    finder, *rest = others(state)
    return {finder: STORYTELLER, **dict.fromkeys(rest, finder)}


# --- the target score -------------------------------------------------------------------------------


def test_the_game_ends_after_the_round_in_which_someone_reaches_the_target() -> None:
    state = seated_game(4, seed=3, target_score=4)
    finder = others(state)[0]
    state = play_round(state, one_finder)
    # finder 3 + 2 votes = 5 >= 4; storyteller 3 < 4
    assert scores(state)[finder] == 5
    assert state.phase is Phase.FINISHED
    assert state.round is None
    assert state.winners == [finder]


def test_reaching_the_target_wins_only_with_the_top_score() -> None:
    state = seated_game(4, seed=3, target_score=3)
    teller, finder = storyteller(state), others(state)[0]
    state = play_round(state, one_finder)
    # storyteller 3 reached the target too, but finder's 5 is the top score
    assert scores(state)[teller] == 3
    assert state.winners == [finder]


def test_the_game_goes_on_while_everyone_is_below_the_target() -> None:
    state = play_round(seated_game(4, seed=3, target_score=3), everyone_votes_storyteller)
    # all found: others 2 < 3
    assert state.phase is Phase.STORYTELLING
    assert state.winners == []


def test_players_tied_on_the_top_score_share_the_victory() -> None:
    state = seated_game(4, seed=3, target_score=2)
    teller = storyteller(state)
    state = play_round(state, everyone_votes_storyteller)
    # all found: storyteller 0, the three others 2 each
    assert state.phase is Phase.FINISHED
    assert state.winners == [p for p in state.player_ids if p != teller]
    assert len(state.winners) == 3


# --- classic: the pile runs out ---------------------------------------------------------------------


def test_classic_ends_when_the_refill_empties_the_pile() -> None:
    state = with_pile(seated_game(4, seed=6), 4)
    state = play_round(state, one_finder)
    assert state.pile == []
    assert all(len(hand) == 6 for hand in state.hands.values())
    assert max(scores(state).values()) < 30
    assert state.phase is Phase.FINISHED
    assert state.winners == top_scorers(state)


def test_classic_ends_when_the_pile_cannot_refill_every_hand_after_dealing_what_it_has() -> None:
    state = with_pile(seated_game(4, seed=6), 2)
    pile = list(state.pile)
    state = play_round(state, one_finder)
    assert state.phase is Phase.FINISHED
    # seat order: p0 and p1 draw the last two cards, p2 and p3 draw nothing
    assert [len(state.hands[p]) for p in state.player_ids] == [6, 6, 5, 5]
    assert state.hands["p0"][-1] == pile[0]
    assert state.hands["p1"][-1] == pile[1]
    assert state.winners == top_scorers(state)


def test_classic_goes_on_while_a_card_is_left_after_the_refill() -> None:
    state = play_round(with_pile(seated_game(4, seed=6), 5), one_finder)
    assert state.phase is Phase.STORYTELLING
    assert len(state.pile) == 1


# --- odyssey: the discard is reshuffled -------------------------------------------------------------


def test_odyssey_goes_on_when_the_refill_empties_the_pile() -> None:
    state = play_round(with_pile(seated_game(4, "odyssey", seed=6), 4), one_finder)
    assert state.phase is Phase.STORYTELLING
    assert state.pile == []
    assert all(len(hand) == 6 for hand in state.hands.values())


def test_odyssey_shuffles_the_discard_into_the_pile_when_the_pile_cannot_refill_every_hand() -> None:
    before = with_pile(seated_game(4, "odyssey", seed=6), 2)
    old_pile, old_discard = list(before.pile), list(before.discard)
    state = play_round(before, one_finder)
    assert state.last_round is not None
    table = [c.card_id for c in state.last_round.cards]
    assert state.phase is Phase.STORYTELLING
    assert state.discard == []
    assert all(len(hand) == 6 for hand in state.hands.values())
    # what was left of the pile is drawn first, in seat order, then the reshuffled discard
    assert state.hands["p0"][-1] == old_pile[0]
    assert state.hands["p1"][-1] == old_pile[1]
    drawn = [state.hands[p][-1] for p in ("p2", "p3")]
    assert sorted(drawn + state.pile) == sorted(old_discard + table)
    assert state.pile != sorted(state.pile)  # shuffled, not left in catalogue order
    # the table took the game's next stream; the reshuffle is the deck's next generation, with its own
    assert state.draws == before.draws + 1
    assert state.deck_generation == before.deck_generation + 1


def test_odyssey_reshuffles_the_cards_just_played_when_nothing_else_is_left() -> None:
    state = smallest_odyssey_game()
    assert state.pile == []
    state = play_round(state, one_finder)
    assert state.phase is Phase.STORYTELLING
    assert all(len(hand) == 6 for hand in state.hands.values())
    assert state.pile == state.discard == []


def test_odyssey_with_the_fewest_cards_its_settings_allow_never_runs_out() -> None:
    state = smallest_odyssey_game()
    for _ in range(8):
        state = play_round(state, one_finder)
        assert all(len(hand) == 6 for hand in state.hands.values())
    assert state.phase is Phase.STORYTELLING
    assert state.deck_generation == 8
