"""A compliance officer downloads an archived PDF report from the reports page in the browser."""

from __future__ import annotations

import io

from pypdf import PdfReader

PASSWORD = "browser-test-pass"


def test_officer_downloads_a_pdf_from_the_reports_page(page, demo_staff, settings, tmp_path):
    from django.contrib.auth import get_user_model

    from compliance.reports import report_render, report_request

    settings.MEDIA_ROOT = tmp_path
    officer = get_user_model().objects.get(username="compliance")
    report = report_request(actor=officer, kind="exclusion_hits", params={"since": "2001-01-01", "until": "2001-01-31"})
    report_render(report.pk)  # rendered here: with a broker configured the task would wait for a worker

    page.goto("/accounts/login/")
    page.fill("#id_username", "compliance")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("h1:has-text('Dashboard')")
    page.goto("/compliance/reports/")
    with page.expect_download() as info:
        page.click(f"tr[data-report='{report.pk}'] a[data-download=pdf]")
    pdf = PdfReader(io.BytesIO(open(info.value.path(), "rb").read()))
    assert len(pdf.pages) == 1 and "No data for these parameters." in pdf.pages[0].extract_text()
