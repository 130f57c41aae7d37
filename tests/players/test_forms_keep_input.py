"""The player page's forms keep what was typed when refused, errors beside the field (issue 18 item 5)."""

from __future__ import annotations

from compliance import roles
from players import services


def test_kyc_without_a_method_keeps_the_note_and_says_so_beside_the_method(staff_client, make_player):
    player = make_player(unverified=True)
    response = staff_client(roles.COMPLIANCE_OFFICER).post(
        f"/players/{player.pk}/verify/", {"method": "", "note": "passport seen at the desk"})
    html = response.content.decode()
    assert response.status_code == 200 and 'value="passport seen at the desk"' in html
    assert 'data-field-error="method"' in html


def test_a_refused_bank_payment_is_shown_beside_its_payout(staff_client, make_player):
    player = make_player(balance_cents=20_000_00)
    payout = services.account_prize(actor="system:s", account=player.account, amount_cents=10_00,
                                    reference="w").pending_payout
    client = staff_client(roles.OPERATOR)
    client.post(f"/players/payouts/{payout.pk}/paid/", {"bank_reference": "NORDEA-1"})
    html = client.post(f"/players/payouts/{payout.pk}/paid/", {"bank_reference": "NORDEA-2"}).content.decode()
    assert "already waits for a second person" in html and 'value="NORDEA-2"' in html
