"""A client generated from openapi.json by openapi-python-client plays a whole game, with its methods only.

What a third-party front-end does: generate an SDK from the committed contract and call it. The game is
played against the local stack over HTTP; the test never builds a URL or a JSON body by hand, so an
operation the contract names badly, a body it describes wrongly or an answer that breaks its schema fails
here.
"""

from __future__ import annotations

import importlib
import random
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from ..local_stack.test_local_serve import Served, start_serve, stop

REPO = Path(__file__).resolve().parents[2]
PACKAGE = "dixit_client"


@pytest.fixture(scope="module")
def sdk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    root = tmp_path_factory.mktemp("generated")
    bin_dir = Path(sys.executable).parent
    generator = shutil.which("openapi-python-client", path=str(bin_dir)) or "openapi-python-client"
    done = subprocess.run(
        [generator, "generate", "--path", str(REPO / "openapi.json"), "--meta", "none",
         "--output-path", str(root / PACKAGE)],
        capture_output=True, text=True, check=False,
        # The generator formats its output with ruff, from PATH.
        env={"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(root)},
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Warning" not in done.stdout, done.stdout  # nothing of the contract was skipped
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    running = start_serve(tmp_path_factory.mktemp("sdk-stack"))
    try:
        yield running
    finally:
        assert stop(running.process) == 0, running.logs()


def operation(tag: str, name: str) -> Any:
    """The generated module of one operation: `operation("moves", "cast_votes").sync(...)`."""
    return importlib.import_module(f"{PACKAGE}.api.{tag}.{name}")


def test_a_generated_client_plays_a_whole_game_with_its_own_methods(sdk: ModuleType, stack: Served) -> None:
    models = importlib.import_module(f"{PACKAGE}.models")
    register, get_game = operation("players", "register_player"), operation("games", "get_game")
    anonymous = sdk.Client(base_url=stack.api_url, raise_on_unexpected_status=True)

    clients = {}
    for name in ("Ada", "Bo", "Cy"):
        created = register.sync(client=anonymous, body=models.CreatePlayer(name=name))
        assert isinstance(created, models.PlayerCreated), created
        clients[created.player_id] = sdk.AuthenticatedClient(
            base_url=stack.api_url, token=created.token, raise_on_unexpected_status=True
        )
    host_id, *guest_ids = clients
    game = operation("games", "create_game").sync(
        client=clients[host_id], body=models.CreateClassicGame(target_score=10)
    )
    assert isinstance(game, models.GameOut), game
    for guest in guest_ids:
        # A public game needs no invite code: no body (the generator sends UNSET as JSON, so say None).
        joined = operation("lobby", "join_game").sync(game.game_id, client=clients[guest], body=None)
        assert isinstance(joined, models.GameOut), joined
    started = operation("lobby", "start_game").sync(game.game_id, client=clients[host_id])
    assert isinstance(started, models.GameOut), started

    rng = random.Random(7)
    for _ in range(500):
        views = {pid: get_game.sync(game.game_id, client=c) for pid, c in clients.items()}
        if views[host_id].phase == models.Phase.FINISHED:
            break
        for pid, view in views.items():
            owes = view.you.owes if view.you else None
            if owes is None:
                continue
            hand = [card.card_id for card in view.you.hand]
            if owes.move == models.OwesOutMove.CLUE:
                body = models.GiveClue(card_id=hand[0], clue="a door")
                answer = operation("moves", "give_clue").sync(game.game_id, client=clients[pid], body=body)
            elif owes.move == models.OwesOutMove.SUBMIT:
                body = models.ChooseCards(card_ids=rng.sample(hand, owes.count))
                answer = operation("moves", "submit_cards").sync(game.game_id, client=clients[pid], body=body)
            else:
                options = [c.card_id for c in view.round_.table if c.card_id not in view.you.submitted]
                body = models.ChooseCards(card_ids=rng.sample(options, owes.counts[0]))
                answer = operation("moves", "cast_votes").sync(game.game_id, client=clients[pid], body=body)
            assert isinstance(answer, models.GameOut), answer
    final = get_game.sync(game.game_id, client=clients[host_id])
    assert final.phase == models.Phase.FINISHED
    top = max(seat.score for seat in final.players)
    assert final.winners == [seat.player_id for seat in final.players if seat.score == top]


def test_a_generated_client_completes_the_oauth_flow_with_its_own_methods(
    sdk: ModuleType, stack: Served
) -> None:
    """What a third-party app's generated SDK does: the player's approval (the consent page's call), the
    code exchanged with its PKCE verifier, the app's token used, then refreshed."""
    import base64
    import hashlib
    import secrets
    from urllib.parse import parse_qs, urlsplit

    models = importlib.import_module(f"{PACKAGE}.models")
    anonymous = sdk.Client(base_url=stack.api_url, raise_on_unexpected_status=True)
    created = operation("players", "register_player").sync(
        client=anonymous, body=models.CreatePlayer(name="Ada")
    )
    ada = sdk.AuthenticatedClient(
        base_url=stack.api_url, token=created.token, raise_on_unexpected_status=True
    )
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    redirect, app_name = "http://127.0.0.1:8765/cb", "SDK bot"

    decided = operation("oauth", "decide_authorization").sync(
        client=ada,
        body=models.DecideAuthorization(
            client_id=app_name,
            redirect_uri=redirect,
            scope="games:read games:play",
            state="s1",
            code_challenge=challenge,
            code_challenge_method="S256",
            approve=True,
        ),
    )
    assert isinstance(decided, models.Decided), decided
    code = parse_qs(urlsplit(decided.redirect_to).query)["code"][0]
    issue = operation("oauth", "issue_app_token")
    grant = models.IssueAppTokenBodyGrantType
    tokens = issue.sync(
        client=anonymous,
        body=models.IssueAppTokenBody(
            client_id=app_name,
            grant_type=grant.AUTHORIZATION_CODE,
            code=code,
            redirect_uri=redirect,
            code_verifier=verifier,
        ),
    )
    assert isinstance(tokens, models.TokenOut), tokens
    app = sdk.AuthenticatedClient(
        base_url=stack.api_url, token=tokens.access_token, raise_on_unexpected_status=True
    )
    game = operation("games", "create_game").sync(client=app, body=models.CreateClassicGame(target_score=10))
    assert isinstance(game, models.GameOut), game

    again = issue.sync(
        client=anonymous,
        body=models.IssueAppTokenBody(
            client_id=app_name, grant_type=grant.REFRESH_TOKEN, refresh_token=tokens.refresh_token
        ),
    )
    assert isinstance(again, models.TokenOut), again
    assert again.refresh_token != tokens.refresh_token
    listed = operation("players", "list_apps").sync(client=ada)
    assert [a.client_id for a in listed.apps] == [app_name]
