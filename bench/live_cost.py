"""What a live game costs beside a by-mail one, at list prices (us-east-1).

    .venv/bin/python bench/live_cost.py

A by-mail game is docs/performance.md's ("Polling and what it costs"): 5 players, 99 moves over days,
one game view per move, inbox polls every 3 hours for 3 days. A live game is the same 99 moves played
in one sitting of SITTING_MINUTES, every player's screen on the live channel with polling off:

- API Gateway WebSocket: $0.25 per million connection minutes and $1.00 per million messages (each up to
  32 KB, both directions): each player's one connection for the sitting; per move one `game.changed` to
  each player's connection (app.live.fanout: a watching connection gets no `inbox.changed` besides); the
  `watch` frame and its answer once per connection.
- each `game.changed` makes that player's screen fetch its view (a REST request at the by-mail view's
  price) instead of the by-mail game's one view per move and its inbox polls;
- per move, one message through the live queue (SQS: send, receive, delete at $0.40 per million
  requests), one LiveDeliveryFunction invocation (Lambda as below), and its reads of who watches (one
  query of the game's watchers and one per member, eventually consistent: half a read unit each);
- per connection, LiveFunction's three invocations ($connect, the watch frame, $disconnect) and their
  items (the ticket put and taken, the connection's two items put and deleted, the watch's put and
  deleted: about 8 write units, and 2 read units).

Lambda is billed as docs/performance.md bills it: arm64, 512 MB, 30 ms per invocation (an assumption,
not a measurement), $0.20 per million requests and $0.0000133334 per GB-second.
"""

from __future__ import annotations

PLAYERS = 5
MOVES = 99
SITTING_MINUTES = 45

REST_PER_REQUEST = 3.50e-6
WS_PER_MESSAGE = 1.00e-6
WS_PER_CONNECTION_MINUTE = 0.25e-6
SQS_PER_REQUEST = 0.40e-6
RRU = 0.125e-6
WRU = 0.625e-6
LAMBDA_INVOCATION = 0.20e-6 + 0.030 * 0.5 * 0.0000133334

# docs/performance.md, one 5-player by-mail game of 99 moves.
BY_MAIL = {
    "moves": 0.00045,
    "game views": 0.00040,
    "GameStreamFunction": 0.00036,
    "SNS publishes": 0.00005,
    "inbox polls (every 3 h, 3 days)": 0.00048,
}


def live_game() -> dict[str, float]:
    view = REST_PER_REQUEST + LAMBDA_INVOCATION
    messages = MOVES * PLAYERS + 2 * PLAYERS  # a game.changed per move and player; watch and its answer
    return {
        "moves": BY_MAIL["moves"],
        "game views (each player refetches each change)": MOVES * PLAYERS * view,
        "GameStreamFunction": BY_MAIL["GameStreamFunction"],
        "SNS publishes": BY_MAIL["SNS publishes"],
        "WebSocket messages": messages * WS_PER_MESSAGE,
        "WebSocket connection minutes": PLAYERS * SITTING_MINUTES * WS_PER_CONNECTION_MINUTE,
        "live queue and LiveDeliveryFunction": MOVES * (3 * SQS_PER_REQUEST + LAMBDA_INVOCATION)
        + MOVES * (1 + PLAYERS) * 0.5 * RRU,
        "tickets (REST) and LiveFunction": PLAYERS * (view + 3 * LAMBDA_INVOCATION + 8 * WRU + 2 * RRU),
    }


def table() -> str:
    live = live_game()
    lines = ["| | by mail | live |", "|---|---|---|"]
    for name in dict.fromkeys([*BY_MAIL, *live]):
        mail, now = BY_MAIL.get(name), live.get(name)
        lines.append(
            f"| {name} | {'' if mail is None else f'${mail:.5f}'} | {'' if now is None else f'${now:.5f}'} |"
        )
    lines.append(f"| **total per game** | **${sum(BY_MAIL.values()):.4f}** | **${sum(live.values()):.4f}** |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table())
