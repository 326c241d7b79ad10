"""Bad input never causes a 500: random bodies, paths and headers thrown at every route.

Each answer is either a success or a problem+json with a stable code and nothing internal in it (the
OAuth token endpoint's refusals are RFC 6749 §5.2's JSON instead, which OAuth clients parse).
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from local_stack.template import api_routes, load_template

from ..client import Client, Reply, call
from ..helpers import give_clue, started

# Every route template.yaml declares, so a new route is fuzzed without anyone remembering to add it.
ROUTES = sorted((r.method, r.path) for r in api_routes(load_template()))
FIELDS = ["name", "rules", "decks", "max_players", "target_score", "visibility", "invite_code", "card_id",
          "clue", "card_ids"]  # fmt: skip

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
card_like = st.from_regex(r"\A[a-z]{1,8}-\d{1,4}\Z") | st.text(max_size=12)
bodies = (
    st.dictionaries(
        st.sampled_from(FIELDS), json_values | card_like | st.lists(card_like, max_size=4), max_size=4
    ).map(json.dumps)
    | json_values.map(json.dumps)
    | st.text(max_size=60)
    | st.none()
)
path_ids = st.sampled_from(
    ["{game}", "g_0123456789abcdef", "base", "../etc", "%00", "g_" + "f" * 200]
) | st.text(max_size=20)
headers = st.fixed_dictionaries(
    {},
    optional={
        "Idempotency-Key": st.text(max_size=140),
        "If-Match": st.text(max_size=40),
        "If-None-Match": st.text(max_size=40),
    },
)


# RFC 6749 §5.2: what the token endpoint's 400 names, as its `error`.
OAUTH_ERRORS = {
    "invalid_request",
    "invalid_client",
    "invalid_grant",
    "unauthorized_client",
    "unsupported_grant_type",
    "invalid_scope",
}


def check(reply: Reply, path: str = "") -> None:
    # A feature this deployment does not configure (Web Push without a VAPID key) is a 501 whatever the
    # input: not a server error.
    not_configured = reply.status == 501 and str(reply.body.get("code", "")).endswith("_not_configured")
    assert reply.status < 500 or not_configured, reply.raw
    if path == "/oauth/token" and reply.status == 400:
        assert reply.headers.get("Content-Type") == "application/json", reply.raw
        assert reply.headers.get("Cache-Control") == "no-store", reply.raw
        assert reply.body["error"] in OAUTH_ERRORS, reply.raw
        assert "Traceback" not in reply.raw
    elif reply.status >= 400:
        assert reply.headers.get("Content-Type") == "application/problem+json", reply.raw
        body: dict[str, Any] = reply.body
        assert body["status"] == reply.status
        assert isinstance(body["code"], str)
        assert body["code"]
        assert "Traceback" not in reply.raw


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(route=st.sampled_from(ROUTES), raw=bodies, path_id=path_ids, extra=headers, as_player=st.booleans())
def test_no_input_makes_any_route_fail_with_a_server_error(
    players: list[Client], route: tuple[str, str], raw: str | None, path_id: str, extra: dict[str, str],
    as_player: bool,
) -> None:  # fmt: skip
    method, template = route
    target = path_id.replace("{game}", _game(players))
    path = template.replace("{game_id}", target).replace("{deck_id}", target)
    auth = {"Authorization": f"Bearer {players[0].token}"} if as_player else {}
    check(call(method, path, raw_body=raw, headers={**auth, **extra}), path)


_GAMES: dict[str, str] = {}


def _game(players: list[Client]) -> str:
    """One game in submitting per test run, so moves meet a real state (the table outlives examples)."""
    key = players[0].player_id
    if key not in _GAMES:
        game_id = started(players[:3])
        give_clue(players[:3], game_id)
        _GAMES[key] = game_id
    return _GAMES[key]
