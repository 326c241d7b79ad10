"""Shared set-up for the rules-core tests: seated games, scripted rounds and bot play."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence

from dixit import engine
from dixit.bots import RandomBot, next_mover
from dixit.engine import Applied, new_game
from dixit.moves import GiveClue, Join, Move, Start, Submit, Vote
from dixit.settings import Settings
from dixit.state import GameState, Phase
from dixit.views import view_for

HOST = "p0"
# "Now" for every move in these tests, in epoch seconds: the core never reads a clock.
NOW = 1_800_000_000
STORYTELLER = "storyteller"


def pid(seat: int) -> str:
    return f"p{seat}"


def ids(n: int) -> list[str]:
    return [pid(i) for i in range(n)]


def settings(rules: str = "classic", target_score: int | None = None, policy: str = "skip") -> Settings:
    # `skip` unless a test says otherwise: most timeout tests here are about skipping.
    return Settings.build(rules, target_score=target_score, timeout_policy=policy)


def lobby(
    n: int, rules: str = "classic", seed: int = 1, target_score: int | None = None, policy: str = "skip"
) -> GameState:
    """A lobby with `n` players seated p0 (host), p1, ... in that order."""
    chosen = settings(rules, target_score, policy)
    state = new_game("g1", host_id=HOST, host_name="Host", settings=chosen, seed=seed)
    for seat in range(1, n):
        state = act(state, Join(pid(seat), f"Player {seat}"))
    return state


def seated_game(
    n: int, rules: str = "classic", seed: int = 1, target_score: int | None = None, policy: str = "skip"
) -> GameState:
    """A started game with `n` players: cards dealt, first storyteller chosen, phase storytelling."""
    return act(lobby(n, rules, seed, target_score, policy), Start(HOST))


def apply(state: GameState, move: Move, now: int = NOW) -> Applied:
    """The engine's apply, at a fixed time unless the test says otherwise."""
    return engine.apply(state, move, now=now)


def act(state: GameState, move: Move, now: int = NOW) -> GameState:
    return apply(state, move, now).state


def storyteller(state: GameState) -> str:
    assert state.round is not None
    return state.round.storyteller_id


def others(state: GameState) -> list[str]:
    """The non-storytellers, in seat order."""
    return [p for p in state.player_ids if p != storyteller(state)]


def give_clue(state: GameState, card: str | None = None, clue: str = "a quiet storm") -> GameState:
    teller = storyteller(state)
    return act(state, GiveClue(teller, card or state.hands[teller][0], clue))


def submission_size(state: GameState) -> int:
    return 2 if len(state.players) == 3 else 1


def submit_all(state: GameState, except_for: Sequence[str] = ()) -> GameState:
    """Every non-storyteller (but `except_for`) submits the first card(s) of their hand, in seat order."""
    for player in others(state):
        if player not in except_for:
            cards = tuple(state.hands[player][: submission_size(state)])
            state = act(state, Submit(player, cards))
    return state


def card_of(state: GameState, owner: str, index: int = 0) -> str:
    """The card `owner` put on the table this round (`STORYTELLER` names the storyteller's card)."""
    rnd = state.round
    assert rnd is not None
    if owner in (STORYTELLER, rnd.storyteller_id):
        assert rnd.storyteller_card is not None
        return rnd.storyteller_card
    return rnd.submissions[owner][index]


def votes_by_owner(
    state: GameState, choices: Mapping[str, str | Sequence[str]]
) -> dict[str, tuple[str, ...]]:
    """Translate {voter: owner or [owners]} into {voter: card ids}; `owner#1` names an owner's 2nd card."""
    result: dict[str, tuple[str, ...]] = {}
    for voter, owners in choices.items():
        names = [owners] if isinstance(owners, str) else list(owners)
        cards = []
        for name in names:
            owner, _, index = name.partition("#")
            cards.append(card_of(state, owner, int(index or 0)))
        result[voter] = tuple(cards)
    return result


def cast_votes(state: GameState, choices: Mapping[str, str | Sequence[str]]) -> GameState:
    """Every voter votes, in seat order, for the cards of the named owners."""
    votes = votes_by_owner(state, choices)
    for voter in state.player_ids:
        if voter in votes:
            state = act(state, Vote(voter, votes[voter]))
    return state


def play_to(phase: Phase, n: int = 4, rules: str = "classic", seed: int = 1) -> GameState:
    """A fresh game advanced to the first round's `phase` (storytelling, submitting or voting)."""
    state = seated_game(n, rules, seed)
    if phase is Phase.STORYTELLING:
        return state
    state = give_clue(state)
    if phase is Phase.SUBMITTING:
        return state
    state = submit_all(state)
    assert state.phase is phase is Phase.VOTING
    return state


def everyone_votes_storyteller(state: GameState) -> dict[str, str]:
    return dict.fromkeys(others(state), STORYTELLER)


def play_round(
    state: GameState, choose_votes: Callable[[GameState], Mapping[str, str | Sequence[str]]] | None = None
) -> GameState:
    """One whole round: clue with the first card, everyone submits their first card(s), then votes."""
    state = submit_all(give_clue(state))
    return cast_votes(state, (choose_votes or everyone_votes_storyteller)(state))


def bots_for(state: GameState, bot_seed: int) -> dict[str, RandomBot]:
    return {p: RandomBot(p, bot_seed * 1000 + seat) for seat, p in enumerate(state.player_ids)}


def bot_steps(state: GameState, bot_seed: int, max_moves: int = 5000) -> Iterator[tuple[GameState, Move]]:
    """Play RandomBots to the end from `state`, yielding (state before, move) for every move."""
    bots = bots_for(state, bot_seed)
    for _ in range(max_moves):
        mover = next_mover(state)
        if mover is None:
            return
        move = bots[mover].choose(view_for(state, mover))
        assert move is not None, f"{mover} is awaited but its bot found no move"
        yield state, move
        state = act(state, move)
    raise AssertionError("the game did not end")


def bot_game(state: GameState, bot_seed: int) -> list[GameState]:
    """Every state of a bot game from `state` to the end, `state` included."""
    states = [state]
    for before, move in bot_steps(state, bot_seed):
        states.append(act(before, move))
    return states


def card_places(state: GameState) -> Counter[str]:
    """How many times each card appears across pile, hands, the current round and the discard."""
    places: Counter[str] = Counter(state.pile)
    places.update(state.discard)
    for hand in state.hands.values():
        places.update(hand)
    rnd = state.round
    if rnd is not None:
        if rnd.storyteller_card is not None:
            places[rnd.storyteller_card] += 1
        for cards in rnd.submissions.values():
            places.update(cards)
    return places


def is_waiting(state: GameState) -> bool:
    return state.phase in (Phase.STORYTELLING, Phase.SUBMITTING, Phase.VOTING)
