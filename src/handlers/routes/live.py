"""The live channel's one REST route: a ticket to open the WebSocket with (docs/live.md)."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response

from app.live import tickets
from app.live.schemas import LiveTicketOut
from handlers.http import Adapters, Signed, json_response
from handlers.problems import answers
from handlers.route_table import Endpoints

endpoint = Endpoints()


@endpoint(
    "createLiveTicket",
    summary="A single-use ticket to open the live channel (a WebSocket) with",
    description=(
        "Open `url` with `?ticket=<ticket>` within `expires_in` seconds: the ticket is good for one "
        "connection, once (a browser cannot set an Authorization header on a WebSocket). Then send "
        '`{"action": "watch", "game_id": "..."}` for each game on screen; the channel says '
        '`{"type": "game.changed", "game_id", "version"}` and you fetch your view with its ETag. '
        "See docs/live.md."
    ),
    **answers({200: {"description": "The ticket, shown once"}}, 401, 403),
)
def create_live_ticket(signed: Signed, adapters: Adapters) -> Response[LiveTicketOut]:
    url = adapters.settings.live_url
    # The ticket remembers the credential that took it: $connect refuses it once that is revoked.
    issued = tickets.issue_ticket(
        adapters.live, signed.player.player_id, signed.session_id, now=adapters.now_epoch()
    )
    body = LiveTicketOut(ticket=issued.ticket, url=url, expires_in=issued.expires_in)
    # A ticket must not linger in a shared cache or the browser's history of responses.
    return json_response(body, headers={"Cache-Control": "no-store"})
