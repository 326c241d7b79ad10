"""Every input limit of the game, in one place.

The request schemas, the OpenAPI document and the rule errors all read these numbers, so a limit can
never say one thing in the contract and another in the rules.
"""

from __future__ import annotations

MAX_NAME_LENGTH = 40
MAX_CLUE_LENGTH = 200
