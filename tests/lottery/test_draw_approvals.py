"""The draw pipeline's second steps are four-eyes approvals (compliance.approvals): a result, a
correction, a settlement's payout and a large win each wait as a pending request that a different
person decides, from the draw page, the API or the approvals page."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from compliance import roles
from compliance.approvals import ApprovalRefused, approval_decide
from compliance.models import Approval, AuditEvent, RegistryImport
from compliance.registry_services import registry_import_stage
from lottery.models import Draw, DrawResult, DrawState, Payout, ResultStatus, RunState, SettlementRun
from lottery.services import (
    DrawStateError,
    FourEyesError,
    correction_confirm,
    correction_request,
    draw_cancel,
    draw_close_sales,
    result_confirm,
    result_enter,
    result_reject,
    settlement_approve,
    wager_place,
)
from lottery.services.settlement import run_settlement
from tests.factories import DrawFactory, ExclusionRegistryFactory, finnish_id_for
from tests.lottery.support import add_line

LOTTO = {"numbers": [1, 2, 3, 4, 5, 6, 7], "additional": 8, "plus": 3}
FOUR = [1, 2, 3, 4, 20, 21, 22]  # 4 correct: 10 €


def _entered(draw, user):
    draw_close_sales(actor="system:test", draw=draw)
    return result_enter(actor=user, draw=draw, numbers=LOTTO, draw_method="device", witnesses="W. Itness")


def _pending(kind):
    return Approval.objects.get(kind=kind, state=Approval.State.REQUESTED)


def _decide_on_page(client, user, approval, decision, note=""):
    client.force_login(user)
    return client.post(reverse("compliance:approval-decide", args=[approval.pk]),
                       {"decision": decision, "note": note, "confirmed": "yes"}, follow=True)


@pytest.fixture
def settled(open_draw, make_gambler, to_the_draw, confirm_result):
    """A Lotto draw with a player's 4-correct line (10 €, paid to the game account) and a retail line,
    its result entered, confirmed and settled."""
    draw = open_draw(jackpot_cents=50_000_000)
    player, session = make_gambler(100_00)
    wager_place(actor="channel:web", draw=draw, player=player, session=session, reference="W1",
                lines=[{"numbers": FOUR, "stake_cents": 100}])
    add_line(draw, [1, 2, 3, 9, 20, 21, 22])
    draw = to_the_draw(draw)
    run_settlement(confirm_result(draw, LOTTO).pk)
    return Draw.objects.get(pk=draw.pk)


def _online_payout(draw):
    return Payout.objects.get(draw=draw, player_id__isnull=False)


# -- the result ----------------------------------------------------------------------------------

def test_an_entered_result_is_a_pending_approval_of_its_enterer(db, enterer):
    draw = DrawFactory(jackpot_cents=1)
    result = _entered(draw, enterer)
    approval = _pending("lottery.result")
    assert (approval.target_type, approval.target_id, approval.requested_by, approval.payload["draw"]) == (
        "lottery.drawresult", str(result.pk), enterer, draw.pk)


@pytest.mark.parametrize("language,said", [("fi", "Vahvista arvonnan"), ("sv", None)])
def test_the_draw_page_says_what_the_pending_result_waits_for_in_the_readers_language(
        db, enterer, confirmer, client, language, said):
    """The request's reason was written by the system in English ("Confirm the result of Lotto #1"); the
    draw page says it in the reader's words, as the approvals page does."""
    from django.utils.translation import gettext, override

    draw = DrawFactory(jackpot_cents=1)
    _entered(draw, enterer)
    with override(language):
        said = said or gettext("Confirm the result of %(draw)s") % {"draw": ""}
    client.force_login(confirmer)
    html = client.get(reverse("lottery:draw", args=[draw.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    row = html.split(f'data-approval="{_pending("lottery.result").pk}"')[1].split("</li>")[0]
    assert said.strip() in row and "Confirm the result of" not in row


def test_the_approvals_page_lists_the_result_with_a_link_to_the_draw(db, enterer, confirmer, client):
    draw = DrawFactory(jackpot_cents=1)
    _entered(draw, enterer)
    client.force_login(confirmer)
    html = client.get(reverse("compliance:approvals")).content.decode()
    row = html.split(f'data-approval="{_pending("lottery.result").pk}"')[1].split("</tr>")[0]
    assert reverse("lottery:draw", args=[draw.pk]) in row and 'data-decision="approve"' in row


def test_approving_on_the_approvals_page_confirms_the_result_and_queues_settlement(db, enterer, confirmer, client):
    draw = DrawFactory(jackpot_cents=1)
    result = _entered(draw, enterer)
    _decide_on_page(client, confirmer, _pending("lottery.result"), "approve")
    confirmed = DrawResult.objects.get(pk=result.pk)
    assert (confirmed.status, confirmed.confirmed_by, Draw.objects.get(pk=draw.pk).state,
            list(SettlementRun.objects.filter(draw=draw).values_list("version", "state"))) == (
        ResultStatus.CONFIRMED, confirmer, DrawState.RESULT_CONFIRMED, [(1, RunState.PENDING)])


def test_a_decided_result_is_listed_by_its_draws_name_not_the_stored_english(db, enterer, confirmer, client):
    draw = DrawFactory(jackpot_cents=1)
    _entered(draw, enterer)
    approval = _pending("lottery.result")
    _decide_on_page(client, confirmer, approval, "approve")
    html = client.get(reverse("compliance:approvals"), HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    decided = html.split("</table>")[1]
    assert f'<a href="{reverse("lottery:draw", args=[draw.pk])}">{draw}</a>' in decided
    assert approval.target_repr.endswith("result v1") and approval.target_repr not in decided


def test_the_compliance_dashboard_lists_a_pending_result_in_words(db, enterer, make_staff, client):
    """The request's kind by name and its draw linked, not `lottery.result` and "Lotto #1 result v1"."""
    draw = DrawFactory(jackpot_cents=1)
    _entered(draw, enterer)
    approval = _pending("lottery.result")
    client.force_login(make_staff(roles.COMPLIANCE_OFFICER))
    html = client.get(reverse("compliance:dashboard"), HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    row = html.split(f'data-approval="{approval.pk}"')[1].split("</tr>")[0]
    assert "Vahvistettava arvonnan tulos" in row and "<code>lottery.result</code>" not in row
    assert f'<a href="{reverse("lottery:draw", args=[draw.pk])}">{draw}</a>' in row and "result v1" not in row


def test_the_approvals_page_runs_the_settlement_after_the_decision_commits(
        db, enterer, confirmer, client, django_capture_on_commit_callbacks, eager_tasks):
    draw = DrawFactory(jackpot_cents=1)
    _entered(draw, enterer)
    with django_capture_on_commit_callbacks(execute=True):
        _decide_on_page(client, confirmer, _pending("lottery.result"), "approve")
    assert Draw.objects.get(pk=draw.pk).state == DrawState.SETTLED


def test_the_enterer_cannot_decide_their_result_on_the_approvals_page(db, enterer, client):
    draw = DrawFactory(jackpot_cents=1)
    _entered(draw, enterer)
    response = _decide_on_page(client, enterer, _pending("lottery.result"), "approve")
    assert ("Four-eyes rule" in response.content.decode(), Draw.objects.get(pk=draw.pk).state) == (
        True, DrawState.RESULT_ENTERED)


def test_the_approvals_page_offers_the_enterer_no_decision(db, enterer, client):
    draw = DrawFactory(jackpot_cents=1)
    _entered(draw, enterer)
    client.force_login(enterer)
    html = client.get(reverse("compliance:approvals")).content.decode()
    row = html.split(f'data-approval="{_pending("lottery.result").pk}"')[1].split("</tr>")[0]
    assert "another person must decide" in row and "data-decision" not in row


def test_a_refusal_of_the_handler_leaves_the_result_pending(db, enterer, confirmer, client):
    draw = DrawFactory()  # a jackpot game without its jackpot: the confirmation is refused
    _entered(draw, enterer)
    response = _decide_on_page(client, confirmer, _pending("lottery.result"), "approve")
    assert ("Confirm the jackpot" in response.content.decode(), _pending("lottery.result").state) == (
        True, Approval.State.REQUESTED)


def test_a_rejected_result_approval_closes_the_draw_as_a_rejection_did(db, enterer, confirmer, client):
    draw = DrawFactory()
    result = _entered(draw, enterer)
    _decide_on_page(client, confirmer, _pending("lottery.result"), "reject", note="typo in number 7")
    rejected = DrawResult.objects.get(pk=result.pk)
    assert (Draw.objects.get(pk=draw.pk).state, rejected.status, rejected.rejected_by, rejected.reason) == (
        DrawState.CLOSED, ResultStatus.REJECTED, confirmer, "typo in number 7")


def test_result_reject_decides_the_pending_approval(db, enterer, confirmer):
    draw = DrawFactory()
    _entered(draw, enterer)
    approval = _pending("lottery.result")
    result_reject(actor=confirmer, draw=draw, reason="typo")
    approval.refresh_from_db()
    assert (approval.state, approval.decided_by, approval.note) == (Approval.State.REJECTED, confirmer, "typo")


def test_the_enterer_withdraws_their_result_and_the_draw_is_closed_again(db, enterer):
    draw = DrawFactory()
    result = _entered(draw, enterer)
    approval = _pending("lottery.result")
    result_reject(actor=enterer, draw=draw, reason="I typed it wrong")
    approval.refresh_from_db()
    assert (approval.state, DrawResult.objects.get(pk=result.pk).status, Draw.objects.get(pk=draw.pk).state) == (
        Approval.State.CANCELLED, ResultStatus.REJECTED, DrawState.CLOSED)


def test_a_rejection_is_audited_with_the_requester_and_the_checker(db, enterer, confirmer):
    draw = DrawFactory()
    _entered(draw, enterer)
    result_reject(actor=confirmer, draw=draw, reason="typo")
    event = AuditEvent.objects.get(action="lottery.result_rejected")
    assert (event.actor_repr, event.approver_repr, event.data["reason"]) == (enterer.username, confirmer.username, "typo")


def test_the_result_confirmation_is_audited_with_both_people(db, enterer, confirmer, client):
    draw = DrawFactory(jackpot_cents=1)
    _entered(draw, enterer)
    approval = _pending("lottery.result")
    _decide_on_page(client, confirmer, approval, "approve")
    events = [(e.action, e.actor_repr, e.approver_repr)
              for e in AuditEvent.objects.filter(action__in=["approval.requested", "approval.approved",
                                                             "lottery.result_confirmed"]).order_by("seq")]
    assert events == [("approval.requested", enterer.username, ""),
                      ("approval.approved", confirmer.username, confirmer.username),
                      ("lottery.result_confirmed", enterer.username, confirmer.username)]


def test_cancelling_the_draw_makes_the_pending_result_approval_void(db, enterer, confirmer):
    draw = DrawFactory()
    _entered(draw, enterer)
    approval = _pending("lottery.result")
    draw_cancel(actor=confirmer, draw=draw, reason="draw device broken")
    approval.refresh_from_db()
    assert (approval.state, AuditEvent.objects.filter(action="approval.voided", object_id=str(approval.pk)).count()) == (
        Approval.State.CANCELLED, 1)


# -- the correction ------------------------------------------------------------------------------

def test_a_correction_is_decided_on_the_approvals_page(settled, enterer, confirmer, client):
    correction_request(actor=enterer, draw=settled, numbers={**LOTTO, "numbers": [1, 2, 3, 4, 5, 6, 9]}, reason="misread")
    _decide_on_page(client, confirmer, _pending("lottery.correction"), "approve")
    assert (Draw.objects.get(pk=settled.pk).state,
            list(SettlementRun.objects.filter(draw=settled).order_by("version").values_list("version", "state"))) == (
        DrawState.CORRECTED, [(1, RunState.SETTLED), (2, RunState.PENDING)])


def test_a_pending_correction_shows_both_results_with_their_versions_in_finnish(settled, enterer, confirmer, client):
    correction_request(actor=enterer, draw=settled, numbers={**LOTTO, "numbers": [1, 2, 3, 4, 5, 6, 9]}, reason="misread")
    client.force_login(confirmer)
    html = client.get(reverse("compliance:approvals"), HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    row = html.split(f'data-approval="{_pending("lottery.correction").pk}"')[1].split("</tr>")[0]
    assert "(versio 1)" in row and "(versio 2)" in row and "(version " not in row


def test_a_correction_makes_the_pending_payout_approval_void(settled, enterer, confirmer):
    payout = _pending("lottery.payout")
    correction_request(actor=enterer, draw=settled, numbers={**LOTTO, "numbers": [1, 2, 3, 4, 5, 6, 9]}, reason="misread")
    correction_confirm(actor=confirmer, draw=settled)
    payout.refresh_from_db()
    assert payout.state == Approval.State.CANCELLED


# -- the settlement's payout ---------------------------------------------------------------------

def test_a_settled_run_asks_for_its_payout_approval(settled):
    approval = _pending("lottery.payout")
    run = SettlementRun.objects.get(draw=settled)
    assert (approval.target_id, approval.requested_by, approval.requester) == (str(run.pk), None, "system:settlement")


def test_the_result_confirmer_cannot_approve_the_payout_on_the_approvals_page(settled, confirmer, client):
    response = _decide_on_page(client, confirmer, _pending("lottery.payout"), "approve")
    assert ("a different user must approve its payout" in response.content.decode(),
            Draw.objects.get(pk=settled.pk).state) == (True, DrawState.SETTLED)


def test_the_result_enterer_cannot_approve_the_payout(settled, enterer):
    with pytest.raises(FourEyesError, match="entered or confirmed"):
        settlement_approve(actor=enterer, draw=settled)


def test_a_third_person_approves_the_payout_on_the_approvals_page(settled, make_staff, client):
    _decide_on_page(client, make_staff(roles.DRAW_SUPERVISOR), _pending("lottery.payout"), "approve")
    assert (Draw.objects.get(pk=settled.pk).state, _online_payout(settled).state) == (
        DrawState.APPROVED, Payout.State.DUE)


def test_a_settlement_is_not_rejected(settled, make_staff):
    with pytest.raises(ApprovalRefused, match="request a correction"):
        approval_decide(actor=make_staff(roles.DRAW_SUPERVISOR), approval=_pending("lottery.payout"), approve=False)


def test_the_payout_approval_is_audited_with_the_settlement_and_the_approver(settled, make_staff):
    third = make_staff(roles.DRAW_SUPERVISOR)
    settlement_approve(actor=third, draw=settled)
    event = AuditEvent.objects.get(action="lottery.settlement_approved")
    assert (event.actor_repr, event.approver) == ("system:settlement", third)


# -- large wins ----------------------------------------------------------------------------------

@override_settings(LOTTERY_LARGE_WIN_CENTS=500)
def test_each_held_payout_asks_for_its_own_approval_by_the_settlement_approver(settled, make_staff):
    third = make_staff(roles.DRAW_SUPERVISOR)
    settlement_approve(actor=third, draw=settled)
    approval = _pending("lottery.large_win")
    assert (approval.target_id, approval.requested_by) == (str(_online_payout(settled).pk), third)


@override_settings(LOTTERY_LARGE_WIN_CENTS=500)
def test_a_draw_supervisor_may_not_decide_a_large_win(settled, make_staff, client):
    settlement_approve(actor=make_staff(roles.DRAW_SUPERVISOR), draw=settled)
    response = _decide_on_page(client, make_staff(roles.DRAW_SUPERVISOR), _pending("lottery.large_win"), "approve")
    assert ("lottery.approve_large_win" in response.content.decode(), _online_payout(settled).state) == (
        True, Payout.State.HELD)


@override_settings(LOTTERY_LARGE_WIN_CENTS=500)
def test_a_compliance_officer_releases_a_large_win_on_the_approvals_page(settled, make_staff, client):
    settlement_approve(actor=make_staff(roles.DRAW_SUPERVISOR), draw=settled)
    _decide_on_page(client, make_staff(roles.COMPLIANCE_OFFICER), _pending("lottery.large_win"), "approve")
    assert _online_payout(settled).state == Payout.State.DUE


@override_settings(LOTTERY_LARGE_WIN_CENTS=500)
def test_a_correction_makes_the_large_win_approvals_void(settled, enterer, confirmer, make_staff):
    settlement_approve(actor=make_staff(roles.DRAW_SUPERVISOR), draw=settled)
    large = _pending("lottery.large_win")
    correction_request(actor=enterer, draw=settled, numbers={**LOTTO, "numbers": [1, 2, 3, 4, 5, 6, 9]}, reason="misread")
    correction_confirm(actor=confirmer, draw=Draw.objects.get(pk=settled.pk))
    large.refresh_from_db()
    assert large.state == Approval.State.CANCELLED


# -- who may decide what -------------------------------------------------------------------------

def test_a_draw_supervisor_cannot_decide_a_registry_import(db, make_staff, client):
    registry = ExclusionRegistryFactory(kind="national")
    data = f"identifier,country,starts,ends,external_id\n{finnish_id_for(dt.date(1981, 6, 6), 11)},FI,2024-01-01,,A1\n"
    batch = registry_import_stage(actor=make_staff(roles.COMPLIANCE_OFFICER), registry=registry, data=data.encode(),
                                  file_name="register.csv")
    response = _decide_on_page(client, make_staff(roles.DRAW_SUPERVISOR), _pending("registry.import"), "approve")
    assert ("compliance.import_registry" in response.content.decode(), RegistryImport.objects.get(pk=batch.pk).state) == (
        True, RegistryImport.State.STAGED)


def test_a_draw_supervisor_sees_the_approvals_page(staff_client):
    assert staff_client(roles.DRAW_SUPERVISOR).get(reverse("compliance:approvals")).status_code == 200


def test_confirming_without_a_pending_request_is_refused(db, enterer, confirmer):
    draw = DrawFactory(jackpot_cents=1)
    _entered(draw, enterer)
    Approval.objects.filter(kind="lottery.result").update(state=Approval.State.CANCELLED)
    with pytest.raises(DrawStateError, match="No four-eyes request is pending"):
        result_confirm(actor=confirmer, draw=draw)


# -- the draw page -------------------------------------------------------------------------------

def test_the_draw_page_shows_who_asked_for_the_confirmation_and_when(db, enterer, staff_client):
    draw = DrawFactory(jackpot_cents=1)
    _entered(draw, enterer)
    approval = _pending("lottery.result")
    html = staff_client(roles.AUDITOR).get(reverse("lottery:draw", args=[draw.pk])).content.decode()
    box = html.split('id="four-eyes"')[1].split("</div>")[0]
    when = timezone.localtime(approval.requested_at).strftime("%Y-%m-%d %H:%M")
    assert f"requested by {enterer.username} at {when}" in box


def test_the_draw_page_shows_the_payout_approval_once_settled(settled, staff_client):
    html = staff_client(roles.DRAW_SUPERVISOR).get(reverse("lottery:draw", args=[settled.pk])).content.decode()
    box = html.split('id="four-eyes"')[1].split("</div>")[0]
    assert 'data-kind="lottery.payout"' in box and "system:settlement" in box
