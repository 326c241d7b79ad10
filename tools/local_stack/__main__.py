"""``python -m local_stack serve|invoke|clock|sam-env``: the local stack's command line."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from types import FrameType

from local_stack import DEFAULT_STATE_FILE
from local_stack.template import TEMPLATE_PATH


def _parameters(pairs: Sequence[str]) -> dict[str, str]:
    overrides = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise argparse.ArgumentTypeError(f"--parameter-overrides wants Name=Value, got {pair!r}")
        overrides[name] = value
    return overrides


def _env_float(name: str) -> float | None:
    value = os.environ.get(name)
    return float(value) if value else None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m local_stack", description=__doc__)
    parser.add_argument("--template", type=Path, default=TEMPLATE_PATH, help="SAM template (template.yaml)")
    parser.add_argument(
        "--parameter-overrides",
        nargs="*",
        default=[],
        metavar="NAME=VALUE",
        help="template parameter values, as for sam deploy",
    )
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="run the API, the AWS twin and the schedules in this process")
    serve.add_argument("--port", type=int, default=3000, help="API port (default 3000; 0 picks a free one)")
    serve.add_argument(
        "--live-port", type=int, default=0, help="live channel WebSocket port (default 0: --port + 1)"
    )
    serve.add_argument("--aws-port", type=int, default=0, help="moto server port (default 0: a free one)")
    serve.add_argument("--host", default="127.0.0.1", help="interface to bind (default 127.0.0.1)")
    serve.add_argument(
        "--schedule-seconds",
        type=float,
        default=_env_float("DIXIT_LOCAL_SCHEDULE_SECONDS"),
        help="run scheduled functions this often instead of their template rate "
        "(env DIXIT_LOCAL_SCHEDULE_SECONDS)",
    )
    serve.add_argument(
        "--workers",
        type=int,
        default=int(os.environ.get("DIXIT_LOCAL_WORKERS") or 1),
        help="run the API handler in this many worker processes, serving requests concurrently as Lambda's "
        "execution environments do (default 1: in-process, one at a time; env DIXIT_LOCAL_WORKERS)",
    )
    serve.add_argument("--no-seed", action="store_true", help="do not upload generated card art")
    serve.add_argument(
        "--seed-decks",
        default="",
        help="comma-separated decks whose art to upload (default: every official deck)",
    )
    serve.add_argument(
        "--state-file", type=Path, default=DEFAULT_STATE_FILE, help="where to record endpoints for invoke"
    )
    serve.add_argument("-v", "--verbose", action="store_true", help="debug logging")

    invoke = commands.add_parser("invoke", help="invoke one function once, like sam local invoke")
    invoke.add_argument("logical_id", help="function logical id in the template, e.g. ApiFunction")
    invoke.add_argument("-e", "--event", required=True, help="event JSON file, or - for stdin")
    invoke.add_argument("--aws-endpoint", help="AWS endpoint (default: from the state file of serve)")
    invoke.add_argument("--state-file", type=Path, default=DEFAULT_STATE_FILE)
    clock = commands.add_parser(
        "clock", help="read or move the running stack's clock (what POST /_local/clock does)"
    )
    clock.add_argument(
        "change",
        nargs="?",
        help="+2h, 1d2h30m or PT2H: move forward by that; 2026-12-05T08:00:00Z: move to that time; "
        "reset: back to the wall clock; nothing: print the clock",
    )
    clock.add_argument("--api-url", help="the stack's address (default: from the state file of serve)")
    clock.add_argument("--state-file", type=Path, default=DEFAULT_STATE_FILE)
    sam_env = commands.add_parser("sam-env", help="write env.json for sam local from the running stack")
    sam_env.add_argument("--state-file", type=Path, default=DEFAULT_STATE_FILE)
    sam_env.add_argument("--out", type=Path, default=Path("env.json"), help="where to write (env.json)")
    sam_env.add_argument(
        "--container-host",
        default="host.docker.internal",
        help="how a container reaches this machine (127.0.0.1 with sam's --docker-network host)",
    )
    return parser


def serve(args: argparse.Namespace) -> int:
    from local_stack.stack import LocalStack, ServeOptions

    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
        datefmt="%H:%M:%S",
    )
    if not args.verbose:
        for noisy in ("botocore", "boto3", "urllib3", "werkzeug", "moto"):
            logging.getLogger(noisy).setLevel(logging.WARNING)
    # The handlers' Powertools Logger(service="dixit") owns the "dixit" logger and formats everything
    # under it as Lambda JSON logs; the local stack's own lines stay plain and go to stderr.
    local_logger = logging.getLogger("local_stack")
    local_handler = logging.StreamHandler(sys.stderr)
    local_handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", datefmt="%H:%M:%S"))
    local_logger.addHandler(local_handler)
    local_logger.setLevel(logging.DEBUG if args.verbose else logging.INFO)
    local_logger.propagate = False

    stop = threading.Event()

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        logging.getLogger("local_stack").info("%s received, stopping", signal.Signals(signum).name)
        stop.set()

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)

    stack = LocalStack(
        ServeOptions(
            port=args.port,
            aws_port=args.aws_port,
            host=args.host,
            template_path=args.template,
            state_file=args.state_file,
            schedule_seconds=args.schedule_seconds,
            seed=not args.no_seed,
            seed_decks=tuple(d for d in args.seed_decks.split(",") if d) or None,
            workers=args.workers,
            live_port=args.live_port,
            # A developer watches several players at once: poll every few seconds, not hourly as deployed.
            parameter_overrides={"PollSeconds": "5", **_parameters(args.parameter_overrides)},
        )
    )
    try:
        stack.start()
        while not stop.wait(0.5):
            pass
    except OSError as exc:
        print(f"cannot start the local stack: {exc}", file=sys.stderr)
        return 1
    finally:
        stack.stop()
    print("local stack stopped", flush=True)
    return 0


def clock(args: argparse.Namespace) -> int:
    from local_stack.clock import clock_command
    from local_stack.stack_env import read_state

    api_url = args.api_url or (read_state(args.state_file) or {}).get("api_url")
    if not api_url:
        print(
            f"no running stack: start it with `python -m local_stack serve` (it writes {args.state_file})"
            " or pass --api-url URL",
            file=sys.stderr,
        )
        return 2
    return clock_command(str(api_url), args.change, out=sys.stdout, err=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "serve":
        return serve(args)
    if args.command == "clock":
        return clock(args)
    if args.command == "sam-env":
        from local_stack import sam_env

        try:
            written = sam_env.write(
                args.state_file, args.out, args.template, container_host=args.container_host
            )
        except sam_env.NoRunningStack as exc:
            print(exc, file=sys.stderr)
            return 2
        print(f"wrote {args.out}: {', '.join(written)}")
        return 0
    from local_stack.invoke import invoke

    return invoke(
        args.logical_id,
        args.event,
        aws_endpoint=args.aws_endpoint,
        template_path=args.template,
        state_file=args.state_file,
        parameter_overrides=_parameters(args.parameter_overrides),
    )


if __name__ == "__main__":
    sys.exit(main())
