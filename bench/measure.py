"""One benchmark process: `measure.py GROUP [--quick]` prints one JSON object {metric: value}.

bench/run.py starts it many times, alternating the baseline checkout and the work tree, and takes
medians. The code under test (`dixit`, `app`, `handlers`, template.yaml) comes from the current directory;
this file and the bots (tools/dixit_bots) are the instrument and come from the work tree on both sides.
CPU time, not wall time, is measured wherever the answer is "how much work", since wall time on a shared
machine is mostly noise. BENCH_EXTRA_CPU=0.1 makes the measured code spend 10 % more CPU (self-check).
"""

from __future__ import annotations

import compileall
import contextlib
import io
import json
import os
import py_compile
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from inprocess import LambdaTransport, burn, exclude_moto_cpu, moto_api

TREE = Path.cwd()
EXTRA_CPU = float(os.environ.get("BENCH_EXTRA_CPU", "0"))
MOVE_KINDS = ("clue", "submit", "vote")
MEASURED_KINDS = ("register", "create", "join", "start", *MOVE_KINDS, "view", "poll 304")
# Kinds with enough requests in a game for a stable median (create, join and start happen once or so).
CPU_KINDS = (*MOVE_KINDS, "view", "poll 304")
POLLS_PER_PLAYER = 5
# Names the row measured alongside the others as the machine's current speed (bench/run.py normalizes).
REFERENCE = "reference"


def cpu(fn: Any) -> float:
    started = time.process_time()
    fn()
    spent = time.process_time() - started
    return spent + (burn(spent * EXTRA_CPU) if EXTRA_CPU else 0.0)


# --- the rules core alone --------------------------------------------------------------------------
def bot_game(players: int, rules: str, seed: int) -> int:
    from dixit.bots import RandomBot, next_mover
    from dixit.engine import apply, new_game
    from dixit.moves import Join, Start
    from dixit.settings import Settings
    from dixit.views import view_for

    state = new_game("g_bench", host_id="p0", host_name="P0", settings=Settings.build(rules), seed=seed)
    for i in range(1, players):
        state = apply(state, Join(f"p{i}", f"P{i}"), now=0).state
    state = apply(state, Start("p0"), now=0).state
    bots = {f"p{i}": RandomBot(f"p{i}", seed + i) for i in range(players)}
    moves = 0
    while (mover := next_mover(state)) is not None:
        move = bots[mover].choose(view_for(state, mover))
        assert move is not None
        state = apply(state, move, now=0).state
        moves += 1
    return moves


REFERENCE_DATA = {"players": [{"id": f"p{i}", "hand": [f"c-{i}-{j}" for j in range(6)]} for i in range(12)]}


def reference_work() -> None:
    """A fixed slice of ordinary Python work: what the machine's speed is measured against right now."""
    for _ in range(8):
        text = json.dumps(REFERENCE_DATA, sort_keys=True)
        sorted(json.loads(text)["players"], key=lambda p: p["hand"][-1])
    sum(i * i % 7 for i in range(3000))


def reference_cpu() -> float:
    started = time.process_time()
    reference_work()
    return time.process_time() - started


def engine(quick: bool) -> dict[str, Any]:
    """CPU per move of bot games on the rules core.

    Each game sits between two slices of reference work, and counts as its ratio to them: a game played
    while the machine was slow is compared with reference work done while it was just as slow.
    """
    out: dict[str, Any] = {}
    references = [reference_cpu()]
    for players, rules, games in ((4, "classic", 24), (12, "odyssey", 6)):
        games = max(2, games // 3) if quick else games
        bot_game(players, rules, 0)  # imports and caches
        ratios = []
        for seed in range(1, games + 1):
            moves = 0

            def play(seed: int = seed, players: int = players, rules: str = rules) -> None:
                nonlocal moves
                moves = bot_game(players, rules, seed)

            spent = cpu(play) / moves
            references.append(reference_cpu())
            ratios.append(spent / ((references[-2] + references[-1]) / 2))
        out[f"engine CPU per move, {players}p {rules} (µs)"] = (
            statistics.median(ratios) * statistics.median(references) * 1e6
        )
    out["reference Python work CPU (µs)"] = statistics.median(references) * 1e6
    out[REFERENCE] = "reference Python work CPU (µs)"
    return out


# --- the Lambda handler in-process -------------------------------------------------------------------
def play_games(transport: Any, games: int, players: int, settings: dict[str, Any], seed: int) -> list[Any]:
    """Complete games through the API; afterwards every player polls its unchanged game a few times."""
    from dixit_bots.game import new_table, play, register

    tables = []
    for number in range(games):
        rng = random.Random(seed * 1000 + number)
        seated = register(transport, players, f"Bench {number}")
        table = new_table(seated, settings)
        play(table, rng)
        for player in seated:
            for _ in range(POLLS_PER_PLAYER):
                player.view(table.game_id)
        tables.append(table)
    return tables


class TrivialRoute:
    """A one-line Powertools route: the framework's floor, sampled right after every handler request.

    Sampling both in the same moments makes their ratio immune to the machine getting busier or quieter.
    """

    def __init__(self) -> None:
        from aws_lambda_powertools.event_handler import APIGatewayRestResolver
        from inprocess import FakeContext, event

        app = APIGatewayRestResolver()

        @app.get("/ping")
        def ping() -> dict[str, bool]:
            return {"ok": True}

        self.app, self.request, self.context = app, event("GET", "/ping", None, {}), FakeContext()
        self.spent: list[float] = []
        for _ in range(20):
            app.resolve(self.request, self.context)

    def sample(self, times: int = 3) -> float:
        """The median CPU of a few requests now."""
        now = []
        for _ in range(times):
            started = time.process_time()
            self.app.resolve(self.request, self.context)
            now.append(time.process_time() - started)
        self.spent += now
        return statistics.median(now)


def handler(quick: bool) -> dict[str, Any]:
    """Handler CPU per request kind (moto's share excluded): the median request of each kind.

    Right after every request, in the same moments, two references are sampled: the trivial route alone,
    and the floor (bench/floor.py: the trivial route plus the same AWS calls the request made, issued
    raw). Each request counts as its ratio to them, so the machine's drift cancels out.
    """
    from floor import Floor

    exclude_moto_cpu()
    ratios: defaultdict[str, list[float]] = defaultdict(list)
    over_floor: defaultdict[str, list[float]] = defaultdict(list)
    floors: defaultdict[str, list[float]] = defaultdict(list)
    trivial = TrivialRoute()

    with moto_api(TREE) as properties:
        floor = Floor(properties)

        def observe(kind: str, seconds: float) -> None:
            ratios[kind].append(seconds / trivial.sample())
            floors[kind].append(floor.sample())
            over_floor[kind].append(seconds / floors[kind][-1])

        from handlers.api import lambda_handler

        warm = LambdaTransport(lambda_handler)
        play_games(warm, 1, 3, {"rules": "classic", "target_score": 10}, seed=99)  # imports, clients, caches
        measured = LambdaTransport(
            lambda_handler, observe=observe, before=lambda *_: floor.start(), extra_cpu=EXTRA_CPU
        )
        play_games(measured, 1, 4, {"rules": "classic"}, seed=1)
    trivial_cpu = statistics.median(trivial.spent)
    out: dict[str, Any] = {"trivial Powertools route CPU (µs)": trivial_cpu * 1e6}
    out[REFERENCE] = "trivial Powertools route CPU (µs)"
    for kind in CPU_KINDS:
        if ratios[kind]:
            out[f"handler CPU per {kind} (µs)"] = statistics.median(ratios[kind]) * trivial_cpu * 1e6
    for kind in CPU_KINDS:
        if floors[kind]:
            out[f"handler floor CPU per {kind} (µs)"] = statistics.median(floors[kind]) * 1e6
    for kind in CPU_KINDS:
        if over_floor[kind]:
            out[f"handler/floor CPU, {kind} (x)"] = statistics.median(over_floor[kind])
    for kind in CPU_KINDS:
        if ratios[kind]:
            out[f"handler/trivial CPU, {kind} (x)"] = statistics.median(ratios[kind])
    return out


# --- cold start ----------------------------------------------------------------------------------------
# framework_in_use.py, built from like_the_app.py: the framework as the app configures it.
COLD_REFERENCE = Path(__file__).resolve().parent / "cold_reference"
# What a first move waits on besides the import: the DynamoDB client, botocore's model loaded.
APP_CLIENT = "from app.aws import clients\nclients.dynamodb()"
REFERENCE_CLIENT = "framework_in_use.dynamodb()"
IMPORTS = {
    "handlers.api": "import handlers.api",
    "framework in use": "import framework_in_use",
    # The app's SDK entry point is botocore's session; boto3 is never imported (app/aws/clients.py).
    "bare framework": "import aws_lambda_powertools.event_handler, pydantic, botocore.session",
    "handlers.api + DynamoDB client": f"import handlers.api\n{APP_CLIENT}",
    "framework in use + DynamoDB client": f"import framework_in_use\n{REFERENCE_CLIENT}",
}
MEASURED_IMPORT = "handlers.api"
IMPORT_PROBE = """
import resource, sys, time
def used():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
before = used()
{statement}
spent = used() - before
extra = spent * {extra}
started = time.process_time()
while time.process_time() - started < extra:
    sum(i * i % 7 for i in range(200))
print(used() - before)
"""


def _deployed(scratch: Path) -> Path:
    """The API function's package as `sam build` makes it (src/Makefile: bytecode compiled, for this
    interpreter here); the source tree itself for a baseline from before that build existed."""
    if not (TREE / "src" / "Makefile").exists():
        return TREE / "src"
    scratch.mkdir()
    version = "{}.{}".format(*sys.version_info[:2])
    build = ["make", "-s", "-C", str(TREE / "src"), "build-ApiFunction", f"ARTIFACTS_DIR={scratch}"]
    subprocess.run([*build, f"PYTHON={sys.executable}", f"RUNTIME={version}"], check=True)
    return scratch


def _reference(scratch: Path) -> Path:
    """The reference compiled to bytecode as the package is: neither side compiles source on import."""
    reference = scratch / "cold_reference"
    shutil.copytree(COLD_REFERENCE, reference, ignore=shutil.ignore_patterns("__pycache__"))
    unchecked = py_compile.PycInvalidationMode.UNCHECKED_HASH
    compileall.compile_dir(reference, quiet=1, invalidation_mode=unchecked)
    return reference


def cold(quick: bool) -> dict[str, Any]:
    """CPU to import each, in fresh interpreters with the environment Lambda gives (tracer active), the
    handler from its package as deployed."""
    with tempfile.TemporaryDirectory() as scratch:
        package = _deployed(Path(scratch) / "package")
        return _cold(quick, lambda_environment(package, _reference(Path(scratch))))


def lambda_environment(package: Path, reference: Path = COLD_REFERENCE) -> dict[str, str]:
    """The environment the API function's interpreter starts with (template.yaml's, tracing on)."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(package), str(reference)]),
        "LAMBDA_TASK_ROOT": str(package),
        "AWS_LAMBDA_FUNCTION_NAME": "ApiFunction",
        "AWS_REGION": "us-east-1",
        "AWS_DEFAULT_REGION": "us-east-1",
        "TABLE_NAME": "bench",
        "CARD_BUCKET": "bench",
        "POWERTOOLS_SERVICE_NAME": "dixit",
        "POWERTOOLS_METRICS_NAMESPACE": "DixitByMail",
    }
    env.pop("POWERTOOLS_TRACE_DISABLED", None)
    return env


def _cold(quick: bool, env: dict[str, str]) -> dict[str, Any]:
    runs: defaultdict[str, list[float]] = defaultdict(list)
    for number in range(1 if quick else 2):
        # Alternating within the run as well: each pair is measured in the same moments.
        order = list(IMPORTS.items()) if number % 2 == 0 else list(IMPORTS.items())[::-1]
        for name, statement in order:
            extra = EXTRA_CPU if name.startswith(MEASURED_IMPORT) else 0.0
            probe = IMPORT_PROBE.format(statement=statement, extra=extra)
            done = subprocess.run(
                [sys.executable, "-c", probe], env=env, check=True, capture_output=True, text=True
            )
            runs[name].append(float(done.stdout))
    median = {name: statistics.median(values) for name, values in runs.items()}
    app, framework, bare = median["handlers.api"], median["framework in use"], median["bare framework"]
    with_client = median["handlers.api + DynamoDB client"]
    framework_with_client = median["framework in use + DynamoDB client"]
    return {
        "cold import CPU, handlers.api (ms)": app * 1000,
        "cold import CPU, framework in use (ms)": framework * 1000,
        "cold import CPU, bare framework (ms)": bare * 1000,
        "cold import ratio, handlers.api / framework in use (x)": app / framework,
        "cold import, handlers.api / bare framework (x)": app / bare,
        "cold import + DynamoDB client, handlers.api / framework in use (x)": with_client
        / framework_with_client,
        REFERENCE: "cold import CPU, framework in use (ms)",
    }


# --- DynamoDB units, item sizes: deterministic, measured once ----------------------------------------------
class Accounting:
    """Labels every DynamoDB call with the request that made it, and tracks the largest game item seen."""

    def __init__(self, ledger: Any) -> None:
        self.ledger = ledger
        self.requests: defaultdict[str, int] = defaultdict(int)
        self.headers: dict[str, str] = {}
        self.game_key: dict[str, Any] = {}
        self.largest = 0

    def before(self, method: str, path: str) -> None:
        self.ledger.label = "in flight"
        self.look()

    def after(self, kind: str, _: float) -> None:
        self.requests[kind] += 1
        self.ledger.refile("in flight", kind)
        self.look()

    def watch(self, game_id: str) -> None:
        self.game_key = {"pk": {"S": f"GAME#{game_id}"}, "sk": {"S": "STATE"}}
        self.largest = 0
        self.look()

    def look(self) -> None:
        from capacity import item_size
        from inprocess import TABLE

        if self.game_key:
            self.largest = max(self.largest, item_size(self.ledger.get(TABLE, self.game_key)))

    def spy(self, transport: Any) -> Any:
        """A transport that also keeps the caching headers of game views (the advertised poll interval)."""

        def send(method: str, path: str, body: Any, headers: dict[str, str]) -> Any:
            reply = transport(method, path, body, headers)
            if method == "GET" and path.startswith("/games/"):
                self.headers.update({k: v for k, v in reply.headers.items() if k in POLL_HEADERS})
            if method == "POST" and path == "/games" and reply.status == 201:
                self.watch(reply.body["game_id"])
            return reply

        return send


POLL_HEADERS = ("cache-control", "retry-after")


def poll_interval(headers: dict[str, str]) -> float:
    if headers.get("retry-after", "").isdigit():
        return float(headers["retry-after"])
    for directive in headers.get("cache-control", "").split(","):
        name, _, value = directive.strip().partition("=")
        if name == "max-age" and value.isdigit():
            return float(value)
    return 0.0  # not advertised: run.py states the interval it assumes


def app_session() -> Any:
    """The session the app's clients come from: app.aws.clients' own, or boto3's default (older trees)."""
    import boto3

    try:
        from app.aws.clients import session
    except ImportError:
        boto3.setup_default_session()
        return boto3.DEFAULT_SESSION
    return session()


def capacity(quick: bool) -> dict[str, float]:
    import boto3
    from capacity import Ledger

    out: dict[str, float] = {}
    with moto_api(TREE) as properties:
        from handlers.api import lambda_handler

        ledger = Ledger(boto3.session.Session().client("dynamodb"), properties)
        ledger.attach(app_session())
        books = Accounting(ledger)
        transport = books.spy(LambdaTransport(lambda_handler, before=books.before, observe=books.after))
        play_games(transport, 1, 5, {"rules": "classic"}, seed=5)
        for kind, count in sorted(books.requests.items()):
            out[f"5p game: requests, {kind}"] = count
            if kind in MEASURED_KINDS:
                out[f"DynamoDB calls per {kind}"] = ledger.calls[kind] / count
                out[f"RCU per {kind}"] = ledger.rcu[kind] / count
                out[f"WCU per {kind}"] = ledger.wcu[kind] / count
            out[f"5p game: DynamoDB calls, {kind}"] = ledger.calls[kind]
            out[f"5p game: RCU, {kind}"] = ledger.rcu[kind]
            out[f"5p game: WCU, {kind}"] = ledger.wcu[kind]
        out["5p game: SNS publishes"] = sum(ledger.sns.values())
        out["game item at worst, 5p classic (KB)"] = books.largest / 1024
        out["advertised poll interval (s)"] = poll_interval(books.headers)
        out.update(item_sizes(transport, books, quick))
    return out


def item_sizes(transport: Any, books: Accounting, quick: bool) -> dict[str, float]:
    """The game item at its largest over a whole game: longest names and clues, every deck."""
    from dixit_bots.api import Player
    from dixit_bots.game import new_table, play

    try:
        from dixit.limits import MAX_CLUE_LENGTH, MAX_NAME_LENGTH
    except ImportError:  # a baseline from before the limits had a module
        MAX_CLUE_LENGTH, MAX_NAME_LENGTH = 200, 40
    out: dict[str, float] = {}
    listed = Player(transport, "Deck reader").expect("decks", "GET", "/decks")
    decks = [deck["deck_id"] for deck in listed["decks"]]
    clue = ("a long clue " * 40)[:MAX_CLUE_LENGTH]
    for players, rules in ((3, "classic"), (6, "classic"), (12, "odyssey")):
        names = [f"{i:03d}".rjust(MAX_NAME_LENGTH, "n") for i in range(players)]
        seated = [Player(transport, name).register() for name in names]
        table = new_table(seated, {"rules": rules, "decks": decks, "max_players": players})
        play(table, random.Random(players), clues=(clue,))
        books.look()
        out[f"game item at worst, {players}p {rules}, all decks (KB)"] = books.largest / 1024
        if quick:
            break
    return out


GROUPS = {"engine": engine, "handler": handler, "cold": cold, "capacity": capacity}


def main() -> None:
    group, quick = sys.argv[1], "--quick" in sys.argv[2:]
    # Powertools prints metrics and logs to stdout; only the answer goes there.
    with contextlib.redirect_stdout(io.StringIO()):
        result = GROUPS[group](quick)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
