"""Personal tokens: a player makes scoped tokens for their own scripts and bots, lists and revokes them.

Only the player's own session reaches these routes (`account:owner` in the route table): no token makes,
sees or revokes tokens. docs/tokens.md tells what each scope allows.
"""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.request import Request

from app.flows import revoke_credentials
from app.players import personal_tokens
from app.players.token_schemas import (
    CreatePersonalToken,
    PersonalTokenCreated,
    PersonalTokenList,
    personal_token_created,
    personal_token_out,
)
from handlers.http import Adapters, Signed, created, done, json_response, no_content, no_store_response
from handlers.problems import answers
from handlers.route_table import Endpoints

endpoint = Endpoints()
_LIST = "/players/me/personal-tokens"


@endpoint(
    "createPersonalToken",
    summary="Make a personal token with scopes, for a script or a bot (the token is shown once)",
    description=(
        f"At most {personal_tokens.MAX_PERSONAL_TOKENS} per player (409 `too_many_personal_tokens`). "
        "Any scope but `account:owner` (the schema lists the others). A request with the token outside "
        "its scopes is a 403 `insufficient_scope` naming the scope; see docs/tokens.md."
    ),
    **answers(created("The token, shown this once", _LIST), 400, 401, 409, 413, 415),
)
def create_personal_token(
    request: Request, body: CreatePersonalToken, signed: Signed, adapters: Adapters
) -> Response[PersonalTokenCreated]:
    token, secret_form = personal_tokens.create(adapters, signed, body.name, body.scopes)
    # The secret must not linger in a shared cache or the browser's history of responses.
    return no_store_response(request, personal_token_created(token, secret_form), 201, _LIST)


@endpoint(
    "listPersonalTokens",
    summary="Your personal tokens: name, scopes, created, last used (never their secrets)",
    **answers({200: {"description": "Your personal tokens, oldest first"}}, 401),
)
def list_personal_tokens(signed: Signed, adapters: Adapters) -> Response[PersonalTokenList]:
    found = personal_tokens.list_tokens(adapters, signed)
    body = PersonalTokenList(personal_tokens=[personal_token_out(t) for t in found])
    return json_response(body, headers={"Cache-Control": "no-store"})


@endpoint(
    "revokePersonalToken",
    summary="Revoke a personal token: its very next request is a 401",
    **answers(no_content("Revoked"), 401, 404),
)
def revoke_personal_token(token_id: str, signed: Signed, adapters: Adapters) -> Response[None]:
    revoke_credentials.revoke_personal_token(adapters, signed, token_id)
    return done()
