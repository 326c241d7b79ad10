"""The game view's body is GameOut's JSON as it is: what a keyed request stores is what the resolver
answers after validating it, field for field, at every point of a game and for every kind of viewer."""

from __future__ import annotations

import json

from app.core.records import GameRecord, Visibility
from app.decks.card_images import CardImages
from app.games.presenters import game_body
from app.games.schemas import GameOut
from dixit.bots import RandomBot, next_mover
from dixit.engine import apply, new_game
from dixit.moves import Join, Start
from dixit.settings import Settings
from dixit.state import GameState
from dixit.views import view_for


class _Links:
    def link(self, bucket: str, key: str, *, signed_at: int, expires_in: int) -> str:
        return f"https://{bucket}.example/{key}?at={signed_at}&for={expires_in}"

    def links(self, bucket: str, keys: list[str], *, signed_at: int, expires_in: int) -> list[str]:
        return [self.link(bucket, key, signed_at=signed_at, expires_in=expires_in) for key in keys]


CREATED = "2026-01-01T00:00:00Z"
IMAGES = CardImages("cards", 60, _Links())  # type: ignore[arg-type]


def _states(players: int, seed: int) -> list[GameState]:
    state = new_game("g_0123456789abcdef", host_id="p0", host_name="P0", settings=Settings.build("classic"),
                     seed=seed)  # fmt: skip
    states = [state]
    for i in range(1, players):
        state = apply(state, Join(f"p{i}", f"P{i}"), now=0).state
    state = apply(state, Start("p0"), now=0).state
    bots = {f"p{i}": RandomBot(f"p{i}", seed + i) for i in range(players)}
    moves = 0
    while (mover := next_mover(state)) is not None:
        move = bots[mover].choose(view_for(state, mover))
        assert move is not None
        state = apply(state, move, now=3_600 * moves).state
        moves += 1
        states.append(state)
    return states


def test_every_game_view_is_already_in_the_form_the_resolver_answers_with() -> None:
    for state in _states(4, seed=7)[::2] + _states(4, seed=7)[-1:]:
        record = GameRecord(
            state, Visibility.PRIVATE, "Zx8_q1", "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"
        )
        for viewer in ("p0", "p2", None, "p_stranger"):
            body = game_body(record, viewer, IMAGES)
            assert GameOut.model_validate(body).model_dump(mode="json") == body
            assert json.loads(json.dumps(body)) == body
