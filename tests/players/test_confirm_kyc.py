"""Recording an identity as verified asks first and says what it allows (issue 18 item 5)."""

from __future__ import annotations

from compliance import roles


def test_recording_kyc_asks_first(client, make_staff, make_player):
    player = make_player(unverified=True)
    client.force_login(make_staff(roles.COMPLIANCE_OFFICER))
    html = client.post(f"/players/{player.pk}/verify/", {"method": "passport"}).content.decode()
    player.person.refresh_from_db()
    assert "lets them deposit and play" in html and player.person.kyc_status == "unverified"
