"""Finnish and Swedish are complete (issue 18 item 7): every catalogue entry is translated, and no staff
page, message or PDF shows English to a Finnish or Swedish reader.

Two checks, each precise enough to run without false alarms:

1. The catalogues: no entry of config/locale/{fi,sv} whose msgstr is empty, fuzzy, or the msgid itself
   (except the words that are the same in the language: game names, "Bonus", ...; SAME_IN_LANGUAGE).
2. The pages: with the demo data loaded, every staff page the URL conf has (each object page for each
   demo object of its kind) is rendered in fi and sv for every demo role that may see it, and its
   visible text (text nodes and the attributes people read: title, aria-label, placeholder, alt,
   button values) is searched for the English of the catalogue:
   - an element or attribute whose whole text is an English msgid ("open", "Draw supervisor");
   - a run of two or more words of an English msgid (the fixed parts around its placeholders) anywhere
     in the text, word for word ("entering the result needs a draw that is").
   A msgid whose words also occur in its own translation (a name) is never a finding.
   The same check reads the messages a page sets (messages framework) and the text of each report
   kind's PDF (pypdf), rendered in fi and sv.
"""

from __future__ import annotations

import datetime as dt
import io
import re
from html.parser import HTMLParser
from pathlib import Path
from pprint import pformat

import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone, translation

from tests.test_access import ROUTES, _view_class

LOCALE = Path(settings.BASE_DIR) / "config" / "locale"
LANGUAGES = ("fi", "sv")

# Written the same in the language: names of games and products, and words Swedish shares with English.
# "Blackjack" is the name of the table game in Finnish and Swedish rulebooks and casinos alike.
SAME_IN_LANGUAGE = {
    "fi": {"Blackjack", "Bonus", "Casino Billionaire", "Eurojackpot", "Jokeri", "Kaikki tai ei mitään", "Keno", "Lomatonni",
           "Lotto", "Milli", "Plus", "Plussa", "Synttärit", "Tähdenlento", "Vikinglotto", "%(where)s: %(reason)s", "%(where)s: %(problem)s"},
    "sv": {"Blackjack", "Bonus", "Casino Billionaire", "Eurojackpot", "Jokeri", "Kaikki tai ei mitään", "Keno", "Lomatonni",
           "Lotto", "Milli", "Plus", "Plussa", "Synttärit", "Tähdenlento", "Vikinglotto", "%(where)s: %(reason)s", "%(where)s: %(problem)s",
           "API", "Box", "Cell", "Hash", "Period", "period", "Person", "person", "Register", "Status", "status",
           "Variant", "Version", "version", "permanent", "version %(number)s", "Version %(v)s: %(state)s (%(phase)s)"},
}


# --- the catalogues --------------------------------------------------------------------------------

ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _unquote(line: str) -> str:
    body = line[line.index('"') + 1:line.rindex('"')]
    return re.sub(r"\\(.)", lambda m: ESCAPES.get(m.group(1), m.group(0)), body)


def catalogue(language: str) -> list[dict]:
    """The entries of a .po file: msgid, msgid_plural, msgstr (list: one per plural form), fuzzy."""
    entries, entry, field = [], None, None
    for raw in (LOCALE / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#~"):
            continue
        if line.startswith("#"):
            if entry is None or field is not None and field != "flags":
                entry = {"msgid": "", "msgid_plural": "", "msgstr": [], "fuzzy": False}
                entries.append(entry)
                field = "flags"
            if line.startswith("#,") and "fuzzy" in line:
                entry["fuzzy"] = True
            continue
        keyword = line.split(" ", 1)[0] if not line.startswith('"') else None
        if keyword in ("msgctxt", "msgid"):
            if entry is None or field not in (None, "flags", "msgctxt"):
                entry = {"msgid": "", "msgid_plural": "", "msgstr": [], "fuzzy": False}
                entries.append(entry)
            field = keyword
            if keyword == "msgid":
                entry["msgid"] = _unquote(line)
        elif keyword == "msgid_plural":
            field = "msgid_plural"
            entry["msgid_plural"] = _unquote(line)
        elif keyword and keyword.startswith("msgstr"):
            field = "msgstr"
            entry["msgstr"].append(_unquote(line))
        elif line.startswith('"') and entry is not None:
            if field == "msgstr":
                entry["msgstr"][-1] += _unquote(line)
            elif field in ("msgid", "msgid_plural"):
                entry[field] += _unquote(line)
    return [e for e in entries if e["msgid"]]  # the header has an empty msgid


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_catalogue_entry_is_translated(language):
    untranslated = [
        e["msgid"] for e in catalogue(language)
        if e["fuzzy"] or not all(e["msgstr"])
        or (e["msgstr"][0] == e["msgid"] and e["msgid"] not in SAME_IN_LANGUAGE[language])
    ]
    assert untranslated == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_role_is_named_in_the_language(language):
    """The header names the user's roles; a role whose label is in no catalogue stays English (the casino
    roles did), and the page walk cannot see it: it looks for the catalogue's English only."""
    from django.utils.translation import override

    from compliance.roles import ROLES, role_label

    with override(language):
        english = [name for name in ROLES if str(role_label(name)) == name]
    assert english == []


# --- English in what people read ---------------------------------------------------------------------

# The language menu names each language in its own language, English included, on purpose.
LANGUAGE_NAMES = {"English"}
PLACEHOLDER = re.compile(r"%\(\w+\)[-#0 +]*\d*(?:\.\d+)?[sdifr]|%[sdif]|\{\w*\}|<[^>]+>")
WORD = re.compile(r"[A-Za-zÀ-ÿ']+")


def _norm(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").split())


class EnglishFinder:
    """The English msgids of the catalogue, as whole texts and as runs of two or more words."""

    def __init__(self, language: str):
        self.whole: dict[str, str] = {}
        self.runs: list[tuple[re.Pattern, str]] = []
        for entry in catalogue(language):
            for msgid, msgstr in ((entry["msgid"], entry["msgstr"][0]), (entry["msgid_plural"], entry["msgstr"][-1])):
                if not msgid or not msgstr or msgstr == msgid:
                    continue
                translated = _norm(msgstr)
                if msgid in LANGUAGE_NAMES:
                    continue
                if "%" not in msgid and "{" not in msgid and WORD.search(msgid) and msgid not in translated:
                    self.whole[_norm(msgid)] = msgid
                for part in PLACEHOLDER.split(msgid):
                    part = _norm(part).strip(" .,:;()\"'«»–-·?!")
                    if len(WORD.findall(part)) >= 2 and part not in translated:
                        self.runs.append((re.compile(r"(?<![\w])" + re.escape(part) + r"(?![\w])"), msgid))

    def findings(self, texts: list[str], recorded: list[str] = ()) -> set[str]:
        """The English msgids in `texts`; what a text quotes of `recorded` (the audit trail's and the
        approvals' own words, kept as they were written) is left out first."""
        found = self._find(texts)
        if found and recorded:
            cleaned = []
            for text in texts:
                text = _norm(text)
                for record in recorded:
                    if record in text:
                        text = text.replace(record, " | ")
                cleaned.append(text)
            found = self._find(cleaned)
        return found

    def _find(self, texts: list[str]) -> set[str]:
        found = set()
        for text in texts:
            text = _norm(text)
            if text in self.whole:
                found.add(self.whole[text])
        joined = "\n".join(_norm(t) for t in texts)
        for pattern, msgid in self.runs:
            if pattern.search(joined):
                found.add(msgid)
        return found


class VisibleText(HTMLParser):
    """The text a person reads on the page: text nodes and the attributes shown (title, aria-label,
    placeholder, alt, button values). Not script or style, and not what the page sets as code (<code>,
    <pre>, class "mono": fingerprints, rule-data keys, JSON of a rule version), which is shown verbatim
    on purpose."""

    SHOWN = ("title", "aria-label", "placeholder", "alt")
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._stack: list[tuple[str, bool]] = []  # (tag, hidden from the check)

    def _hidden(self) -> bool:
        return bool(self._stack) and self._stack[-1][1]

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        hidden = self._hidden() or tag in ("script", "style", "code", "pre", "kbd", "samp") or "mono" in (
            attrs.get("class") or "").split()
        if not hidden:
            for name in self.SHOWN:
                if attrs.get(name):
                    self.texts.append(attrs[name])
            if tag == "input" and attrs.get("type") in ("submit", "button") and attrs.get("value"):
                self.texts.append(attrs["value"])
        if tag not in self.VOID:
            self._stack.append((tag, hidden))

    def handle_endtag(self, tag):
        for i in range(len(self._stack) - 1, -1, -1):
            if self._stack[i][0] == tag:
                del self._stack[i:]
                break

    def handle_data(self, data):
        if not self._hidden() and data.strip():
            self.texts.append(data)


def visible_texts(html: str) -> list[str]:
    parser = VisibleText()
    parser.feed(html)
    return parser.texts


# --- the pages -----------------------------------------------------------------------------------

def recorded_texts() -> list[str]:
    """What the records say in their own words: an audit event's object name and values and an approval's
    object, reason and details are written once, in English (compliance.money: records do not depend on
    the language of whoever caused them), and shown as recorded. Saying them in the reader's words is
    the pages' human rendering of records (issue 18 item 4), not the catalogue's."""
    from compliance.models import Approval, AuditEvent

    out: set[str] = set()
    for repr_, before, after, data in AuditEvent.objects.values_list("object_repr", "before", "after", "data"):
        out.update(str(v) for v in (repr_, before, after, data) if v)
    for target, reason, payload in Approval.objects.values_list("target_repr", "reason", "payload"):
        out.update(str(v) for v in (target, reason, payload) if v)
    return sorted((_norm(t) for t in out if len(t) > 3), key=len, reverse=True)


# Staff pages with an object in their address: the demo objects they are rendered for.
def _objects() -> dict[str, list[int]]:
    from casino.models import (
        CasinoRuleVersion,
        Complaint,
        Discrepancy,
        Dispute,
        Jackpot,
        RecordedRound,
        Table,
        Venue,
    )
    from compliance.models import AuditEvent, RegistryImport, Report
    from lottery.models import Draw, RetailImport, RuleSet
    from players.models import Person

    draws = list(Draw.objects.order_by("pk").values_list("pk", flat=True))
    # One audit event of each action: the detail page says what each kind of change was.
    audit = sorted({action: pk for pk, action in AuditEvent.objects.order_by("-pk").values_list("pk", "action")}.values())
    rules = list(CasinoRuleVersion.objects.order_by("pk").values_list("pk", flat=True))
    # One table and one recorded round of each game (each family's answer reads differently), and every
    # round with a discrepancy (the engine's findings in words).
    tables = sorted({game: pk for pk, game in Table.objects.order_by("-pk").values_list("pk", "game")}.values())
    discrepancies = list(Discrepancy.objects.order_by("pk").values_list("pk", "round_id"))
    rounds = sorted({game: pk for pk, game in RecordedRound.objects.order_by("-pk").values_list("pk", "game")}.values())
    rounds = sorted(set(rounds) | {round_id for _pk, round_id in discrepancies})
    return {
        "compliance:audit-detail": audit,
        "compliance:registry-import": list(RegistryImport.objects.values_list("pk", flat=True)),
        "players:detail": list(Person.objects.values_list("pk", flat=True)),
        "lottery:ruleset": list(RuleSet.objects.values_list("pk", flat=True)),
        "lottery:draw": draws,
        "lottery:draw-winners": draws,
        "lottery:draw-correction": draws,
        "lottery:import": list(RetailImport.objects.values_list("pk", flat=True)),
        "casino:rule-version": rules[:: max(1, len(rules) // 12)],
        "casino:venue": list(Venue.objects.order_by("pk").values_list("pk", flat=True)),
        "casino:table": tables,
        "casino:round": rounds,
        "casino:discrepancy-resolve": [pk for pk, _round in discrepancies],
        "casino:dispute": list(Dispute.objects.values_list("pk", flat=True)),
        "casino:dispute-amend": list(Dispute.objects.values_list("pk", flat=True)),
        "casino:complaint": list(Complaint.objects.values_list("pk", flat=True)),
        "casino:jackpot": list(Jackpot.objects.order_by("pk").values_list("pk", flat=True)),
        "casino:jackpot-remove": list(Jackpot.objects.order_by("pk").values_list("pk", flat=True)),
        "compliance:report-status": list(Report.objects.values_list("pk", flat=True)),
    }


def _staff_routes():
    """(url name, route) of every page of the staff UI: not the API, not the admin, not the sign-in steps."""
    for route, name, callback in ROUTES:
        if route.startswith(("api/", "i18n/", "accounts/", "admin/", "healthz")):
            continue
        yield name, route, _view_class(callback)


def _addresses(objects) -> list[tuple[str, str]]:
    out = []
    for name, route, _view in _staff_routes():
        if "<" not in route:
            out.append((name, reverse(name)))
        else:
            out.extend((name, reverse(name, kwargs={"pk": pk})) for pk in objects.get(name, ()))
    return out


@pytest.fixture
def demo(db):
    """The demo data of every app, and a report of each kind (for the archive page and the PDFs)."""
    call_command("seed_demo", stdout=io.StringIO())
    from django.contrib.auth import get_user_model

    from compliance.reports.kinds import KINDS
    from compliance.reports.render import report_request

    officer = get_user_model().objects.get(username="compliance")
    for key, definition in KINDS.items():
        report_request(actor=officer, kind=key, params=_report_params(definition), language="fi")
    return get_user_model().objects.filter(username__in=["operator", "supervisor", "compliance", "auditor", "admin"])


def _report_params(definition) -> dict:
    from lottery.models import Draw, DrawState

    if definition.key == "draw_payout":
        return definition.prepare({"draw": Draw.objects.filter(state=DrawState.PAID).order_by("pk").first().pk})
    today = timezone.localdate()
    return definition.prepare({"since": (today - dt.timedelta(days=60)).isoformat(), "until": today.isoformat()})


GET_ONLY_STATUSES = (200,)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_staff_page_shows_english_in_finnish_or_swedish(client, demo, language):
    finder = EnglishFinder(language)
    recorded = recorded_texts()
    objects = _objects()
    pages = _addresses(objects)
    problems: dict[str, set[str]] = {}
    seen = 0
    for user in demo:
        client.force_login(user)
        for name, url in pages:
            response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
            if response.status_code not in GET_ONLY_STATUSES or "html" not in response.get("Content-Type", ""):
                continue  # not this role's page (403), or an action that takes POST only (405)
            seen += 1
            found = finder.findings(visible_texts(response.content.decode()), recorded)
            if found:
                problems.setdefault(url, set()).update(found)
    translation.activate(settings.LANGUAGE_CODE)
    assert seen > 100, "the walk rendered too few pages to mean anything"
    english = _by_msgid(problems)
    assert english == {}, "English on the pages:\n" + pformat(english, width=150)


def _by_msgid(problems: dict[str, set[str]]) -> dict[str, list[str]]:
    """English msgid -> the first pages it was seen on: the shortest list to act on."""
    out: dict[str, list[str]] = {}
    for url, found in sorted(problems.items()):
        for msgid in found:
            out.setdefault(msgid, []).append(url)
    return {msgid: urls[:3] for msgid, urls in sorted(out.items())}


# Object pages that are no page: a job's progress as JSON, a file download, the identifier reveal (POST).
NOT_PAGES = {"compliance:registry-import-status", "compliance:report-download", "lottery:draw-progress",
             "lottery:import-status", "lottery:draw-import", "lottery:draw-payout-report",
             "players:reveal-identifier"}


def test_every_staff_page_with_an_object_in_its_address_is_walked(demo):
    """A new object page must be added to _objects(), or the walk would silently leave it out."""
    shown = {name for name, route, view in _staff_routes() if "<" in route and hasattr(view, "get")}
    assert shown - set(_objects()) - NOT_PAGES == set()


@pytest.mark.parametrize("text", ["Sales of Lotto #1003 are closed.", "Draw supervisor", "open"])
def test_the_finder_finds_english_of_the_catalogue_in_a_page(text):
    """The check can fail: a sentence of a msgid around its placeholder, a whole element's English."""
    assert EnglishFinder("fi").findings(["Tila:", f" {text} "]) != set()


def test_the_finder_leaves_the_translation_and_names_alone():
    assert EnglishFinder("fi").findings(["Kierroksen Lotto #1003 myynti on suljettu.", "Eurojackpot", "Keno"]) == set()


def _messages_after(client, url, data, language) -> list[str]:
    """What the reader is told after posting: the messages set, and the errors shown beside the fields
    of a refused form (issue 18: a form that is refused comes back with each error beside its field, so
    a refused result is said there, not in a message)."""
    response = client.post(url, data, HTTP_ACCEPT_LANGUAGE=language, follow=True)
    if not response.context:
        return []
    said = [str(m) for m in response.context["messages"]]
    form = response.context.get("result_form")
    if form is not None and form.is_bound:
        said.extend(str(e) for errors in form.errors.values() for e in errors)
    return said


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_messages_of_the_draw_actions_are_in_the_readers_language(client, demo, language):
    """What the messages framework says after an action, refused or done: the result entered on a draw
    still open (the state names), a result that is not one, sales closed, a result entered."""
    from django.contrib.auth import get_user_model

    from lottery.models import Draw

    lotto = {d.number: d for d in Draw.objects.filter(game__code="lotto")}
    client.force_login(get_user_model().objects.get(username="operator"))
    result = {"enter-numbers": "1 2 3 4 5 6 7", "enter-additional": "8", "enter-plus": "3",
              "enter-draw_method": "device", "enter-witnesses": "Notaari"}
    said = [
        *_messages_after(client, reverse("lottery:draw-enter", args=[lotto[1003].pk]), result, language),
        *_messages_after(client, reverse("lottery:draw-enter", args=[lotto[1002].pk]),
                         {**result, "enter-numbers": "1 2 3"}, language),
        *_messages_after(client, reverse("lottery:draw-close", args=[lotto[1003].pk]), {}, language),
        *_messages_after(client, reverse("lottery:draw-enter", args=[lotto[1002].pk]), result, language),
    ]
    translation.activate(settings.LANGUAGE_CODE)
    assert len(said) >= 4 and EnglishFinder(language).findings(said, recorded_texts()) == set(), said


@pytest.fixture
def pdf_sources(monkeypatch):
    """The HTML each PDF is made from (WeasyPrint's input): its text as the reader sees it, not as a
    PDF text extraction splits it across table cells."""
    import weasyprint

    sources: list[str] = []
    real = weasyprint.HTML

    def keep(*args, string=None, **kwargs):
        sources.append(string)
        return real(*args, string=string, **kwargs)

    monkeypatch.setattr(weasyprint, "HTML", keep)
    return sources


def _report_pdfs(language, pdf_sources) -> dict[str, tuple[str, str]]:
    """kind -> (the HTML given to WeasyPrint, the PDF's text), for each report kind in `language`."""
    from pypdf import PdfReader

    from compliance.reports.kinds import KINDS
    from compliance.reports.render import render_bytes

    out = {}
    for key, definition in KINDS.items():
        pdf, _csv, _rows, _pages = render_bytes(key, _report_params(definition), language)
        out[key] = (pdf_sources[-1], "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(pdf)).pages))
    return out


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_report_pdf_shows_english_in_finnish_or_swedish(demo, pdf_sources, language):
    finder = EnglishFinder(language)
    recorded = recorded_texts()
    problems = {}
    for key, (html, _text) in _report_pdfs(language, pdf_sources).items():
        found = finder.findings(visible_texts(html), recorded)
        if found:
            problems[key] = sorted(found)
    assert problems == {}, "English in the PDFs:\n" + pformat(problems, width=150)


# An amount with a decimal point ("1234.56", "1,234.56"): English, never Finnish or Swedish.
DECIMAL_POINT = re.compile(r"(?<![\d.])\d{1,3}(?:,\d{3})*\.\d{2}(?![\d.])|(?<![\d.])\d+\.\d{2}(?![\d.])")


@pytest.mark.parametrize("language", LANGUAGES)
def test_report_pdfs_write_amounts_with_a_decimal_comma(demo, pdf_sources, language):
    pdfs = _report_pdfs(language, pdf_sources)
    points = {key: DECIMAL_POINT.findall(text)[:5] for key, (_html, text) in pdfs.items() if DECIMAL_POINT.search(text)}
    commas = [key for key, (_html, text) in pdfs.items() if re.search(r"\d,\d{2}(?!\d)", text)]
    assert (points, bool(commas)) == ({}, True), pformat(points)
