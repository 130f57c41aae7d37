"""The draw pipeline over the API: a whole round, and refusals with their status codes."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from compliance import roles
from lottery.models import Draw, DrawState
from tests.factories import DrawFactory
from tests.lottery.support import lotto_row, sales_file

RESULT = {"numbers": [1, 2, 3, 4, 5, 6, 7], "additional": 8, "plus": 3, "draw_method": "device", "witnesses": "Notary"}


def test_a_round_runs_through_the_api(api_client_for, django_capture_on_commit_callbacks, eager_tasks):
    first, second = api_client_for(roles.DRAW_SUPERVISOR), api_client_for(roles.DRAW_SUPERVISOR)
    now = timezone.now()
    created = first.post("/api/v1/draws/", {
        "game": "lotto", "number": 5, "sales_open_at": (now - dt.timedelta(days=3)).isoformat(),
        "sales_close_at": (now + dt.timedelta(hours=1)).isoformat(), "draw_at": (now + dt.timedelta(hours=2)).isoformat(),
        "jackpot_cents": 100_000_000}, format="json").json()
    draw_id = created["id"]
    # Time passes: the clock opened sales, which have closed, and the draw was made.
    Draw.objects.filter(pk=draw_id).update(state="open", sales_close_at=now - dt.timedelta(hours=2),
                                           draw_at=now - dt.timedelta(hours=1))
    first.post(f"/api/v1/draws/{draw_id}/close/")
    upload = sales_file([lotto_row("A1", now - dt.timedelta(days=1), (1, 2, 3, 4, 9, 10, 11))])
    upload.name = "sales.csv"
    with django_capture_on_commit_callbacks(execute=True):  # the import job runs after the upload's commit
        first.post(f"/api/v1/draws/{draw_id}/retail-imports/", {"file": upload}, format="multipart")
    first.post(f"/api/v1/draws/{draw_id}/result/", RESULT, format="json")
    with django_capture_on_commit_callbacks(execute=True):
        second.post(f"/api/v1/draws/{draw_id}/result/confirm/")
    winners = second.get(f"/api/v1/draws/{draw_id}/winners/").json()["results"]
    assert [(w["ticket"], w["class_no"], w["prize_cents"]) for w in winners] == [("A1", 5, 1000)]


def test_the_draw_detail_reports_the_settlement(api_client_for, confirm_result):
    from lottery.services.settlement import run_settlement

    draw = DrawFactory(jackpot_cents=1)
    run_settlement(confirm_result(draw, {k: RESULT[k] for k in ("numbers", "additional", "plus")}).pk)
    data = api_client_for(roles.AUDITOR).get(f"/api/v1/draws/{draw.pk}/").json()
    assert (data["state"], data["settlement"]["state"], len(data["tiers"])) == ("settled", "settled", 7)


def test_the_draw_detail_lists_the_requests_waiting_for_a_second_person(api_client_for):
    enterer = api_client_for(roles.DRAW_SUPERVISOR)
    draw = DrawFactory(state="closed", jackpot_cents=1)
    enterer.post(f"/api/v1/draws/{draw.pk}/result/", RESULT, format="json")
    waiting = api_client_for(roles.AUDITOR).get(f"/api/v1/draws/{draw.pk}/").json()["pending_approvals"]
    assert [(a["kind"], a["requested_by"]) for a in waiting] == [("lottery.result", enterer.user.username)]


def test_the_draw_detail_lists_the_payout_waiting_for_approval(api_client_for, confirm_result):
    from lottery.services.settlement import run_settlement

    settled = DrawFactory(jackpot_cents=1)
    run_settlement(confirm_result(settled, {k: RESULT[k] for k in ("numbers", "additional", "plus")}).pk)
    waiting = api_client_for(roles.AUDITOR).get(f"/api/v1/draws/{settled.pk}/").json()["pending_approvals"]
    assert [(a["kind"], a["requested_by"]) for a in waiting] == [("lottery.payout", "system:settlement")]


def test_a_step_out_of_order_is_a_conflict(api_client_for):
    draw = DrawFactory(state="planned")
    response = api_client_for(roles.DRAW_SUPERVISOR).post(f"/api/v1/draws/{draw.pk}/result/", RESULT, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "draw_state")


def test_confirming_ones_own_result_is_forbidden(api_client_for):
    client = api_client_for(roles.DRAW_SUPERVISOR)
    draw = DrawFactory(state="closed", jackpot_cents=1)
    client.post(f"/api/v1/draws/{draw.pk}/result/", RESULT, format="json")
    response = client.post(f"/api/v1/draws/{draw.pk}/result/confirm/")
    assert (response.status_code, response.json()["code"]) == (403, "four_eyes")


def test_an_upload_is_accepted_as_a_job_and_its_report_is_on_the_import(api_client_for,
                                                                        django_capture_on_commit_callbacks):
    draw = DrawFactory(state="closed")
    upload = sales_file([lotto_row("A1", draw.sales_open_at + dt.timedelta(hours=1), (1, 2, 3, 4, 5, 6, 50))])
    upload.name = "bad.csv"
    client = api_client_for(roles.OPERATOR)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/api/v1/draws/{draw.pk}/retail-imports/", {"file": upload}, format="multipart")
    done = client.get(response["Location"]).json()
    assert (response.status_code, response.json()["state"], done["state"], done["errors"][0]["row"]) == (
        202, "queued", "failed", 2)


def test_a_file_already_imported_answers_422_with_the_refusal(api_client_for, django_capture_on_commit_callbacks):
    draw = DrawFactory(state="closed")
    client = api_client_for(roles.OPERATOR)
    rows = [lotto_row("A1", draw.sales_open_at + dt.timedelta(hours=1))]
    for name in ("first.csv", "again.csv"):
        upload = sales_file(rows)
        upload.name = name
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(f"/api/v1/draws/{draw.pk}/retail-imports/", {"file": upload}, format="multipart")
    assert (response.status_code, "already imported" in response.json()["errors"][0]["errors"][0]) == (422, True)


def test_an_operator_cannot_schedule_without_the_permission_to_manage(api_client_for):
    response = api_client_for(roles.COMPLIANCE_OFFICER).post("/api/v1/draws/", {}, format="json")
    assert response.status_code == 403


def test_the_draw_list_filters_by_state(api_client_for):
    DrawFactory(state="closed")
    DrawFactory(state="planned")
    data = api_client_for(roles.OPERATOR).get("/api/v1/draws/?state=closed").json()
    assert [d["state"] for d in data["results"]] == [DrawState.CLOSED]
