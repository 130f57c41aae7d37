"""Many parallel deposits, stakes and withdrawals on one account (PostgreSQL row locks): the balance
never leaves 0..cap, the ledger always sums to it, and a reference is posted once however many
requests race with it."""

from __future__ import annotations

import random
import threading

import pytest
from django.db import connection, connections
from django.db.models import Sum

from players.errors import PlayerError

THREADS = 8
OPERATIONS = 25


def _setup():
    from players import services
    from tests.factories import PersonFactory, PlayerFactory

    player = PlayerFactory(person=PersonFactory())
    # Start near the cap so that deposits meet the cap and withdrawals and stakes meet zero.
    services.account_deposit(
        actor="channel:test", account=player.account, amount_cents=19_000_00, reference="seed"
    )
    session = services.session_start(actor="channel:test", player=player)
    return player, session


def _run(worker, n_threads=THREADS) -> list[BaseException]:
    errors: list[BaseException] = []

    def target(i: int) -> None:
        try:
            worker(i)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=target, args=(i,)) for i in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def _skip_unless_postgres():
    if connection.vendor != "postgresql":
        pytest.skip("row locks under real concurrency need PostgreSQL")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_parallel_money_movements_keep_the_balance_in_range_and_equal_to_the_ledger():
    _skip_unless_postgres()
    from players import services
    from players.models import GameAccount, LedgerEntry

    player, session = _setup()
    account_id, cap = player.account.pk, player.account.cap_cents
    done = {"ok": 0, "refused": 0}
    lock = threading.Lock()

    def worker(i: int) -> None:
        rnd = random.Random(i)
        account = GameAccount.objects.get(pk=account_id)
        for n in range(OPERATIONS):
            kind = rnd.choice(["deposit", "stake", "withdraw"])
            amount = rnd.randint(1, 900_00)
            reference = f"t{i}-{n}"
            try:
                if kind == "deposit":
                    services.account_deposit(
                        actor="channel:t", account=account, amount_cents=amount, reference=reference
                    )
                elif kind == "stake":
                    services.account_stake(
                        actor="channel:t",
                        account=account,
                        amount_cents=amount,
                        reference=reference,
                        session=session,
                    )
                else:
                    services.account_withdraw(
                        actor="channel:t", account=account, amount_cents=amount, reference=reference
                    )
                outcome = "ok"
            except PlayerError:
                outcome = "refused"
            with lock:
                done[outcome] += 1

    assert _run(worker) == []
    balance = GameAccount.objects.get(pk=account_id).balance_cents
    ledger = LedgerEntry.objects.filter(account_id=account_id).aggregate(s=Sum("amount_cents"))["s"]
    entries = LedgerEntry.objects.filter(account_id=account_id).count()
    assert (0 <= balance <= cap, ledger, entries) == (True, balance, done["ok"] + 1)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_balance_after_each_entry_follows_from_the_previous_one_under_concurrency():
    _skip_unless_postgres()
    from players import services
    from players.models import GameAccount, LedgerEntry

    player, session = _setup()
    account_id = player.account.pk

    def worker(i: int) -> None:
        account = GameAccount.objects.get(pk=account_id)
        for n in range(OPERATIONS):
            try:
                if (i + n) % 2:
                    services.account_deposit(
                        actor="channel:t", account=account, amount_cents=150_00, reference=f"d{i}-{n}"
                    )
                else:
                    services.account_stake(
                        actor="channel:t",
                        account=account,
                        amount_cents=170_00,
                        reference=f"s{i}-{n}",
                        session=session,
                    )
            except PlayerError:
                pass

    assert _run(worker) == []
    running, broken = 0, []
    for entry in LedgerEntry.objects.filter(account_id=account_id).order_by("pk"):
        running += entry.amount_cents
        if entry.balance_after_cents != running:
            broken.append(entry.pk)
    assert broken == []


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_racing_retries_of_one_reference_post_it_once():
    _skip_unless_postgres()
    from players import services
    from players.models import GameAccount, LedgerEntry

    player, _session = _setup()
    account_id = player.account.pk
    replays = []

    def worker(i: int) -> None:
        account = GameAccount.objects.get(pk=account_id)
        posting = services.account_withdraw(
            actor="channel:t", account=account, amount_cents=5_00, reference="same"
        )
        replays.append(posting.replayed)

    assert _run(worker, n_threads=10) == []
    assert (LedgerEntry.objects.filter(account_id=account_id, reference="same").count(), sorted(replays)) == (
        1,
        [False] + [True] * 9,
    )


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_parallel_deposits_over_the_api_never_pass_the_cap():
    _skip_unless_postgres()
    from rest_framework.test import APIClient

    from players.models import GameAccount
    from tests.factories import api_token, sales_channel

    player, _session = _setup()  # 19,000 EUR: room for 1,000 EUR
    user = sales_channel().user
    token = api_token(user)
    statuses = []

    def worker(i: int) -> None:
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        response = api.post(
            f"/api/v1/players/{player.pk}/deposits/",
            {"amount_cents": 300_00, "reference": f"api-{i}"},
            format="json",
        )
        statuses.append(response.status_code)

    assert _run(worker, n_threads=8) == []
    balance = GameAccount.objects.get(pk=player.account.pk).balance_cents
    assert (sorted(statuses), balance) == ([201] * 3 + [422] * 5, 19_900_00)
