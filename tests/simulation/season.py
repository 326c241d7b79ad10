"""The season's loop, the same in every world: games start, players answer late or never, the sweep runs.

Everything that happens is drawn from the season's seed (which seats, who is silent, how late each answer
is, which card a bot picks, who takes a vacation) and ordered by the fake clock, with ties broken by the
order of events: the same seed plays the same season.
"""

from __future__ import annotations

import heapq
import random
from datetime import UTC, datetime, timedelta
from typing import Any

from dixit.state import GameState
from dixit.views import waiting_for
from tests.api.json_bot import choose

from .markers import marks
from .model import T0, Played, Season, Tally, World
from .nights import nights_for

# What tells a player about a move they owe (game_over owes nothing).
OWED_KINDS = ("your_turn", "reminder", "timeout")
OPEN = ""  # an agenda entry's action: open the game and play what is owed


def moved_on(old: GameState, new: GameState, now: int) -> list[str]:
    """Whom a sweep's write moved on: those owing a move in `old` whose deadline passed by `now` and who
    no longer owe it in `new` (all of them once the phase moved on). Read off the states, not the rule:
    a player past due but left owing (asleep, dixit.asleep) was not timed out."""
    same_phase = (
        new.round is not None
        and old.round is not None
        and (new.round.number, new.phase) == (old.round.number, old.phase)
    )
    still = set(waiting_for(new)) if same_phase else set()
    return [p for p in waiting_for(old) if old.deadline_of(p) <= now and p not in still]


def play(world: World, season: Season) -> Played:
    rng = random.Random(season.seed)
    bots_rng = random.Random(season.seed + 1)
    # The absences' own stream: a season without them draws everything else as before.
    away_rng = random.Random(f"{season.seed}:absences")
    clock = world.clock
    clock.now = T0
    tally = Tally()
    timeout_s = season.timeout_hours * 3600

    # Players: a pool a little larger than the seats, so some play several games at once.
    table_sizes = [rng.randint(3, 8) for _ in range(season.games)]
    pool = [world.register(f"P{i}") for i in range(max(8, int(sum(table_sizes) * 0.8)))]
    silent = frozenset(rng.sample(pool, int(len(pool) * season.silent_share)))
    nights = nights_for(pool, season.quiet_share, season.seed)
    for player_id, night in nights.items() if season.quiet_hours_set else ():
        world.set_preferences(player_id, night.preferences())
    newcomers: list[str] = []

    # (when, order, game_id, player_id, action): a player opens the game and plays what they owe (OPEN),
    # or a newcomer takes the offered seat of the player named by the action.
    agenda: list[tuple[int, int, str, str, str]] = []
    order = 0
    seats: dict[str, list[str]] = {}
    invites: dict[str, str] = {}
    host_of: dict[str, str] = {}
    considered: set[tuple[str, str]] = set()  # (game, seat) the host thought of offering once
    last_moved: dict[tuple[str, str], int] = {}  # (game, player) -> when they last moved there

    def later(when: int, game_id: str, player_id: str, action: str = OPEN) -> None:
        nonlocal order
        order += 1
        night = nights.get(player_id)
        heapq.heappush(
            agenda, (when if night is None else night.awake_at(when), order, game_id, player_id, action)
        )

    def remedy(player_id: str, game_id: str, route: str, body: dict[str, object]) -> bool:
        """A vacation, an extension or a seat: applied, or counted as refused by route and code."""
        refused = world.move(player_id, game_id, route, body)
        if refused is not None:
            tally.refused[f"{route}: {refused}"] += 1
        return refused is None

    def answer_delay() -> int:
        return rng.randint(60, int(season.late_factor * timeout_s))

    def hear(swept: bool = False) -> None:
        """Deliver what was published; players answer their new turns after a random delay."""
        heard = world.hear()
        now = clock.epoch()
        for old, new in heard.changes:
            tally.marks.update(marks(old, new))
            # The sweep writes a game only to move it on without whoever's deadline passed.
            if swept and old is not None and old.round is not None and old.version != new.version:
                for player_id in moved_on(old, new, now):
                    tally.timed_out.append((now, new.game_id, player_id))
                    tally.timeouts_by_phase[old.phase.value] += 1
                    if player_id in nights and nights[player_id].covers(now):
                        tally.timeouts_in_quiet_hours += 1
        vacations: list[tuple[str, str, int, int]] = []
        for kind, player_id, game_id in heard.published:
            tally.published.append((now, kind, player_id, game_id))
            night = nights.get(player_id)
            if kind in OWED_KINDS and night is not None and night.covers(now):
                tally.messages_in_quiet_hours[kind] += 1
            if kind == "your_turn" and player_id not in silent:
                delay = answer_delay()
                if away_rng.random() < season.vacation_chance:
                    vacations.append((player_id, game_id, away_rng.randint(1, season.vacation_days), delay))
                else:
                    later(now + delay, game_id, player_id)
        if vacations:
            # Declared once everything heard is handled, and heard before anything else happens.
            for player_id, game_id, days, delay in vacations:
                if remedy(player_id, game_id, "vacation", {"days": days}):
                    delay += days * 86_400
                later(now + delay, game_id, player_id)
            hear()

    def host_considers_offers(game_id: str) -> None:
        """The host, opening the game, may offer the seat of each player the sweep timed out there."""
        host = host_of[game_id]
        for at, timed_game, seat_id in tally.timed_out:
            if timed_game != game_id or seat_id == host or (game_id, seat_id) in considered:
                continue
            if last_moved.get((game_id, seat_id), -1) > at:
                continue  # came back since: only a seat whose player's last owed move timed out is offered
            considered.add((game_id, seat_id))
            if seat_id not in seats[game_id] or away_rng.random() >= season.offer_chance:
                continue
            if not remedy(host, game_id, "offer-seat", {"player_id": seat_id}):
                continue
            if away_rng.random() < season.take_chance:
                newcomer = world.register(f"N{len(newcomers)}")
                newcomers.append(newcomer)
                later(clock.epoch() + rng.randint(60, timeout_s), game_id, newcomer, seat_id)

    def maybe_extend(player_id: str, game_id: str, view: dict[str, Any]) -> None:
        """Having moved, a player may give one of those the game still waits on 24 more hours."""
        waiting = [p for p in (view["round"] or {}).get("waiting_for", ()) if p != player_id]
        if waiting and away_rng.random() < season.extend_chance:
            remedy(player_id, game_id, "extend", {"player_id": away_rng.choice(waiting)})

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
        seats[game_id], invites[game_id], host_of[game_id] = list(members), invite, members[0]
        started_at[game_id] = clock.epoch()
        if g % 20 == 19:
            clock.now += timedelta(minutes=17)  # games start over a few hours, not all at once
    hear()

    finished_at: dict[str, int] = {}

    def note_finished() -> None:
        for game_id in world.finished():
            finished_at.setdefault(game_id, clock.epoch())

    def act(game_id: str, player_id: str, action: str) -> None:
        if game_id in finished_at:
            return
        if action != OPEN:
            # A newcomer through the invite link: joining a started game takes the first offered seat.
            if remedy(player_id, game_id, "join", {"invite_code": invites[game_id]}):
                view = world.view(player_id, game_id)
                seats[game_id] = [p["player_id"] for p in view["players"]]
                host_of[game_id] = view["host_id"]
                later(clock.epoch() + answer_delay(), game_id, player_id)
            return
        if player_id not in seats[game_id]:
            return  # a late player whose seat a newcomer took meanwhile
        if player_id == host_of[game_id] and season.offer_chance:
            host_considers_offers(game_id)
        picked = choose(world.view(player_id, game_id), bots_rng)
        if picked is None:
            return
        refused = world.move(player_id, game_id, *picked)
        if refused is not None:
            tally.refused[refused] += 1
            return
        tally.moves += 1
        last_moved[(game_id, player_id)] = clock.epoch()
        if season.extend_chance:
            maybe_extend(player_id, game_id, world.view(player_id, game_id))

    step = int(season.sweep_every.total_seconds())
    next_sweep = clock.epoch() + step
    end = T0 + timedelta(days=season.max_days)
    while len(finished_at) < len(seats) and clock.now < end:
        if agenda and agenda[0][0] < next_sweep:
            when, _, game_id, player_id, action = heapq.heappop(agenda)
            clock.now = datetime.fromtimestamp(when, UTC)
            act(game_id, player_id, action)
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
        tally.timeouts_held_asleep += int(report["timeouts_held_asleep"])
        hear(swept=True)
        note_finished()
    return Played(season, tally, seats, silent, started_at, finished_at, world.finished(), nights)
