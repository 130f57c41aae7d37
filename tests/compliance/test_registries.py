"""Register imports (validated whole, staged, applied on a second person's approval, replacing the
previous import), operator bans with early lifting, restricted persons by name, live adapters."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.utils import timezone

from compliance.approvals import FourEyesError, approval_decide
from compliance.models import Approval, AuditEvent, ExclusionEntry, RegistryCall, RegistryImport
from compliance.registries import LiveRegistryAdapter, check_registries
from compliance.registry_services import ban_add, ban_lift_request, registry_import_stage
from compliance.roles import COMPLIANCE_OFFICER
from compliance.screening import screen
from tests.factories import ExclusionRegistryFactory, OperatorRegistryFactory, PersonFactory, finnish_id_for

BIRTH = dt.date(1981, 6, 6)
HETU = finnish_id_for(BIRTH, 11)


@pytest.fixture
def officers(make_staff):
    return make_staff(COMPLIANCE_OFFICER), make_staff(COMPLIANCE_OFFICER)


@pytest.fixture
def national(db):
    return ExclusionRegistryFactory(name="Finnish self-exclusion register", kind="national")


def _csv(*rows: str) -> bytes:
    return ("identifier,country,starts,ends,external_id\n" + "\n".join(rows) + "\n").encode()


def _import(officers, registry, data):
    batch = registry_import_stage(actor=officers[0], registry=registry, data=data, file_name="register.csv")
    approval = Approval.objects.filter(target_id=str(batch.pk), kind="registry.import").first()
    if approval is not None:
        approval_decide(actor=officers[1], approval=approval, approve=True)
    return RegistryImport.objects.get(pk=batch.pk)


def test_staged_import_changes_nothing_before_approval(officers, national):
    registry_import_stage(actor=officers[0], registry=national, data=_csv(f"{HETU},FI,2024-01-01,,A1"),
                          file_name="r.csv")
    assert ExclusionEntry.objects.filter(registry=national).count() == 0


def test_approved_import_fills_the_register(officers, national):
    _import(officers, national, _csv(f"{HETU},FI,2024-01-01,,A1", "811231-1234,SE,2024-02-01,2030-12-31,A2"))
    assert ExclusionEntry.objects.filter(registry=national).count() == 2


def test_imported_identifier_matches_the_person_however_typed(officers, national):
    _import(officers, national, _csv(f" {HETU.lower()} ,fi,2024-01-01,,A1"))
    person = PersonFactory(birth_date=BIRTH, national_id=HETU)
    assert check_registries(person, timezone.now()).hits == [national]


def test_new_import_replaces_the_previous_one(officers, national):
    _import(officers, national, _csv(f"{HETU},FI,2024-01-01,,A1"))
    _import(officers, national, _csv("811231-0001,SE,2024-01-01,,B1", "811231-0002,SE,2024-01-01,,B2"))
    assert sorted(ExclusionEntry.objects.filter(registry=national).values_list("external_id", flat=True)) == [
        "B1", "B2"
    ]


def test_import_records_who_when_rows_and_the_file_hash(officers, national):
    import hashlib

    data = _csv(f"{HETU},FI,2024-01-01,,A1")
    batch = _import(officers, national, data)
    assert (batch.state, batch.rows, batch.sha256, batch.uploaded_by_repr, batch.applied_by_repr) == (
        "applied", 1, hashlib.sha256(data).hexdigest(), officers[0].username, officers[1].username
    )


def test_file_with_an_error_is_refused_whole_with_line_numbers(officers, national):
    batch = _import(officers, national, _csv(f"{HETU},FI,2024-01-01,,A1", "X1,FI,not-a-date,,A2", ",FI,2024-01-01,,A3"))
    assert (batch.state, [e["row"] for e in batch.errors]) == ("failed", [3, 4])


def test_refused_file_leaves_the_previous_import_in_force(officers, national):
    _import(officers, national, _csv(f"{HETU},FI,2024-01-01,,A1"))
    _import(officers, national, _csv("SE-9,SE,2024-13-01,,Z"))
    assert list(ExclusionEntry.objects.filter(registry=national).values_list("external_id", flat=True)) == ["A1"]


def test_ends_is_the_last_day_barred(officers, national):
    _import(officers, national, _csv(f"{HETU},FI,2024-01-01,2024-01-31,A1"))
    entry = ExclusionEntry.objects.get(registry=national)
    assert timezone.localtime(entry.ends_at).isoformat().startswith("2024-02-01T00:00:00")


def test_unknown_column_is_refused(officers, national):
    batch = _import(officers, national, b"identifier,colour,starts\nX,red,2024-01-01\n")
    assert "Unknown column" in batch.errors[0]["error"]


def test_rejected_import_is_marked_and_applies_nothing(officers, national):
    batch = registry_import_stage(actor=officers[0], registry=national, data=_csv(f"{HETU},FI,2024-01-01,,A1"),
                                  file_name="r.csv")
    approval = Approval.objects.get(target_id=str(batch.pk), kind="registry.import")
    approval_decide(actor=officers[1], approval=approval, approve=False, note="wrong file")
    assert RegistryImport.objects.get(pk=batch.pk).state == "rejected"


def test_importer_cannot_approve_their_own_import(officers, national):
    batch = registry_import_stage(actor=officers[0], registry=national, data=_csv(f"{HETU},FI,2024-01-01,,A1"),
                                  file_name="r.csv")
    approval = Approval.objects.get(target_id=str(batch.pk), kind="registry.import")
    with pytest.raises(FourEyesError):
        approval_decide(actor=officers[0], approval=approval, approve=True)


def test_applied_import_is_a_significant_event_with_the_approver(officers, national):
    _import(officers, national, _csv(f"{HETU},FI,2024-01-01,,A1"))
    event = AuditEvent.objects.get(action="registry.import_applied")
    assert (event.actor_repr, event.approver_repr, event.significant) == (
        officers[0].username, officers[1].username, True
    )


def test_upload_page_stages_a_file(officers, national, client, django_capture_on_commit_callbacks):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(officers[0])
    with django_capture_on_commit_callbacks(execute=True):  # the job runs once the upload is committed
        client.post("/compliance/registries/import/", {
            "registry": national.pk, "file": SimpleUploadedFile("r.csv", _csv(f"{HETU},FI,2024-01-01,,A1")),
        })
    assert RegistryImport.objects.get().state == "staged"


def test_import_command_stages_a_file(officers, national, tmp_path):
    from django.core.management import call_command

    path = tmp_path / "register.csv"
    path.write_bytes(_csv(f"{HETU},FI,2024-01-01,,A1"))
    call_command("import_registry", national.name, str(path), "--by", officers[0].username)
    assert RegistryImport.objects.get().rows == 1


# --- Operator bans, insiders, restricted persons -----------------------------------------------------


def test_operator_ban_records_reason_and_who_decided(officers):
    ban = ban_add(actor=officers[0], registry=OperatorRegistryFactory(), reason="abusive behaviour",
                  national_id=HETU)
    assert (ban.reason, ban.decided_by) == ("abusive behaviour", officers[0])


def test_operator_ban_needs_a_reason(officers):
    from compliance.registry_services import RegistryImportError

    with pytest.raises(RegistryImportError):
        ban_add(actor=officers[0], registry=OperatorRegistryFactory(), reason=" ", national_id=HETU)


def test_banned_person_is_refused_at_login(officers):
    person = PersonFactory(birth_date=BIRTH, national_id=HETU)
    ban_add(actor=officers[0], registry=OperatorRegistryFactory(), reason="r", national_id=HETU)
    assert "registry_excluded" in screen(person, "register").codes


def test_restricted_person_is_matched_by_name_and_birth_date(officers):
    registry = ExclusionRegistryFactory(kind="restricted", jurisdiction="UA")
    ban_add(actor=officers[0], registry=registry, reason="state register", first_name="Ivan", last_name="Petrenko",
            birth_date=dt.date(1990, 1, 2))
    person = PersonFactory(first_name="IVAN", last_name="petrenko", birth_date=dt.date(1990, 1, 2), jurisdiction="UA")
    assert check_registries(person, timezone.now()).hits == [registry]


def test_insider_register_bars_a_member_of_staff(officers):
    registry = ExclusionRegistryFactory(kind="insider")
    ban_add(actor=officers[0], registry=registry, reason="employee", national_id=HETU)
    person = PersonFactory(birth_date=BIRTH, national_id=HETU)
    assert check_registries(person, timezone.now()).hits == [registry]


def test_early_lifting_waits_for_a_second_person(officers):
    ban = ban_add(actor=officers[0], registry=OperatorRegistryFactory(), reason="r", national_id=HETU)
    ban_lift_request(actor=officers[0], entry=ban, reason="appeal granted")
    assert ExclusionEntry.objects.get(pk=ban.pk).ends_at is None


def test_approved_early_lifting_ends_the_ban(officers):
    ban = ban_add(actor=officers[0], registry=OperatorRegistryFactory(), reason="r", national_id=HETU)
    approval = ban_lift_request(actor=officers[0], entry=ban, reason="appeal granted")
    approval_decide(actor=officers[1], approval=approval, approve=True)
    person = PersonFactory(birth_date=BIRTH, national_id=HETU)
    assert check_registries(person, timezone.now() + dt.timedelta(seconds=1)).hits == []


def test_ban_with_an_end_can_be_lifted_early(officers):
    ban = ban_add(actor=officers[0], registry=OperatorRegistryFactory(), reason="r", national_id=HETU,
                  ends_at=timezone.now() + dt.timedelta(days=30))
    approval = ban_lift_request(actor=officers[0], entry=ban, reason="appeal granted")
    approval_decide(actor=officers[1], approval=approval, approve=True)
    assert ExclusionEntry.objects.get(pk=ban.pk).lifted_at is not None


def test_lifting_is_audited_with_requester_and_approver(officers):
    ban = ban_add(actor=officers[0], registry=OperatorRegistryFactory(), reason="r", national_id=HETU)
    approval = ban_lift_request(actor=officers[0], entry=ban, reason="appeal granted")
    approval_decide(actor=officers[1], approval=approval, approve=True)
    event = AuditEvent.objects.get(action="registry.ban_lifted")
    assert (event.actor_repr, event.approver_repr) == (officers[0].username, officers[1].username)


def test_ban_page_adds_and_requests_lifting(officers, client):
    registry = OperatorRegistryFactory()
    client.force_login(officers[0])
    client.post("/compliance/registries/bans/", {"registry": registry.pk, "national_id": HETU, "id_country": "FI",
                                                 "reason": "fraud"})
    ban = ExclusionEntry.objects.get(registry=registry)
    client.post(f"/compliance/registries/entries/{ban.pk}/lift/", {"reason": "mistake"})
    assert Approval.objects.filter(kind="registry.lift_ban", target_id=str(ban.pk), state="requested").exists()


# --- Live register adapters --------------------------------------------------------------------------


class HitAdapter(LiveRegistryAdapter):
    def query(self, person, *, registry, now, timeout):
        return True


class SlowAdapter(LiveRegistryAdapter):
    def query(self, person, *, registry, now, timeout):
        time.sleep(timeout + 0.05)
        return False


class DownAdapter(LiveRegistryAdapter):
    def query(self, person, *, registry, now, timeout):
        raise ConnectionError("connection refused")


def _live(adapter) -> object:
    return ExclusionRegistryFactory(adapter=f"{__name__}.{adapter.__name__}", timeout_seconds=0.05)


def test_live_register_hit_refuses_and_is_logged(db):
    registry = _live(HitAdapter)
    person = PersonFactory()
    assert "registry_excluded" in screen(person, "register").codes
    assert RegistryCall.objects.get(registry=registry).outcome == "hit"


def test_live_register_that_does_not_answer_fails_closed(db):
    _live(DownAdapter)
    assert screen(PersonFactory(), "register").codes == ["registry_unavailable"]


def test_failed_live_call_is_logged_with_its_error(db):
    registry = _live(DownAdapter)
    screen(PersonFactory(), "register")
    assert "connection refused" in RegistryCall.objects.get(registry=registry).error


def test_live_register_answering_too_late_fails_closed(db):
    _live(SlowAdapter)
    assert screen(PersonFactory(), "register").codes == ["registry_unavailable"]


def test_registries_page_shows_imports_bans_and_calls(officers, national, client):
    _import(officers, national, _csv(f"{HETU},FI,2024-01-01,,A1"))
    ban_add(actor=officers[0], registry=OperatorRegistryFactory(), reason="seen cheating", national_id=HETU)
    client.force_login(officers[1])
    html = client.get("/compliance/registries/").content.decode()
    assert "register.csv" in html and "seen cheating" in html


def test_import_detail_page_lists_errors_by_line(officers, national, client):
    batch = _import(officers, national, _csv(f"{HETU},FI,not-a-date,,A2"))
    client.force_login(officers[1])
    assert "not-a-date" in client.get(f"/compliance/registries/import/{batch.pk}/").content.decode()


def test_stale_register_is_flagged_on_the_dashboard(officers, national, client):
    client.force_login(officers[1])
    overview = client.get("/compliance/").context["overview"]
    assert [o["stale"] for o in overview if o["registry"] == national] == [True]
