"""The game view's body is GameOut's JSON as it is, at every point of a game and for every kind of viewer.

What a keyed request stores is what the resolver answers after validating it, field for field; and the
direct lane (handlers.hot_routes) sends the body as built, without validating it again, on the strength
of these tests.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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


def _states(players: int, seed: int, rules: str = "classic", title: str | None = None) -> list[GameState]:
    settings = Settings.build(rules, title=title)
    state = new_game("g_0123456789abcdef", host_id="p0", host_name="P0", settings=settings, seed=seed)
    states = [state]
    for i in range(1, players):
        state = apply(state, Join(f"p{i}", f"P{i} é✓"), now=0).state
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


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(min_value=3, max_value=8),
    seed=st.integers(min_value=0, max_value=10_000),
    rules=st.sampled_from(["classic", "odyssey"]),
    title=st.one_of(st.none(), st.text(alphabet="abc 🦊é", min_size=1, max_size=12).filter(str.strip)),
)
def test_every_view_of_any_game_is_gameouts_json(
    players: int, seed: int, rules: str, title: str | None
) -> None:
    players = min(players, 6) if rules == "classic" else players  # classic seats six
    states = _states(players, seed, rules, title)
    for state in states[:: max(1, len(states) // 12)] + states[-1:]:
        record = GameRecord(
            state, Visibility.PUBLIC, "Zx8_q1", "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"
        )
        for viewer in ("p0", f"p{players - 1}", None, "p_stranger"):
            body = game_body(record, viewer, IMAGES)
            assert GameOut.model_validate(body).model_dump(mode="json") == body


@given(
    st.sampled_from(["classic", "odyssey"]),
    st.sampled_from([None, ["base"], ["base", "daydreams"]]),
    st.sampled_from([None, 10, 30]),
    st.sampled_from([None, "autoplay", "skip", "wait"]),
    st.sampled_from([None, "Friday family game"]),
    st.sampled_from([None, 0, 7]),
    st.sampled_from([None, "between_rounds", "always", "off"]),
)
def test_the_settings_written_out_are_settings_outs_json(
    rules: str,
    decks: list[str] | None,
    target: int | None,
    policy: str | None,
    title: str | None,
    vacation: int | None,
    talk: str | None,
) -> None:
    from app.games.presenters import settings_body
    from app.games.settings_out import SettingsOut

    chosen = Settings.build(
        rules,
        decks,
        None,
        target,
        timeout_policy=policy,
        title=title,
        vacation_days=vacation,
        table_talk=talk,
    )
    as_model = SettingsOut.model_validate(chosen, from_attributes=True).model_dump(mode="json")
    written = settings_body(chosen)
    assert json.dumps(written) == json.dumps(as_model)
