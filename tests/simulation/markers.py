"""What a game change marks in the state: autoplayed moves, vacations, extensions, offered and taken seats.

Read off each (old, new) pair the stream carries, so the counts are the game's own record, the same in
every world, and nothing is counted twice: a marker counts when it first appears.
"""

from __future__ import annotations

from collections import Counter

from dixit.state import GameState, Phase


def _autoplay_marks(state: GameState, number: int) -> tuple[set[str], set[str]]:
    """Whose cards, and whose votes, the timeout played in round `number`, as far as `state` shows it."""
    rnd, last = state.round, state.last_round
    if rnd is not None and rnd.number == number:
        return set(rnd.autoplayed), set(rnd.autovoted)
    if last is not None and last.number == number:
        return {c.owner_id for c in last.cards if c.autoplayed}, set(last.autovoted)
    return set(), set()


def _extended(state: GameState, number: int) -> set[str]:
    rnd = state.round
    return set(rnd.extended) if rnd is not None and rnd.number == number else set()


def marks(old: GameState | None, new: GameState) -> Counter[str]:
    found: Counter[str] = Counter()
    if old is None or old.phase is Phase.LOBBY:
        return found
    # A taken seat renames its player everywhere in the round: compare under the seat's old name.
    renamed = {n: o for o, n in zip(old.player_ids, new.player_ids, strict=False) if o != n}

    def as_before(ids: set[str]) -> set[str]:
        return {renamed.get(p, p) for p in ids}

    if old.round is not None:
        number = old.round.number
        was_cards, was_votes = _autoplay_marks(old, number)
        cards, votes = (as_before(marked) for marked in _autoplay_marks(new, number))
        found["autoplayed_submissions"] += len(cards - was_cards)
        found["autoplayed_votes"] += len(votes - was_votes)
        found["extensions"] += len(as_before(_extended(new, number)) - _extended(old, number))
    before = {p.player_id: p for p in old.players}
    for player in new.players:
        was = before.get(player.player_id)
        if was is None:
            found["seats_taken"] += 1  # a newcomer in an offered seat: the only way in once started
        elif player.vacation_days_used > was.vacation_days_used:
            found["vacations"] += 1
            found["vacation_days"] += player.vacation_days_used - was.vacation_days_used
    found["seats_offered"] += len(set(new.offered) - set(old.offered))
    return +found
