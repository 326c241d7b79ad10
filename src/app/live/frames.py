"""What a client may send on the socket, read strictly, and the frames answering it.

A frame is one JSON object of at most MAX_FRAME_BYTES with a known `action`: `watch` and `unwatch` (with a
`game_id`) and `ping`. Anything else is answered with an error frame naming what was wrong; the socket
stays open.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from dixit.lean_dataclass import dataclass

MAX_FRAME_BYTES = 1024
ACTIONS = ("watch", "unwatch", "ping")
_GAME_ID = re.compile(r"^g_[0-9a-f]{16}$")


class FrameError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Frame:
    action: Literal["watch", "unwatch", "ping"]
    game_id: str | None = None


def parse_frame(raw: str | bytes | None) -> Frame:
    data = raw.encode() if isinstance(raw, str) else (raw or b"")
    if len(data) > MAX_FRAME_BYTES:
        raise FrameError("frame_too_large", f"a frame is at most {MAX_FRAME_BYTES} bytes")
    try:
        body: Any = json.loads(data)
    except ValueError:
        raise FrameError("frame_invalid", "a frame is one JSON object") from None
    if not isinstance(body, dict):
        raise FrameError("frame_invalid", "a frame is one JSON object")
    action = body.get("action")
    if action not in ACTIONS:
        raise FrameError("action_unknown", f"action is one of {', '.join(ACTIONS)}")
    if action == "ping":
        return Frame("ping")
    game_id = body.get("game_id")
    if not isinstance(game_id, str) or not _GAME_ID.fullmatch(game_id):
        # The same answer as GET /games/{id} for an id that cannot exist.
        raise FrameError("game_not_found", "there is no such game")
    return Frame(action, game_id)


def error_frame(code: str, message: str, game_id: str | None = None) -> dict[str, Any]:
    frame: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if game_id is not None:
        frame["game_id"] = game_id
    return frame
