"""The fault drill (issue 15, item 7): kill the workers at chosen moments of settlement and payout,
restart them, let the product finish by itself, and compare everything with a clean run.

The harness starts the product's processes as production does: worker nodes
(`celery -A config worker`) and beat (`celery -A config beat`, the database schedule), each in a
process group of its own. Per trial it builds a fresh draw with the same lines, players and result
(`lottery.drill.world`), confirms its result (the settlement is sent to the workers), approves the
settled run for payout (the payment is sent), and kills every worker node with SIGKILL of its process
group at a moment chosen by phase:

- counting: the harness holds a SHARE lock on the chunk table, so the worker stops where it stores
  the chunk plan (after counting has begun);
- writing k: the harness locks the chunks from the k-th on (FOR UPDATE SKIP LOCKED), so the worker
  stops having written k chunks;
- checking: a ROW EXCLUSIVE lock on the run's winners partition stops the index builds that run
  beside the check;
- finishing: a FOR NO KEY UPDATE lock on the draw row stops the transaction that settles the run;
- paying k: once k payouts are paid (polled every few milliseconds).

For a lock the harness waits until a worker's session waits on it, kills the workers, releases the
lock and restarts them. Nothing is finished by hand: the product's own recovery (claims with a stale
heartbeat, the settlement watchdog of beat) must complete the run; a trial that does not finish in
`timeout` seconds counts as not identical and says what was left.

Child processes get short thresholds so a trial takes seconds: LOTTERY_SETTLEMENT_STALE_SECONDS
(`stale`, default 3), LOTTERY_SETTLEMENT_CHUNK_LINES (about eight chunks), JOBS_HEARTBEAT_SECONDS=1,
JOBS_STALE_SECONDS and JOBS_RESEND_SECONDS (`stale`; read once the durable jobs exist), and every periodic task
that runs each minute is retimed in the drill's database to run every `beat_every` seconds (as staff
could retime it in the admin).

`--broker-outage`: the drill runs on a private redis-server the harness starts (append-only file,
fsync always), and in each trial stops it for a few seconds while the settlement runs, while the
payment runs, and while a compliance report is requested through the staff page; it counts answers
of 500 and reports that were lost.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from celery import current_app as app
from django.conf import settings
from django.db import connection

from compliance import roles
from compliance.models import Report
from lottery.models import Draw, DrawState, Payout, RunState, SettlementRun

from .fingerprint import differences, double_and_missing, fingerprint
from .world import WorldSpec, approve, build_world, confirm, drill_base, four_eyes_staff

ROOT = Path(__file__).resolve().parents[2]
SETTLEMENT_PHASES = ("counting", "writing", "checking", "finishing")


class DrillRefused(Exception):
    """The drill cannot run here (no PostgreSQL, no broker, unfinished draws): exit status 2."""


@dataclass
class Options:
    trials: int = 3
    lines: int = 20_000
    seed: int = 1
    timeout: float = 60.0
    part: str = "both"  # settlement, payout or both: where the kills land
    workers: int = 2
    stale: int = 3
    beat_every: int = 2
    broker_outage: bool = False
    players: int = 16
    capped: int = 6
    lines_per_player: int = 32


@dataclass
class Trial:
    index: int
    kills: list[str] = field(default_factory=list)
    identical: bool = False
    double: int = 0
    missing: int = 0
    left: str = ""
    diff: list[str] = field(default_factory=list)
    times: dict[str, float] = field(default_factory=dict)
    http_500: int = 0
    reports_lost: int = 0


def _database_url() -> str:
    db = settings.DATABASES["default"]
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db.get('USER') or ''}{password}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivateRedis:
    """A redis-server of the drill's own, on a free port, durable (append-only, fsync always)."""

    def __init__(self, workdir: Path):
        if shutil.which("redis-server") is None:
            raise DrillRefused("--broker-outage starts a private redis-server, and none is installed")
        self.port = _free_port()
        self.dir = workdir / "redis"
        self.dir.mkdir()
        self.proc: subprocess.Popen | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--dir", str(self.dir), "--save", "",
             "--appendonly", "yes", "--appendfsync", "always"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise DrillRefused(f"the private redis-server did not start on port {self.port}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()  # an outage, not a shutdown
            self.proc.wait()
        self.proc = None


class Processes:
    """Worker nodes and beat, each in its own process group, logs in the drill's directory."""

    def __init__(self, opts: Options, env: dict[str, str], workdir: Path):
        self.opts, self.env, self.workdir = opts, env, workdir
        self.workers: list[subprocess.Popen] = []
        self.beat: subprocess.Popen | None = None
        self.generation = 0

    def _spawn(self, args: list[str], log: str) -> subprocess.Popen:
        out = open(self.workdir / log, "ab")  # noqa: SIM115 - closed with the process
        return subprocess.Popen([sys.executable, "-m", "celery", "-A", "config", *args], cwd=ROOT, env=self.env,
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)

    def start_workers(self) -> None:
        self.generation += 1
        self.workers = [
            self._spawn(["worker", "--loglevel=WARNING", "--concurrency=1", "--without-gossip", "--without-mingle",
                         "-n", f"drill{i}@%h"], f"worker{i}.log")
            for i in range(self.opts.workers)
        ]

    def kill_workers(self) -> None:
        for proc in self.workers:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for proc in self.workers:
            proc.wait()
        self.workers = []

    def start_beat(self) -> None:
        self.beat = self._spawn(["beat", "--loglevel=WARNING", "--pidfile=", "-s", str(self.workdir / "beat-schedule")],
                                "beat.log")

    def stop(self) -> None:
        for proc in [*self.workers, *([self.beat] if self.beat else [])]:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        self.workers, self.beat = [], None


class Locker:
    """A database session of the harness's own that holds a lock until released."""

    def __init__(self):
        import psycopg

        db = settings.DATABASES["default"]
        self.conn = psycopg.connect(host=db.get("HOST") or "127.0.0.1", port=db.get("PORT") or 5432,
                                    user=db.get("USER") or None, password=db.get("PASSWORD") or None,
                                    dbname=db["NAME"], autocommit=False)
        self.pid = self.conn.info.backend_pid

    def hold(self, sql: str, params=()) -> int:
        cur = self.conn.execute(sql, params)
        return cur.rowcount

    def release(self) -> None:
        self.conn.rollback()

    def someone_waits(self) -> bool:
        """A session other than ours waits for a lock ours holds."""
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                           " AND %s = ANY(pg_blocking_pids(pid))", [self.pid])
            return cursor.fetchone()[0] > 0

    def close(self) -> None:
        self.conn.close()


def _wait(condition, timeout: float, step: float = 0.02):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(step)
    return None


def _retime_beat(every: int) -> list[str]:
    """Every periodic task that runs each minute runs every `every` seconds in this database."""
    from django_celery_beat.models import IntervalSchedule, PeriodicTask

    interval, _ = IntervalSchedule.objects.get_or_create(every=every, period=IntervalSchedule.SECONDS)
    for task in PeriodicTask.objects.filter(enabled=True, crontab__minute="*", crontab__hour="*"):
        task.crontab = None
        task.interval = interval
        task.save()
    return sorted(PeriodicTask.objects.filter(enabled=True, interval=interval).values_list("name", flat=True))


class Drill:
    def __init__(self, opts: Options, out):
        self.opts, self.out = opts, out
        self.rng = random.Random(opts.seed)
        self.workdir = Path(tempfile.mkdtemp(prefix="fault-drill-"))
        self.redis: PrivateRedis | None = None
        self.procs: Processes | None = None
        self.spec = WorldSpec(lines=opts.lines, players=opts.players, capped=opts.capped,
                              lines_per_player=opts.lines_per_player, wagers_per_player=4, seed=opts.seed)
        self.chunk_lines = max(500, opts.lines // 8)

    def say(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()

    # -- set-up ------------------------------------------------------------------------------------

    def preflight(self) -> None:
        if connection.vendor != "postgresql":
            raise DrillRefused("fault_drill needs PostgreSQL (set DATABASE_URL to a database of its own)")
        if not self.opts.broker_outage:
            if not settings.CELERY_BROKER_URL:
                raise DrillRefused("fault_drill needs a real broker: set CELERY_BROKER_URL (Redis or RabbitMQ)")
            self._broker_ping(settings.CELERY_BROKER_URL)
        open_draws = Draw.objects.filter(game__code="lotto").exclude(
            state__in=[DrawState.SETTLED, DrawState.APPROVED, DrawState.PAID, DrawState.CANCELLED])
        if open_draws.exists():
            raise DrillRefused(f"this database has unfinished Lotto draws ({', '.join(map(str, open_draws[:3]))}); "
                               "run the drill on a database of its own")

    def _broker_ping(self, url: str) -> None:
        from kombu import Connection

        try:
            with Connection(url, connect_timeout=3) as conn:
                conn.ensure_connection(max_retries=1)
        except Exception as exc:  # noqa: BLE001 - any failure to connect refuses the drill
            raise DrillRefused(f"the broker {url} does not answer: {exc}") from None

    def start(self) -> None:
        broker = settings.CELERY_BROKER_URL
        if self.opts.broker_outage:
            self.redis = PrivateRedis(self.workdir)
            self.redis.start()
            broker = self.redis.url
            app.conf.broker_url = broker  # this process sends to the private broker too
            app.conf.result_backend = broker
            app.conf.task_always_eager = False
            app.conf.broker_connection_retry = True
        env = {**os.environ, "DATABASE_URL": _database_url(), "CELERY_BROKER_URL": broker,
               "LOTTERY_SETTLEMENT_STALE_SECONDS": str(self.opts.stale),
               "LOTTERY_SETTLEMENT_CHUNK_LINES": str(self.chunk_lines),
               # The durable jobs' thresholds (issue 15, another branch; ignored by a product without them).
               "JOBS_HEARTBEAT_SECONDS": "1", "JOBS_STALE_SECONDS": str(self.opts.stale),
               "JOBS_RESEND_SECONDS": str(self.opts.stale)}
        if self.opts.broker_outage:
            env["CELERY_RESULT_BACKEND"] = broker
        retimed = _retime_beat(self.opts.beat_every)
        self.say(f"drill directory {self.workdir}; broker {broker}; {self.opts.workers} worker node(s); "
                 f"stale after {self.opts.stale} s; chunks of {self.chunk_lines} lines; every {self.opts.beat_every} s: "
                 f"{', '.join(retimed) or 'no periodic task'}\n")
        self.procs = Processes(self.opts, env, self.workdir)
        self.procs.start_beat()
        self.procs.start_workers()

    def stop(self) -> None:
        if self.procs is not None:
            self.procs.stop()
        if self.redis is not None:
            self.redis.stop()

    # -- one draw ----------------------------------------------------------------------------------

    def _wait_settled(self, run_id: int, timeout: float):
        return _wait(lambda: SettlementRun.objects.filter(pk=run_id, state__in=[RunState.SETTLED, RunState.HALTED])
                     .values_list("state", flat=True).first(), timeout, 0.05)

    def _wait_paid(self, draw_id: int, timeout: float):
        return _wait(lambda: Draw.objects.filter(pk=draw_id, state=DrawState.PAID).exists(), timeout, 0.05)

    def _kill_on_lock(self, trial: Trial, run_id: int, phase: str, k: int) -> None:
        """Hold the lock of `phase`, wait until a worker waits on it, kill the workers, release, restart."""
        locker = self._locker
        run = SettlementRun.objects.get(pk=run_id)
        if phase == "writing":
            if not _wait(lambda: run.chunks.exists(), self.opts.timeout, 0.002):
                trial.kills.append("writing: no chunks appeared")
                return
            locker.hold("SELECT id FROM lottery_settlementchunk WHERE run_id = %s AND done_at IS NULL AND lo >="
                        " (SELECT lo FROM lottery_settlementchunk WHERE run_id = %s ORDER BY lo OFFSET %s LIMIT 1)"
                        " FOR UPDATE SKIP LOCKED", [run_id, run_id, k])
        elif phase == "checking":
            name = f"lottery_winning_r{int(run_id)}"

            def partition():
                with connection.cursor() as cursor:
                    cursor.execute("SELECT to_regclass(%s) IS NOT NULL", [name])
                    return cursor.fetchone()[0]

            if not _wait(partition, self.opts.timeout, 0.002):
                trial.kills.append("checking: no winners partition appeared")
                return
            locker.hold(f"LOCK TABLE {name} IN ROW EXCLUSIVE MODE")
        elif phase == "finishing":
            # NO KEY UPDATE: the settling transaction's FOR UPDATE waits, inserts that only reference the draw do not.
            locker.hold("SELECT id FROM lottery_draw WHERE id = %s FOR NO KEY UPDATE", [run.draw_id])
        waited = _wait(locker.someone_waits, min(self.opts.timeout, 20), 0.01)
        run.refresh_from_db()
        where = f"{run.state}, phase {run.phase or 'none'}, {run.chunks_done}/{run.chunks_total} chunks"
        self.procs.kill_workers()
        locker.release()
        self.procs.start_workers()
        target = f"{phase} {k}" if phase == "writing" else phase
        trial.kills.append(f"{target} ({'at the lock' if waited else 'lock not reached'}: {where})"
                           + ("" if run.state == RunState.RUNNING or not waited else " [run not running]"))

    def _kill_paying(self, trial: Trial, draw_id: int, k: int) -> None:
        paid = Payout.objects.filter(draw_id=draw_id, state=Payout.State.PAID)
        reached = _wait(lambda: paid.count() >= k, self.opts.timeout, 0.003)
        self.procs.kill_workers()
        n = paid.count()
        self.procs.start_workers()
        trial.kills.append(f"paying {k} ({n} paid at the kill)" if reached else f"paying {k} (not reached; {n} paid)")

    def run_draw(self, index: int, staff, base, baseline: dict | None, plan: dict) -> tuple[Trial, dict]:
        trial = Trial(index=index)
        t0 = time.monotonic()
        world = build_world(self.spec, index=index, staff=staff, base=base)
        trial.times["build_s"] = time.monotonic() - t0
        phase = plan.get("settlement")
        if phase == "counting":
            self._locker.hold("LOCK TABLE lottery_settlementchunk IN SHARE MODE")
        t1 = time.monotonic()
        run = confirm(world, staff)
        self.last_run_id = run.pk
        if phase:
            self._kill_on_lock(trial, run.pk, phase, plan.get("chunk", 0))
        if plan.get("outage") == "settlement":
            self._outage(trial, "settlement", lambda: self._report_during_outage(trial, world))
        state = self._wait_settled(run.pk, self.opts.timeout)
        trial.times["settle_s"] = time.monotonic() - t1
        if state != "settled":
            run.refresh_from_db()
            trial.left = (f"settlement {run.state} (phase {run.phase or 'none'}, {run.chunks_done}/{run.chunks_total}"
                          f" chunks) after {self.opts.timeout:.0f} s")
        else:
            t2 = time.monotonic()
            approve(world, staff)
            if plan.get("paying"):
                self._kill_paying(trial, world.draw.pk, plan["paying"])
            if plan.get("outage") == "payout":
                paid = Payout.objects.filter(draw_id=world.draw.pk, state=Payout.State.PAID)
                _wait(lambda: paid.count() >= plan["outage_k"], self.opts.timeout, 0.003)
                self._outage(trial, "payout", lambda: None)
            if not self._wait_paid(world.draw.pk, self.opts.timeout):
                _, _, left = double_and_missing(world.draw)
                draw = Draw.objects.get(pk=world.draw.pk)
                trial.left = f"{left or 'nothing due'}; draw {draw.state} after {self.opts.timeout:.0f} s"
            trial.times["pay_s"] = time.monotonic() - t2
        fp = fingerprint(world.draw, world.players)
        trial.double, trial.missing, _ = double_and_missing(world.draw, baseline)
        if baseline is not None:
            trial.diff = differences(baseline, fp)
            trial.identical = not trial.diff and not trial.left
        trial.times["trial_s"] = time.monotonic() - t0
        return trial, fp

    # -- broker outage -----------------------------------------------------------------------------

    def _outage(self, trial: Trial, during: str, meanwhile) -> None:
        self.redis.stop()
        trial.kills.append(f"broker down during {during}")
        meanwhile()
        time.sleep(3)
        self.redis.start()

    def _report_during_outage(self, trial: Trial, world) -> None:
        """Request a compliance report through the staff page while the broker is down."""
        from django.contrib.auth import get_user_model
        from django.contrib.auth.models import Group
        from django.test import Client
        from django.test.utils import override_settings

        user, _ = get_user_model().objects.get_or_create(username="drill-compliance")
        user.groups.add(Group.objects.get(name=roles.COMPLIANCE_OFFICER))
        client = Client()
        client.force_login(user)
        before = set(Report.objects.values_list("pk", flat=True))
        with override_settings(OTP_REQUIRED=False):
            response = client.post("/compliance/reports/new/", {"kind": "audit_extract", "language": "en",
                                                                "since": str(world.draw.sales_open_at.date()),
                                                                "until": str(world.draw.draw_at.date())})
            status = client.get("/compliance/reports/").status_code
        trial.http_500 += int(response.status_code >= 500) + int(status >= 500)
        self._reports = getattr(self, "_reports", []) + [
            (trial, pk) for pk in Report.objects.exclude(pk__in=before).values_list("pk", flat=True)]

    def _reports_lost(self) -> None:
        """After the trials: a report requested during an outage must be done (nothing lost)."""
        for trial, pk in getattr(self, "_reports", []):
            done = _wait(lambda pk=pk: Report.objects.filter(pk=pk, status=Report.Status.DONE).exists(),
                         self.opts.timeout, 0.2)
            if not done:
                trial.reports_lost += 1
                report = Report.objects.get(pk=pk)
                trial.left = (trial.left + "; " if trial.left else "") + f"report {pk} {report.status} {report.error[:80]}"
                trial.identical = False
                self.say(f"trial {trial.index}: the report requested while the broker was down is {report.status}"
                         f" ({report.error[:80]}): NOT identical\n")

    # -- the drill ---------------------------------------------------------------------------------

    def plan(self, baseline_run, due: int) -> dict:
        plan: dict = {}
        if self.opts.broker_outage:
            plan["outage"] = self.rng.choice(("settlement", "payout"))
            plan["outage_k"] = self.rng.randint(1, max(1, due - 1))
            return plan
        if self.opts.part in ("settlement", "both"):
            plan["settlement"] = self.rng.choice(SETTLEMENT_PHASES)
            plan["chunk"] = self.rng.randint(1, max(1, baseline_run.chunks_total - 1))
        if self.opts.part in ("payout", "both"):
            plan["paying"] = self.rng.randint(1, max(1, due - 1))
        return plan

    def run(self) -> dict:
        self.preflight()
        started = time.monotonic()
        staff = four_eyes_staff("drill")
        base = drill_base()
        self.start()
        self._locker = Locker()
        trials: list[Trial] = []
        try:
            clean, baseline = self.run_draw(0, staff, base, None, {})
            if clean.left:
                raise DrillRefused(f"the clean run did not finish: {clean.left}; worker logs in {self.workdir}")
            baseline_run = SettlementRun.objects.get(pk=self.last_run_id)
            due = sum(1 for row in baseline["payouts"] if row[2] != "retail")
            rolled = [t for t in baseline["tiers"] if t[-1]]
            self.say(f"clean run: {len(baseline['winnings']):,} winners, {due:,} payouts to players, "
                     f"{len(baseline['pending_bank_payouts'])} pending bank payouts, {baseline_run.chunks_total} chunks, "
                     f"settled in {clean.times['settle_s']:.1f} s, paid in {clean.times.get('pay_s', 0):.1f} s"
                     + (f"; ROLLOVERS {rolled}" if rolled else "") + "\n")
            for i in range(1, self.opts.trials + 1):
                trial, _ = self.run_draw(i, staff, base, baseline, self.plan(baseline_run, due))
                trials.append(trial)
                verdict = "identical" if trial.identical else "NOT identical"
                detail = "; ".join(filter(None, [trial.left, *trial.diff[:2]]))
                self.say(f"trial {i}/{self.opts.trials}: {', '.join(trial.kills) or 'no fault'}; "
                         f"settled {trial.times.get('settle_s', 0):.1f} s, paid {trial.times.get('pay_s', 0):.1f} s: "
                         f"{verdict}, double {trial.double}, missing {trial.missing}"
                         + (f" ({detail})" if detail else "") + "\n")
            if self.opts.broker_outage:
                self._reports_lost()
        finally:
            self._locker.close()
            self.stop()
        summary = self.summary(trials, clean, time.monotonic() - started)
        if summary["identical"] == summary["trials"] and not summary["double"] and not summary["missing"]:
            shutil.rmtree(self.workdir, ignore_errors=True)  # kept (worker and beat logs) when a trial failed
        return summary

    def summary(self, trials: list[Trial], clean: Trial, total: float) -> dict:
        def median(key):
            values = [t.times[key] for t in trials if key in t.times]
            return round(statistics.median(values), 2) if values else None

        kinds = Counter(k.split(" (")[0].split(" ")[0] for t in trials for k in t.kills)
        out = {
            "trials": len(trials),
            "identical": sum(t.identical for t in trials),
            "double": sum(t.double for t in trials),
            "missing": sum(t.missing for t in trials),
            "timeouts": sum(bool(t.left) for t in trials),
            "part": "broker-outage" if self.opts.broker_outage else self.opts.part,
            "lines": self.opts.lines,
            "kills": dict(sorted(kinds.items())),
            "clean_settle_s": round(clean.times["settle_s"], 2),
            "clean_pay_s": round(clean.times.get("pay_s", 0), 2),
            "build_s_median": median("build_s"),
            "settle_s_median": median("settle_s"),
            "pay_s_median": median("pay_s"),
            "trial_s_median": median("trial_s"),
            "total_s": round(total, 1),
        }
        if self.opts.broker_outage:
            out["http_500"] = sum(t.http_500 for t in trials)
            out["reports_lost"] = sum(t.reports_lost for t in trials)
        return out


def run_drill(opts: Options, out) -> dict:
    return Drill(opts, out).run()


def as_json(summary: dict) -> str:
    return json.dumps(summary)
