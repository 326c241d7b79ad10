"""The apps a player let act for them (OAuth grants): listed beside sessions and personal tokens, and
revoked one by one. Only the player's own session reaches these routes (`account:owner`)."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response

from app.flows import revoke_credentials
from app.oauth.schemas import AppList, app_out
from app.players import app_tokens
from handlers.http import Adapters, Signed, done, json_response, no_content
from handlers.problems import answers
from handlers.route_table import Endpoints

endpoint = Endpoints()


@endpoint(
    "listApps",
    summary="The apps you let act for you (OAuth), with their scopes and last use; never a token",
    **answers({200: {"description": "Every app, oldest first"}}, 401, 403),
)
def list_apps(signed: Signed, adapters: Adapters) -> Response[AppList]:
    found = app_tokens.list_apps(adapters, signed.player.player_id, signed.scopes)
    return json_response(AppList(apps=[app_out(g) for g in found]))


@endpoint(
    "revokeApp",
    summary="Revoke an app: its access and refresh tokens stop working at once",
    **answers(no_content("Revoked"), 401, 403, 404),
)
def revoke_app(grant_id: str, signed: Signed, adapters: Adapters) -> Response[None]:
    revoke_credentials.revoke_app(adapters, signed, grant_id)
    return done()
