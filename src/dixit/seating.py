"""Who sits at the table before the game starts: a new game, joining and leaving the lobby, starting,
and what a deleted account leaves of its seat."""

from __future__ import annotations

from dixit.departures import depart
from dixit.errors import IllegalMoveError
from dixit.guards import require_member, require_newcomer, require_phase
from dixit.moves import Join, Leave, Start
from dixit.quiet_hours import SeatQuiet
from dixit.results import EndReason
from dixit.settings import MIN_PLAYERS, Settings, hand_size
from dixit.state import GameState, Phase, Player, Round
from dixit.text import check_name, name_at_table

# What a seat is called once the account behind it is deleted (app.account.erase).
DELETED_PLAYER_NAME = "Deleted player"


def new_game(
    game_id: str,
    *,
    host_id: str,
    host_name: str,
    settings: Settings,
    seed: int,
    host_quiet: SeatQuiet | None = None,
) -> GameState:
    """A game in the lobby with its host seated first (with their quiet hours, if they keep any)."""
    return GameState(
        game_id=game_id,
        settings=settings,
        seed=seed,
        host_id=host_id,
        players=[Player(host_id, check_name(host_name))],
        quiet={} if host_quiet is None else {host_id: host_quiet},
    )


def forget_player(state: GameState, player_id: str, name: str = DELETED_PLAYER_NAME) -> GameState:
    """The game with `player_id`'s seat renamed `name`: what a deleted account leaves behind.

    The seat keeps its id, score, hand and place in the round, so finished rounds (which name players by
    id) and other players' results stay whole. There is no leaving a started game: the seat departs
    instead (dixit.departures), so it is moved on at every deadline whatever the timeout policy, the host
    may offer or remove it at once, and a departing host's role passes to the longest-seated player. A
    lobby is left with the Leave move instead. The version moves on, as after any write others must see
    (their cached views are stale). Raises IllegalMoveError (`not_a_player`) for a non-member.
    """
    require_member(state, player_id)
    new = state.copy()
    require_member(new, player_id).name = check_name(name)
    depart(new, player_id)
    new.version += 1
    return new


def join(state: GameState, move: Join) -> None:
    require_phase(state, Phase.LOBBY)
    require_newcomer(state, move.player_id)
    if len(state.players) >= state.settings.max_players:
        raise IllegalMoveError("game_full", f"the table seats {state.settings.max_players} players")
    # Names stay unique per table by how they read: a second "Ada" (or one with a Cyrillic A, or a
    # hidden ZWSP) is seated as "Ada (2)", so every vote and score names one person.
    taken = [p.name for p in state.players]
    state.players.append(Player(move.player_id, name_at_table(check_name(move.name), taken)))
    if move.quiet is not None:
        state.quiet[move.player_id] = move.quiet


def leave(state: GameState, move: Leave) -> None:
    require_phase(state, Phase.LOBBY)
    require_member(state, move.player_id)
    state.players = [p for p in state.players if p.player_id != move.player_id]
    if not state.players:
        # Nobody is left to play: the game closes without winners.
        state.phase = Phase.FINISHED
        state.end_reason = EndReason.EVERYONE_LEFT
    elif state.host_id == move.player_id:
        state.host_id = state.players[0].player_id


def start(state: GameState, move: Start, now: int) -> None:
    require_phase(state, Phase.LOBBY)
    require_member(state, move.player_id)
    if move.player_id != state.host_id:
        raise IllegalMoveError("not_host", "only the host can start the game")
    count = len(state.players)
    if count < MIN_PLAYERS:
        raise IllegalMoveError("not_enough_players", f"a game needs at least {MIN_PLAYERS} players")
    # Settings.build made sure the decks deal every hand of a full table.
    state.phase = Phase.STORYTELLING
    size = hand_size(count)
    state.hands = {player.player_id: state.draw(size) for player in state.players}
    first = state.next_rng().randrange(count)
    state.round = Round(number=1, storyteller_id=state.players[first].player_id, since=now)
