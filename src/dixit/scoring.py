"""Scoring one round, as a pure function of who played and who voted for what."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dixit.settings import Ruleset

ODYSSEY_LARGE_TABLE = 7
ODYSSEY_VOTE_BONUS_CAP = 3


def is_large_odyssey_table(rules: Ruleset, player_count: int) -> bool:
    """Odyssey's 7-12 player variant: two votes allowed, lone-vote bonus, capped vote points."""
    return rules is Ruleset.ODYSSEY and player_count >= ODYSSEY_LARGE_TABLE


def score_round(
    *,
    rules: Ruleset,
    player_ids: Sequence[str],
    storyteller_id: str,
    storyteller_card: str,
    submissions: Mapping[str, Sequence[str]],
    votes: Mapping[str, Sequence[str]],
) -> dict[str, int]:
    """Points each player earns this round (every player appears, possibly with 0).

    Only those who voted count for "all found" and "none found": a player who sat the round out or let
    the vote time out neither scores those points nor withholds them, and a round nobody voted in scores
    nothing at all.
    """
    large_odyssey = is_large_odyssey_table(rules, len(player_ids))
    points = dict.fromkeys(player_ids, 0)
    voters = [pid for pid in player_ids if pid != storyteller_id and pid in votes]
    if not voters:
        return points
    finders = [pid for pid in voters if storyteller_card in votes[pid]]

    if not finders or len(finders) == len(voters):
        for pid in voters:
            points[pid] += 2
    else:
        points[storyteller_id] += 3
        for pid in finders:
            points[pid] += 3
            if large_odyssey and len(votes[pid]) == 1:
                points[pid] += 1

    owner = {card: pid for pid, cards in submissions.items() for card in cards}
    # A card earns its owner points whether or not the owner voted.
    vote_points = dict.fromkeys((pid for pid in player_ids if pid != storyteller_id), 0)
    for cards in votes.values():
        for card in cards:
            card_owner = owner.get(card)
            if card_owner is not None and card_owner != storyteller_id:
                vote_points[card_owner] += 1
    for pid, earned in vote_points.items():
        points[pid] += min(earned, ODYSSEY_VOTE_BONUS_CAP) if rules is Ruleset.ODYSSEY else earned
    return points
