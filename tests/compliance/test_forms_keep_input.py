"""Staff forms keep what was typed when refused and put each error beside its field (issue 18 item 5):
the registries page (a ban, a register file) renders itself again with the form as typed."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile

from compliance.models import ExclusionEntry
from compliance.roles import COMPLIANCE_OFFICER
from tests.factories import OperatorRegistryFactory


def test_a_ban_without_a_reason_keeps_the_names_typed_and_says_so_beside_the_reason(client, make_staff):
    registry = OperatorRegistryFactory()
    client.force_login(make_staff(COMPLIANCE_OFFICER))
    response = client.post("/compliance/registries/bans/", {
        "registry": registry.pk, "first_name": "Ville", "last_name": "Sisäpiiri", "birth_date": "1980-02-03",
        "id_country": "FI", "reason": ""})
    html = response.content.decode()
    assert response.status_code == 200 and not ExclusionEntry.objects.exists()
    assert 'value="Ville"' in html and 'value="1980-02-03"' in html and 'data-field-error="reason"' in html


def test_a_register_file_without_a_register_keeps_the_reason(client, make_staff):
    client.force_login(make_staff(COMPLIANCE_OFFICER))
    upload = SimpleUploadedFile("r.csv", b"identifier,country,starts,ends,external_id\n")
    html = client.post("/compliance/registries/import/", {"file": upload, "reason": "monthly file"}).content.decode()
    assert 'value="monthly file"' in html and 'data-field-error="registry"' in html
