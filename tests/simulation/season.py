"""The season's loop, the same in every world: games start, players answer late or never, the sweep runs.

Everything that happens is drawn from the season's seed (which seats, who is silent, how late each answer
is, which card a bot picks) and ordered by the fake clock, with ties broken by the order of events: the
same seed plays the same season.
"""

from __future__ import annotations

import heapq
import random
from datetime import UTC, datetime, timedelta

from dixit.views import waiting_for
from tests.api.json_bot import choose

from .model import T0, Played, Season, Tally, World
from .nights import nights_for

# What tells a player about a move they owe (game_over owes nothing).
OWED_KINDS = ("your_turn", "reminder", "timeout")


def play(world: World, season: Season) -> Played:
    rng = random.Random(season.seed)
    bots_rng = random.Random(season.seed + 1)
    clock = world.clock
    clock.now = T0
    tally = Tally()
    timeout_s = season.timeout_hours * 3600

    # Players: a pool a little larger than the seats, so some play several games at once.
    table_sizes = [rng.randint(3, 8) for _ in range(season.games)]
    pool = [world.register(f"P{i}") for i in range(max(8, int(sum(table_sizes) * 0.8)))]
    silent = frozenset(rng.sample(pool, int(len(pool) * season.silent_share)))
    nights = nights_for(pool, season.quiet_share, season.seed)

    # (when, order, game_id, player_id): a player opens the game and plays what they owe, if anything.
    agenda: list[tuple[int, int, str, str]] = []
    order = 0

    def hear(swept: bool = False) -> None:
        """Deliver what was published; players answer their new turns after a random delay."""
        nonlocal order
        heard = world.hear()
        now = clock.epoch()
        if swept:
            for old, new in heard.changes:
                # The sweep writes a game only to move it on without whoever it was waiting on.
                if old is not None and old.version != new.version:
                    for player_id in waiting_for(old):
                        tally.timed_out.append((now, new.game_id, player_id))
                        if player_id in nights and nights[player_id].covers(now):
                            tally.timeouts_in_quiet_hours += 1
        for kind, player_id, game_id in heard.published:
            tally.published.append((now, kind, player_id, game_id))
            night = nights.get(player_id)
            if kind in OWED_KINDS and night is not None and night.covers(now):
                tally.messages_in_quiet_hours[kind] += 1
            if kind == "your_turn" and player_id not in silent:
                order += 1
                when = now + rng.randint(60, int(season.late_factor * timeout_s))
                heapq.heappush(
                    agenda, (when if night is None else night.awake_at(when), order, game_id, player_id)
                )

    seats: dict[str, list[str]] = {}
    started_at: dict[str, int] = {}
    for g, count in enumerate(table_sizes):
        members = rng.sample(pool, count)
        body: dict[str, object] = {
            "rules": "odyssey" if count > 6 else "classic",
            "visibility": "private",
            "max_players": count,
            "target_score": season.target_score,
            "move_timeout_hours": season.timeout_hours,
        }
        if season.timeout_policy is not None:
            body["timeout_policy"] = season.timeout_policy
        game_id, invite = world.create(members[0], body)
        for guest in members[1:]:
            world.join(guest, game_id, invite)
        world.start(members[0], game_id)
        seats[game_id] = members
        started_at[game_id] = clock.epoch()
        if g % 20 == 19:
            clock.now += timedelta(minutes=17)  # games start over a few hours, not all at once
    hear()

    finished_at: dict[str, int] = {}

    def note_finished() -> None:
        for game_id in world.finished():
            finished_at.setdefault(game_id, clock.epoch())

    step = int(season.sweep_every.total_seconds())
    next_sweep = clock.epoch() + step
    end = T0 + timedelta(days=season.max_days)
    while len(finished_at) < len(seats) and clock.now < end:
        if agenda and agenda[0][0] < next_sweep:
            when, _, game_id, player_id = heapq.heappop(agenda)
            clock.now = datetime.fromtimestamp(when, UTC)
            picked = choose(world.view(player_id, game_id), bots_rng)
            if picked is not None:
                refused = world.move(player_id, game_id, *picked)
                if refused is None:
                    tally.moves += 1
                else:
                    tally.refused[refused] += 1
            hear()
            note_finished()
            continue
        earliest = world.earliest_due()
        if earliest is not None and earliest > next_sweep:
            # A run with nothing due changes nothing: skip the ticks until something is.
            next_sweep += (earliest - next_sweep) // step * step
            if agenda and agenda[0][0] < next_sweep:
                continue
        clock.now = datetime.fromtimestamp(next_sweep, UTC)
        next_sweep += step
        report = world.sweep()
        tally.sweeps += 1
        tally.lost_races += int(report["lost_races"])
        tally.timeouts += int(report["timeouts_applied"])
        tally.players_timed_out += int(report["players_timed_out"])
        hear(swept=True)
        note_finished()
    return Played(season, tally, seats, silent, started_at, finished_at, world.finished(), nights)
