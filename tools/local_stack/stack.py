"""``python -m local_stack serve``: the whole stack of ``template.yaml`` in one process.

moto server (the "twin" of DynamoDB, S3, SNS, SQS, SES) on one port, the API Gateway emulation on another,
the scheduled functions on their rates, the table's stream fed to its consumer as an event source mapping
would, and taps printing each notification as it would be delivered: to the topic, to devices and, for
mail, to a local mailbox (``[mail]`` lines and ``GET /_local/mail``).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import secrets
import socket
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from app.core.clock import LOCAL_CLOCK_FILE
from dixit.cards import OFFICIAL_DECKS
from local_stack import DEFAULT_STATE_FILE, LOCAL_NAMES, REGION, REPO_ROOT
from local_stack.card_seeding import seed_card_art
from local_stack.clock import CLOCK_PATH, StackClock, clock_app
from local_stack.environments import ExecutionEnvironments
from local_stack.events import ACCOUNT_ID
from local_stack.gateway import Gateway
from local_stack.live import LIVE_PATH, LiveServer, websocket_function
from local_stack.mail import LOCAL_EMAIL_FROM, MAILBOX_PATH, Mailbox, MailTap
from local_stack.push import PUSH_PATH, PushReceiver, generate_vapid_key
from local_stack.queues import QueuePoller, queue_pollers, report_label
from local_stack.resources import create_resources, local_names
from local_stack.responses import HttpResponse
from local_stack.runtime import HandlerResolver, lazy_handler
from local_stack.schedules import ScheduledFunction, ScheduleRunner, interval_for
from local_stack.server import GatewayServer
from local_stack.stack_env import PLATFORM_APPLICATIONS, configure_aws_environment, stack_environment
from local_stack.static import StaticSite
from local_stack.streams import StreamFeeder, StreamMapping
from local_stack.tap import EndpointTap, TopicTap
from local_stack.template import (
    TEMPLATE_PATH,
    api_cors_headers,
    api_routes,
    apply_language_extensions,
    functions,
    load_template,
    parameter_values,
)
from local_stack.uploads import UploadTrigger, s3_triggers

LOG = logging.getLogger("local_stack")


@dataclass
class ServeOptions:
    port: int = 3000
    aws_port: int = 0
    host: str = "127.0.0.1"
    template_path: Path = TEMPLATE_PATH
    state_file: Path | None = DEFAULT_STATE_FILE
    schedule_seconds: float | None = None
    seed: bool = True
    # None: every official deck. Tests seed only what they play with, so a cold art cache stays cheap.
    seed_decks: tuple[str, ...] | None = None
    parameter_overrides: dict[str, str] = field(default_factory=dict)
    names: Mapping[str, str] = field(default_factory=lambda: dict(LOCAL_NAMES))
    #: A web client to serve on paths no route claims, when the directory exists.
    web_root: Path | None = REPO_ROOT / "web"
    #: Worker processes running the API handler (Lambda execution environments); 1 runs it in-process.
    workers: int = 1
    #: The live channel's WebSocket port; 0: the gateway's port + 1 (a free one when that is 0 too).
    live_port: int = 0


def check_port_free(host: str, port: int) -> None:
    """Fail fast (moto's server thread would hang on a taken port instead of raising)."""
    if port == 0:
        return
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        # As the servers themselves do: a port whose last connections sit in TIME_WAIT is free to serve
        # again, so restarting at once works.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise OSError(f"port {port} on {host} is not free: {exc.strerror}") from exc


def moto_put(bucket: str, key: str, body: bytes, content_type: str) -> None:
    """Write an object straight into the in-process moto backend: 10x faster than HTTP for 924 images.

    Relies on moto internals; ``seed_card_art`` checks the result and falls back to ``put_object``.
    """
    from moto.s3.models import s3_backends

    stored = s3_backends[ACCOUNT_ID]["aws"].put_object(bucket, key, body)
    stored.set_metadata({"Content-Type": content_type})


def create_platform_applications(
    sns_client: Any, template: Mapping[str, Any], overrides: Mapping[str, str]
) -> dict[str, str]:
    """Platform applications in the twin for each push parameter the template has and no one overrode.

    moto accepts any credentials and keeps what is pushed on each endpoint, so device routes work locally.
    """
    declared = template.get("Parameters") or {}
    arns = {}
    for parameter, (platform, name) in PLATFORM_APPLICATIONS.items():
        if parameter in declared and parameter not in overrides:
            arns[parameter] = sns_client.create_platform_application(
                Name=name,
                Platform=platform,
                Attributes={"PlatformCredential": "local-only", "PlatformPrincipal": "local-only"},
            )["PlatformApplicationArn"]
    return arns


def moto_platform_endpoints() -> list[tuple[str, str, list[str]]]:
    """Each platform endpoint in the twin: its ARN, its owner (CustomUserData) and what was pushed to it."""
    from moto.sns.models import sns_backends

    backend = sns_backends[ACCOUNT_ID][REGION]
    return [
        (
            arn,
            str(endpoint.attributes.get("CustomUserData") or endpoint.custom_user_data or ""),
            list(endpoint.messages.values()),
        )
        for arn, endpoint in list(backend.platform_endpoints.items())
    ]


def local_email_from(template: Mapping[str, Any], overrides: Mapping[str, str]) -> dict[str, str]:
    """The EmailFrom parameter locally: the local sender unless given (``EmailFrom=`` turns mail off)."""
    if "EmailFrom" in (template.get("Parameters") or {}) and "EmailFrom" not in overrides:
        return {"EmailFrom": LOCAL_EMAIL_FROM}
    return {}


def local_web_base_url(
    template: Mapping[str, Any], overrides: Mapping[str, str], host: str, port: int
) -> dict[str, str]:
    """The WebBaseUrl parameter locally: the stack's own address (it serves web/), unless given."""
    if "WebBaseUrl" in (template.get("Parameters") or {}) and "WebBaseUrl" not in overrides:
        return {"WebBaseUrl": f"http://{host}:{port}"}
    return {}


def local_notification_mail(
    template: Mapping[str, Any], overrides: Mapping[str, str], host: str, port: int
) -> dict[str, str]:
    """UnsubscribeSecret and PublicApiUrl locally, unless given: a secret of this run (unsubscribe links
    signed now work until the stack stops), and the stack's own address (it serves the API)."""
    declared = template.get("Parameters") or {}
    found = {}
    if "UnsubscribeSecret" in declared and "UnsubscribeSecret" not in overrides:
        found["UnsubscribeSecret"] = secrets.token_urlsafe(32)
    if "PublicApiUrl" in declared and "PublicApiUrl" not in overrides:
        found["PublicApiUrl"] = f"http://{host}:{port}"
    return found


#: Where the local stack keeps the VAPID key it makes at each start (a SecureString on the twin's SSM).
LOCAL_VAPID_PARAMETER = "/dixit/local/web-push-vapid"


def local_web_push_key(
    ssm_client: Any, template: Mapping[str, Any], overrides: Mapping[str, str]
) -> dict[str, str]:
    """The WebPushVapidParameter locally: a fresh VAPID key pair in the twin's SSM, unless given."""
    if (
        "WebPushVapidParameter" not in (template.get("Parameters") or {})
        or "WebPushVapidParameter" in overrides
    ):
        return {}
    ssm_client.put_parameter(
        Name=LOCAL_VAPID_PARAMETER, Type="SecureString", Value=generate_vapid_key(), Overwrite=True
    )
    return {"WebPushVapidParameter": LOCAL_VAPID_PARAMETER}


CARD_ART_PATH = "/_local/card-art/"
_OFFICIAL_ART_KEY = re.compile(r"^cards/([a-z0-9_]+)/\1-[0-9]{3}\.webp$")


def local_card_image_base_url(
    template: Mapping[str, Any], overrides: Mapping[str, str], host: str, port: int
) -> dict[str, str]:
    """The CardImageBaseUrl parameter locally: official art through the gateway, unless given, so no
    link a browser sees names the twin's port (the twin holds every secret; app.decks.card_images)."""
    if "CardImageBaseUrl" in (template.get("Parameters") or {}) and "CardImageBaseUrl" not in overrides:
        return {"CardImageBaseUrl": f"http://{host}:{port}{CARD_ART_PATH.rstrip('/')}"}
    return {}


def card_art_server(s3_client: Any, bucket: str) -> Callable[[str], HttpResponse]:
    """GET /_local/card-art/cards/<deck>/<card>.webp: an official card's art, read from the twin's
    bucket (what a CDN in front of the bucket does on AWS). Nothing else in the bucket is served."""

    def serve(key: str) -> HttpResponse:
        matched = _OFFICIAL_ART_KEY.fullmatch(key)
        if matched is None or matched.group(1) not in OFFICIAL_DECKS:
            return HttpResponse(404, [("Content-Type", "text/plain")], b"no such card art")
        try:
            found = s3_client.get_object(Bucket=bucket, Key=key)
        except Exception:  # missing (not seeded yet) or the twin stopping: a 404 either way
            return HttpResponse(404, [("Content-Type", "text/plain")], b"no such card art")
        headers = [("Content-Type", "image/webp"), ("Cache-Control", "public, max-age=86400")]
        return HttpResponse(200, headers, found["Body"].read())

    return serve


def free_port(host: str) -> int:
    """A port nobody listens on now (the gateway's, when none was asked for: the mails must name it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def _next_port_or_free(host: str, port: int) -> int:
    """The port after the gateway's (3001 for `make run`), or any free one when that is taken."""
    if port:
        try:
            check_port_free(host, port + 1)
        except OSError:
            return free_port(host)
        return port + 1
    return free_port(host)


class LocalStack:
    """Start and stop every piece of the local stack, in order."""

    def __init__(self, options: ServeOptions, *, out: TextIO | None = None) -> None:
        self.options = options
        self.out = out
        self.moto: Any = None
        self.http: GatewayServer | None = None
        self.schedules: ScheduleRunner | None = None
        self.tap: TopicTap | None = None
        self.uploads: list[UploadTrigger] = []
        self.push_tap: EndpointTap | None = None
        self.mailbox = Mailbox()
        self.push_receiver = PushReceiver(report=lambda line: self._say(f"[web-push] {line}"))
        self.mail_tap: MailTap | None = None
        self.streams: StreamFeeder | None = None
        self.parameters: dict[str, str] = {}
        self.queue_pollers: list[QueuePoller] = []
        self.environments: ExecutionEnvironments | None = None
        self.aws_endpoint_url = ""
        self.port = 0  # the gateway's (the options' port, or a free one when that is 0)
        self.resources: dict[str, str] = {}
        self.environment: dict[str, str] = {}
        self.clock: StackClock | None = None
        self.live: LiveServer | None = None
        self._seed_stop = threading.Event()
        self._seed_thread: threading.Thread | None = None

    @property
    def api_url(self) -> str:
        return self.http.url if self.http else ""

    def _say(self, line: str) -> None:
        print(line, file=self.out, flush=True)

    def start(self) -> LocalStack:
        from local_stack.twin import TwinServer, patch_dynamodb  # heavy: only when serving

        options = self.options
        template = apply_language_extensions(
            load_template(options.template_path), options.parameter_overrides
        )
        specs = functions(template, options.parameter_overrides)
        check_port_free(options.host, options.port)
        self.port = options.port or free_port(options.host)
        check_port_free(options.host, options.aws_port)

        logging.getLogger("werkzeug").setLevel(logging.WARNING)
        patch_dynamodb()
        self.moto = TwinServer(
            ip_address=options.host, port=options.aws_port, verbose=False, mailbox=self.mailbox
        )
        self.moto.start()
        host, port = self.moto.get_host_and_port()
        self.aws_endpoint_url = f"http://{host}:{port}"
        configure_aws_environment(self.aws_endpoint_url, region=REGION)

        import boto3
        from botocore.config import Config

        dynamodb = boto3.client("dynamodb")
        s3 = boto3.client("s3", config=Config(s3={"addressing_style": "path"}))
        sns = boto3.client("sns")
        sqs = boto3.client("sqs")
        sesv2 = boto3.client("sesv2")
        self.resources = create_resources(
            template,
            dynamodb_client=dynamodb,
            s3_client=s3,
            sns_client=sns,
            names=local_names(template, options.names),
            region=REGION,
            sqs_client=sqs,
            sesv2_client=sesv2,
        )
        platforms = create_platform_applications(sns, template, options.parameter_overrides)
        self.parameters = {
            **platforms,
            **local_email_from(template, options.parameter_overrides),
            **local_web_base_url(template, options.parameter_overrides, options.host, self.port),
            **local_notification_mail(template, options.parameter_overrides, options.host, self.port),
            **local_web_push_key(boto3.client("ssm"), template, options.parameter_overrides),
            **(
                local_card_image_base_url(template, options.parameter_overrides, options.host, self.port)
                if "CardBucket" in self.resources
                else {}
            ),
            **options.parameter_overrides,
        }
        if self.parameters.get("EmailFrom"):
            # SES sends only from a verified identity; on the twin, creating one verifies it.
            sesv2.create_email_identity(EmailIdentity=self.parameters["EmailFrom"])
        self.clock = StackClock(on_move=self._clock_moved)
        live_function = websocket_function(template)
        live_port = 0
        if live_function in specs:
            live_port = options.live_port or _next_port_or_free(options.host, options.port)
            check_port_free(options.host, live_port)
        # The one builder `invoke` uses too, fed from the state file this stack writes.
        self.environment = stack_environment(
            template,
            specs,
            resources=self.resources,
            parameters=self.parameters,
            region=REGION,
            aws_endpoint_url=self.aws_endpoint_url,
            api_url=f"http://{options.host}:{self.port}",
            clock_file=str(self.clock.path),
            live_url=f"ws://{options.host}:{live_port}" if live_port else "",
            live_endpoint_url=f"http://{options.host}:{self.port}{LIVE_PATH}" if live_port else "",
        ).apply()

        if "NudgeTopic" in self.resources:
            self.tap = TopicTap(
                sns,
                sqs,
                self.resources["NudgeTopic"],
                f"{options.names.get('NudgeTopic', 'topic')}-tap",
                report=lambda line: self._say(f"[sns] {line}"),
            ).start()
        self.mail_tap = MailTap(self.mailbox, report=lambda line: self._say(f"[mail] {line}")).start()
        if platforms:
            self.push_tap = EndpointTap(
                moto_platform_endpoints, report=lambda line: self._say(f"[push] {line}")
            ).start()

        if options.seed and "CardBucket" in self.resources:
            self._seed_thread = threading.Thread(
                target=self._seed,
                args=(s3, self.resources["CardBucket"]),
                name="seed",
                daemon=True,
            )
            self._seed_thread.start()

        code_dirs = {(options.template_path.parent / spec.code_uri).resolve() for spec in specs.values()}
        handlers: dict[str, HandlerResolver] = {
            logical_id: lazy_handler(spec.handler, sorted(code_dirs)) for logical_id, spec in specs.items()
        }
        if options.workers > 1:
            self.environments = ExecutionEnvironments(
                options.workers,
                {logical_id: spec.handler for logical_id, spec in specs.items()},
                sorted(code_dirs),
            )
        # The template's S3 notifications (custom card uploads run CardIngestFunction), as S3 would.
        self.uploads = [
            UploadTrigger(
                s3,
                sqs,
                self.resources[trigger.bucket_resource],
                trigger,
                handlers[trigger.function],
                region=REGION,
            ).start()
            for trigger in s3_triggers(template)
            if trigger.bucket_resource in self.resources and trigger.function in handlers
        ]
        stage = parameter_values(template, options.parameter_overrides).get("Stage", "dev")
        if live_function is not None and live_function in specs:
            self.live = LiveServer(
                specs[live_function],
                handlers[live_function],
                host=options.host,
                port=live_port,
                stage=stage,
                region=REGION,
                report=lambda line: self._say(f"[live] {line}"),
            ).start()
        gateway = Gateway(
            api_routes(template),
            handlers,
            functions=specs,
            stage=stage,
            cors_headers=api_cors_headers(template),
            region=REGION,
            static=StaticSite(options.web_root) if options.web_root and options.web_root.is_dir() else None,
            environments=self.environments,
            local_routes={
                MAILBOX_PATH: self.mailbox.as_json,
                **(
                    {CARD_ART_PATH: card_art_server(s3, self.resources["CardBucket"])}
                    if "CardBucket" in self.resources
                    else {}
                ),
            },
            local_apps={
                PUSH_PATH: self.push_receiver.handle,
                CLOCK_PATH: clock_app(self.clock),
                **({LIVE_PATH: self.live.handle} if self.live is not None else {}),
            },
        )
        self.http = GatewayServer(gateway, options.host, self.port).start()
        self.push_receiver.base_url = self.api_url

        mappings = [
            StreamMapping(spec, stream, self.resources[stream.table], handlers[logical_id])
            for logical_id, spec in specs.items()
            for stream in spec.streams
            if stream.table in self.resources
        ]
        if mappings:
            self.streams = StreamFeeder(
                mappings,
                dynamodb_client=dynamodb,
                streams_client=boto3.client("dynamodbstreams"),
                region=REGION,
                report=lambda line: self._say(f"[stream] {line}"),
            ).start()

        jobs = [
            ScheduledFunction(
                spec, schedule, handlers[logical_id], interval_for(schedule, options.schedule_seconds)
            )
            for logical_id, spec in specs.items()
            for schedule in spec.schedules
            if schedule.enabled
        ]
        self.schedules = ScheduleRunner(jobs, region=REGION, clock=self.clock.now).start()
        # Every SQS event of the template (webhook deliveries, and any queue added since), as Lambda's
        # event source mappings run them.
        self.queue_pollers = queue_pollers(sqs, specs, self.resources, handlers, region=REGION, say=self._say)
        for poller in self.queue_pollers:
            poller.start()
        self._write_state()
        self._banner(jobs, mappings)
        return self

    def _clock_moved(self) -> None:
        if self.clock is not None:
            moved = self.clock.as_json()
            self._say(f"[clock] now {moved['now']} ({moved['offset_seconds']:g} s ahead of the wall clock)")

    def _seed(self, s3_client: Any, bucket: str) -> None:
        started = time.perf_counter()
        try:
            decks = self.options.seed_decks
            ids = None if decks is None else [c for d in decks for c in OFFICIAL_DECKS[d].card_ids()]
            count = seed_card_art(s3_client, bucket, ids, stop=self._seed_stop, fast_put=moto_put)
        except Exception as exc:
            if not self._seed_stop.is_set():
                LOG.warning("seeding card art failed: %s", exc)
            return
        LOG.info(
            "seeded %d generated card images into s3://%s/cards/ in %.1f s",
            count,
            bucket,
            time.perf_counter() - started,
        )

    def _write_state(self) -> None:
        if self.options.state_file is None:
            return
        state = {
            "pid": os.getpid(),
            "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "api_url": self.api_url,
            "aws_endpoint_url": self.aws_endpoint_url,
            "region": REGION,
            "resources": self.resources,
            "environment": self.environment,
            # What `invoke` resolves the template with, so an invoked function mails as served ones do.
            "parameters": self.parameters,
            # Where the stack's clock is kept, so an invoked function runs on it too.
            "clock_file": str(self.clock.path) if self.clock else "",
        }
        # Whole or not at all: `invoke` and the tests may read it the moment it appears.
        partial = self.options.state_file.with_name(self.options.state_file.name + ".partial")
        partial.write_text(json.dumps(state, indent=2) + "\n", encoding="utf-8")
        os.replace(partial, self.options.state_file)

    def _serving(self) -> str:
        workers = self.options.workers
        if workers > 1:
            return f"{workers} execution environments (worker processes), requests served side by side"
        return "in-process, one request at a time (--workers N for N side by side)"

    def _banner(self, jobs: list[ScheduledFunction], mappings: list[StreamMapping]) -> None:
        lines = [
            "",
            "Dixit by mail: local stack",
            f"  web client     {self.api_url}/  (open it in a browser to play)",
            f"  Swagger UI     {self.api_url}/docs  (every route, to try by hand)",
            f"  API            {self.api_url}  (try {self.api_url}/decks)",
            f"  API handler    {self._serving()}",
            *(
                [f"  live channel   {self.live.url}  (WebSocket; a ticket from POST /live/tickets opens it)"]
                if self.live is not None
                else []
            ),
            f"  AWS twin       {self.aws_endpoint_url}  (moto: DynamoDB, S3, SNS, SQS, SES)",
            f"                 AWS_ENDPOINT_URL={self.aws_endpoint_url} aws dynamodb list-tables",
        ]
        lines += [f"  {name:<14} {value}" for name, value in self.resources.items()]
        lines += [
            f"  schedule       {job.function.logical_id}.{job.schedule.name}: "
            f"{job.schedule.expression}, here every {job.interval_seconds:g} s"
            for job in jobs
        ]
        lines += [
            f"  stream         {m.table_name} -> {m.function.logical_id}.{m.stream.name} "
            f"(batches of {m.stream.batch_size}, {m.stream.maximum_retry_attempts} retries)"
            for m in mappings
        ]
        lines += [
            f"  queue          {poller.queue_url.rsplit('/', 1)[-1]} -> {poller.function} "
            f"(batches of {poller.batch_size}, printed as [{report_label(poller.function)}] lines)"
            for poller in self.queue_pollers
        ]
        lines += [
            f"  {name:<14} {value}"
            for name, value in self.parameters.items()
            if name in PLATFORM_APPLICATIONS
        ]
        lines.append("  notifications  printed as [sns] (topic) and [push] (devices) lines")
        sender = self.parameters.get("EmailFrom")
        lines.append(
            f"  mail           from {sender}, printed as [mail] lines; the latest at "
            f"{self.api_url}{MAILBOX_PATH}"
            if sender
            else "  mail           off (EmailFrom is empty): routes that send mail answer 501"
        )
        if self.parameters.get("WebPushVapidParameter"):
            lines.append(
                f"  web push       VAPID key in SSM {self.parameters['WebPushVapidParameter']}; "
                f"the local push service decrypts to {self.api_url}{PUSH_PATH}"
            )
        lines.append(
            f'  clock          {self.api_url}{CLOCK_PATH}  (POST {{"advance": "PT2H"}} or '
            "`python -m local_stack clock +2h` moves it; schedules follow)"
        )
        if self.options.state_file is not None:
            lines.append(f"  state file     {self.options.state_file}  (for `python -m local_stack invoke`)")
        lines += [
            "",
            "  State lives in memory and is lost on exit. Ctrl-C stops everything.",
            "",
        ]
        self._say("\n".join(lines))

    def stop(self) -> None:
        """Stop in reverse order; safe to call more than once and after a partial start."""
        self._seed_stop.set()
        if self.schedules is not None:
            self.schedules.stop()
            self.schedules = None
        if self.streams is not None:
            self.streams.stop()
            self.streams = None
        for poller in self.queue_pollers:
            poller.stop()
        self.queue_pollers = []
        if self.live is not None:
            self.live.stop()
            self.live = None
        if self.http is not None:
            self.http.stop()
            self.http = None
        if self.environments is not None:
            self.environments.close()
            self.environments = None
        if self.tap is not None:
            self.tap.stop()
            self.tap = None
        for trigger in self.uploads:
            trigger.stop()
        self.uploads = []
        if self.push_tap is not None:
            self.push_tap.stop()
            self.push_tap = None
        if self.mail_tap is not None:
            self.mail_tap.stop()
            self.mail_tap = None
        if self._seed_thread is not None:
            self._seed_thread.join(5.0)
            self._seed_thread = None
        if self.moto is not None:
            self.moto.stop()
            self.moto = None
        if self.clock is not None:
            self.clock.close()
            if os.environ.get(LOCAL_CLOCK_FILE) == str(self.clock.path):
                del os.environ[LOCAL_CLOCK_FILE]
            self.clock = None
        state_file = self.options.state_file
        if state_file is not None and state_file.exists():
            state: Any = None
            with contextlib.suppress(OSError, ValueError):
                state = json.loads(state_file.read_text(encoding="utf-8"))
            if isinstance(state, dict) and state.get("pid") == os.getpid():
                state_file.unlink(missing_ok=True)
