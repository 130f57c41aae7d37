"""What the daily-flow browser tests (tests/e2e/test_daily_*.py, issue 18 item 9) share: signing in as a
demo user and switching to Finnish through the language menu, moving through the header's menus, and
the check run on every page the user reaches: no English of the catalogue in what the page shows
(tests/config/test_translations' finder) and no serious or critical axe-core violation."""

from __future__ import annotations

PASSWORD = "browser-test-pass"
BLOCKING = {"serious", "critical"}


class Day:
    """One user's browser day: each page reached through `check()`ed for English and accessibility."""

    def __init__(self, browser, live_server, username: str):
        from axe_playwright_python.sync_playwright import Axe

        from tests.config.test_translations import EnglishFinder

        # axe-core is injected by the test: only the test's context bypasses the pages' CSP.
        self.context = browser.new_context(base_url=live_server.url, locale="en-GB", bypass_csp=True,
                                           viewport={"width": 1280, "height": 900}, accept_downloads=True)
        self.page = self.context.new_page()
        self.page.set_default_timeout(20_000)
        self.username = username
        self.finder = EnglishFinder("fi")
        self.axe = Axe()
        self.checked: list[str] = []

    def sign_in_in_finnish(self) -> None:
        page = self.page
        page.goto("/accounts/login/")
        page.fill("#id_username", self.username)
        page.fill("#id_password", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_selector("main h1")
        # as a user does: the language menu in the header (it submits itself)
        page.select_option("select[name=language]", "fi")
        page.wait_for_selector("h1:has-text('Kojelauta')")
        assert page.get_attribute("html", "lang") == "fi"
        self.check()

    def check(self, allowed: set[str] = frozenset()) -> None:
        """No English msgid on the page (what the records say in their own words aside) and no serious or
        critical axe-core violation. `allowed`: English a test knowingly lets pass, each with its reason
        in the test."""
        from tests.config.test_translations import recorded_texts, visible_texts

        page = self.page
        page.wait_for_load_state()
        where = page.url
        english = self.finder.findings(visible_texts(page.content()), recorded_texts()) - set(allowed)
        assert english == set(), f"English on {where}: {sorted(english)}"
        result = self.axe.run(page)
        blocking = [f"{v['id']} ({v['impact']}): {v['help']} at {[(n['target'], n['failureSummary']) for n in v['nodes']][:3]}"
                    for v in result.response["violations"] if v["impact"] in BLOCKING]
        assert blocking == [], f"axe-core on {where}: {blocking}"
        self.checked.append(where)

    def menu(self, url_name: str) -> None:
        """Open a page from the header: its link, inside its section's menu when the section has more."""
        page = self.page
        link = page.locator(f"nav.main a[data-nav='{url_name}']")
        if not link.is_visible():
            link.locator("xpath=ancestor::details[1]/summary").click()
        with page.expect_navigation():
            link.click()

    def queue_item(self, queue: str, text: str):
        """The dashboard's work-queue entry of `queue` that says `text` (a Finnish sentence)."""
        return self.page.locator(f"[data-queue='{queue}'] li", has_text=text)

    def dashboard(self) -> None:
        with self.page.expect_navigation():
            self.page.click("header a.brand")
        self.page.wait_for_selector("h1:has-text('Kojelauta')")

    def close(self) -> None:
        self.context.close()
