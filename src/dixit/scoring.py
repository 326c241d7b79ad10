"""Scoring a round: how many cards a vote takes, the points as a pure function of who played and who
voted for what, and the scored round's reveal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dixit.results import CardResult, RoundResult
from dixit.settings import Ruleset
from dixit.state import GameState, Round

ODYSSEY_LARGE_TABLE = 7
ODYSSEY_VOTE_BONUS_CAP = 3


def is_large_odyssey_table(rules: Ruleset, player_count: int) -> bool:
    """Odyssey's 7-12 player variant: two votes allowed, lone-vote bonus, capped vote points."""
    return rules is Ruleset.ODYSSEY and player_count >= ODYSSEY_LARGE_TABLE


def allowed_vote_counts(rules: Ruleset, player_count: int) -> tuple[int, ...]:
    return (1, 2) if is_large_odyssey_table(rules, player_count) else (1,)


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


def counted_votes(rnd: Round) -> dict[str, list[str]]:
    """The votes that score: an autoplayed vote is shown in the reveal but left out of the points."""
    return {pid: cards for pid, cards in rnd.votes.items() if pid not in rnd.autovoted}


def score_current_round(state: GameState, rnd: Round) -> RoundResult:
    """Score `rnd`, the round in play once every vote is in: add its points to the players' scores and
    return its full reveal."""
    assert rnd.storyteller_card is not None
    assert rnd.clue is not None
    players = state.player_ids
    # Autoplay scores nothing for anyone: an autoplayed vote is left out, and an autoplayed card has no
    # owner to earn its votes (a vote for it still misses the storyteller's card, as for any decoy).
    scored = {pid: cards for pid, cards in rnd.submissions.items() if pid not in rnd.autoplayed}
    points = score_round(
        rules=state.settings.rules,
        player_ids=players,
        storyteller_id=rnd.storyteller_id,
        storyteller_card=rnd.storyteller_card,
        submissions={**scored, rnd.storyteller_id: [rnd.storyteller_card]},
        votes=counted_votes(rnd),
    )
    for player in state.players:
        player.score += points[player.player_id]
    return RoundResult(
        number=rnd.number,
        storyteller_id=rnd.storyteller_id,
        clue=rnd.clue,
        storyteller_card=rnd.storyteller_card,
        cards=tuple(
            CardResult(
                card_id=card,
                owner_id=rnd.owner_of(card) or "",
                voter_ids=tuple(pid for pid in players if card in rnd.votes.get(pid, ())),
                autoplayed=rnd.owner_of(card) in rnd.autoplayed,
            )
            for card in rnd.table
        ),
        points=points,
        autovoted=tuple(pid for pid in players if pid in rnd.autovoted),
    )
