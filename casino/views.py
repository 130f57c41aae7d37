"""Staff pages: the round check, and the rules of every game and variant with their house edge."""

from __future__ import annotations

import hashlib
import json
from decimal import Decimal

from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.forms.utils import ErrorDict, ErrorList
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from django.views.generic import TemplateView

from casino.rules import registry, versions
from casino.rules.venues import LEGAL
from compliance.access import StaffPermissionRequired
from compliance.errors import DomainError, InvalidInput
from compliance.money import euros_to_cents

from . import operations, services
from .forms import (
    SEP,
    BetFormSet,
    ResolveForm,
    RoundCheckForm,
    RoundEntryForm,
    RoundFileForm,
    RoundFilterForm,
    TableForm,
    TableVersionForm,
    VenueForm,
    code_label,
    place_error,
)
from .messages import message_words
from .models import CasinoRuleVersion, Discrepancy, RecordedRound, RoundBatch, RoundVerification, Table, Venue
from .outcome_form import OutcomeForm
from .selectors import house_edges, rounds_filtered, variant_choices, version_at
from .verification import round_result

#: What became of a bet (casino.rules.base), in staff words.
STATUS = {"won": pgettext_lazy("bet", "won"), "lost": pgettext_lazy("bet", "lost"),
          "push": pgettext_lazy("bet", "push: stake back"), "half_back": pgettext_lazy("bet", "half back"),
          "imprisoned": pgettext_lazy("bet", "en prison (held)"), "void": pgettext_lazy("bet", "void: stake back"),
          "refused": pgettext_lazy("bet", "refused (under age)")}


class RoundCheckView(StaffPermissionRequired, TemplateView):
    """Pick the game and venue, enter the bets and the outcome, see what every bet should have paid."""

    permission_required = "casino.check_round"
    template_name = "casino/round_check.html"

    def get(self, request, *args, **kwargs):
        initial = {"game": request.GET.get("game", ""), "venue": request.GET.get("venue", "")}
        form = RoundCheckForm(initial=initial)
        return self.render_to_response(self.get_context_data(
            form=form, rows=BetFormSet(prefix="bets"), outcomes=_outcome_forms(None, form.game_key())))

    def post(self, request, *args, **kwargs):
        form, rows = RoundCheckForm(request.POST), BetFormSet(request.POST, prefix="bets")
        outcomes = _outcome_forms(request.POST, form.game_key())
        ctx = {"form": form, "rows": rows, "outcomes": outcomes}
        if "show_fields" in request.POST:  # no script: the chosen game's fields, what was typed kept, no errors
            for bound in (form, *rows.forms, *(o["form"] for o in outcomes)):
                bound._errors = ErrorDict()
            rows._non_form_errors = ErrorList()
            return self.render_to_response(self.get_context_data(**ctx))
        chosen = next((o["form"] for o in outcomes if not o["hidden"]), None)
        if form.is_valid() and rows.is_valid() and (chosen is None or chosen.is_valid()):
            filled = [row for row in rows if not row.is_blank()]
            if not filled:
                rows.forms[0].add_error("type", _("Enter at least one bet."))
            else:
                try:
                    check = services.round_check(
                        actor=request.user, request=request, bets=[row.bet() for row in filled],
                        paid=[row.cleaned_data.get("paid") or None for row in filled]
                        if any(row.cleaned_data.get("paid") for row in filled) else None,
                        **form.round_args(chosen.outcome() if chosen is not None else {}))
                except InvalidInput as exc:
                    ctx["refusal"] = _("The round was refused: see the messages beside the fields.")
                    for field, messages in exc.field_messages().items():
                        for message in messages:
                            place_error(field, message, form, filled, chosen)
                else:
                    ctx.update(check=check, lines=_lines(check.answer, filled),
                               voided_cents=euros_to_cents(check.answer["voided_excess"]),
                               capped_cents=euros_to_cents(check.answer["capped_excess"]),
                               input_json=json.dumps(check.round_input, indent=2, ensure_ascii=False),
                               answer_json=json.dumps(check.answer, indent=2, ensure_ascii=False))
        return self.render_to_response(self.get_context_data(**ctx))


def _outcome_forms(data, chosen: str) -> list[dict]:
    """Every game's outcome fieldset (built from its engine's `outcome_fields`); all but the chosen
    game's are hidden (the page's script swaps them when the game changes)."""
    engines = sorted(registry.engines().items())
    chosen = chosen or (SEP.join(engines[0][0]) if engines else "")
    return [{"key": SEP.join(key), "label": f"{key[0]} · {code_label(key[1])}", "hidden": SEP.join(key) != chosen,
             "form": OutcomeForm(engine.outcome_fields, data, prefix=f"oc-{key[0]}-{key[1]}")}
            for key, engine in engines]


def _lines(answer: dict, rows) -> list[dict]:
    """The answer's bets in cents for the page (|money), beside the row they came from."""
    out = []
    for row, bet in zip(rows, answer["bets"]):
        out.append({
            "type": row.cleaned_data["type"], "box": row.cleaned_data.get("box"), "status": STATUS.get(bet["status"], bet["status"]),
            "stake": euros_to_cents(bet["stake"]), "voided": euros_to_cents(bet["voided_excess"]), "capped": euros_to_cents(bet["capped_excess"]),
            "payout": euros_to_cents(bet["payout"]), "winnings": euros_to_cents(bet["winnings"]), "rule": bet["rule"],
            "note": bet.get("note", ""), "violations": [message_words(v) for v in bet.get("violations", [])],
            "paid": euros_to_cents(bet.get("paid")), "difference": euros_to_cents(bet.get("difference")),
        })
    return out


class RulesView(StaffPermissionRequired, TemplateView):
    """Every game and variant the engines know, with the version in force and its effective date;
    `?game=000/roulette` shows that game's variants only, each with the paytable and the house edge
    of its version in force (all games at once would enumerate every family's outcomes in one request)."""

    permission_required = "casino.view_casinoruleversion"
    template_name = "casino/rules.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        now = timezone.now()
        by_variant: dict[tuple[str, str, str], list[CasinoRuleVersion]] = {}
        for v in CasinoRuleVersion.objects.order_by("-effective_from").only(
                "rulebook", "game", "variant", "version", "effective_from", "rules_sha256"):
            by_variant.setdefault((v.rulebook, v.game, v.variant), []).append(v)
        games = sorted({(rulebook, game) for rulebook, game, _variant in variant_choices()})
        chosen = self.request.GET.get("game", "")
        chosen_key = tuple(chosen.split(SEP)) if tuple(chosen.split(SEP)) in games else None
        rows = []
        for key in variant_choices():
            if chosen_key and key[:2] != chosen_key:
                continue
            published = by_variant.get(key, [])
            in_force = next((v for v in published if v.effective_from <= now), None)
            upcoming = [v for v in published if v.effective_from > now]
            row = {"rulebook": key[0], "game": key[1], "variant": key[2], "in_force": in_force,
                   "upcoming": upcoming[-1] if upcoming else None, "count": len(published)}
            if chosen_key and in_force:  # `rules` is loaded here, for the chosen game's versions only
                row.update(cells=versions.payout_cells(in_force.rules).items(),
                           edges=house_edges(in_force.rulebook, in_force.game, in_force.rules))
            rows.append(row)
        ctx.update(rows=rows, games=[SEP.join(g) for g in games], chosen=SEP.join(chosen_key) if chosen_key else "")
        return ctx


class RuleVersionView(StaffPermissionRequired, TemplateView):
    """One version: its paytable, the house edge of every bet, and the variant's other versions."""

    permission_required = "casino.view_casinoruleversion"
    template_name = "casino/rule_version.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        version = get_object_or_404(CasinoRuleVersion, pk=kwargs["pk"])
        siblings = CasinoRuleVersion.objects.filter(rulebook=version.rulebook, game=version.game,
                                                    variant=version.variant).order_by("-version")
        in_force = version_at(version.rulebook, version.game, version.variant, timezone.now())
        ctx.update(
            version=version, siblings=siblings, in_force=in_force,
            cells=versions.payout_cells(version.rules).items(),
            edges=house_edges(version.rulebook, version.game, version.rules),
            engine_module=type(registry.get(version.rulebook, version.game)).__module__,
            rules_json=json.dumps(version.rules, indent=2, ensure_ascii=False),
            check_url_game=SEP.join((version.rulebook, version.game, version.variant)),
        )
        return ctx


# --------------------------------------------------------------------------- casino operations (issue 19)


class VenuesView(StaffPermissionRequired, TemplateView):
    """The venues, and (casino manager) a new venue."""

    permission_required = "casino.view_venue"
    template_name = "casino/venues.html"

    def get(self, request, *args, **kwargs):
        return self.render_to_response(self._context(VenueForm()))

    def post(self, request, *args, **kwargs):
        if not request.user.has_perm("casino.manage_venues"):
            raise PermissionDenied
        form = VenueForm(request.POST)
        if form.is_valid():
            try:
                venue = operations.venue_create(actor=request.user, request=request, **form.cleaned_data)
            except DomainError as exc:
                exc.add_to_form(form)
            else:
                return redirect("casino:venue", pk=venue.pk)
        return self.render_to_response(self._context(form))

    def _context(self, form):
        venues = Venue.objects.annotate(table_count=Count("tables")).order_by("name")
        return self.get_context_data(venues=venues, form=form,
                                     may_manage=self.request.user.has_perm("casino.manage_venues"))


def _current(table: Table):
    now = timezone.now()
    return next((v for v in table.versions.all() if v.effective_from <= now), None)


class VenueView(StaffPermissionRequired, TemplateView):
    """A venue's frame and tables, and (casino manager) a new table."""

    permission_required = "casino.view_venue"
    template_name = "casino/venue.html"

    def get(self, request, *args, **kwargs):
        return self.render_to_response(self._context(TableForm(games=operations.games_known())))

    def post(self, request, *args, **kwargs):
        if not request.user.has_perm("casino.manage_venues"):
            raise PermissionDenied
        venue = get_object_or_404(Venue, pk=kwargs["pk"])
        form = TableForm(request.POST, games=operations.games_known())
        if form.is_valid():
            try:
                table = operations.table_create(actor=request.user, request=request, venue=venue,
                                                code=form.cleaned_data["code"], game=form.cleaned_data["game"],
                                                **form.config())
            except DomainError as exc:
                exc.add_to_form(form)
            else:
                return redirect("casino:table", pk=table.pk)
        return self.render_to_response(self._context(form))

    def _context(self, form):
        venue = get_object_or_404(Venue, pk=self.kwargs["pk"])
        tables = [{"table": t, "current": _current(t)} for t in venue.tables.prefetch_related("versions")]
        legal = LEGAL[(venue.rulebook, venue.frame)]
        return self.get_context_data(
            venue=venue, tables=tables, form=form, may_manage=self.request.user.has_perm("casino.manage_venues"),
            legal=[(cls, euros_to_cents(amount) if amount is not None else None)
                   for cls, amount in sorted(legal.max_stake.items())],
            legal_cap=euros_to_cents(legal.win_cap) if legal.win_cap is not None else None, legal_rule=legal.rule)


class TableView(StaffPermissionRequired, TemplateView):
    """A table's versions (newest first), and (casino manager) a new version."""

    permission_required = "casino.view_table"
    template_name = "casino/table.html"

    def get(self, request, *args, **kwargs):
        table = get_object_or_404(Table, pk=kwargs["pk"])
        latest = table.versions.order_by("-version").first()
        initial = {} if latest is None else {
            "variant": latest.variant, "min_stake": Decimal(latest.min_stake_cents) / 100,
            "max_stake": "\n".join(f"{c} = {a // 100}.{a % 100:02d}" for c, a in latest.max_stake_cents.items()),
            "win_cap": None if latest.win_cap_cents is None else Decimal(latest.win_cap_cents) / 100,
            "side_games": ", ".join(latest.side_games), "opening_hours": latest.opening_hours,
            "payout_sign": latest.payout_sign, "zero_rule": latest.zero_rule, "records": latest.records}
        return self.render_to_response(self._context(table, TableVersionForm(initial=initial)))

    def post(self, request, *args, **kwargs):
        if not request.user.has_perm("casino.manage_venues"):
            raise PermissionDenied
        table = get_object_or_404(Table, pk=kwargs["pk"])
        form = TableVersionForm(request.POST)
        if form.is_valid():
            try:
                operations.table_version_create(actor=request.user, request=request, table=table, **form.config())
            except DomainError as exc:
                exc.add_to_form(form)
            else:
                return redirect("casino:table", pk=table.pk)
        return self.render_to_response(self._context(table, form))

    def _context(self, table, form):
        return self.get_context_data(table=table, versions=table.versions.order_by("-version"), form=form,
                                     current=_current(table), systems=table.systems.all(),
                                     may_manage=self.request.user.has_perm("casino.manage_venues"))


ROUNDS_PER_PAGE = 50


class RoundsView(StaffPermissionRequired, TemplateView):
    """Recorded rounds with filters, newest first; pages without a count (millions of rounds). An
    inspector also sends a round file here."""

    permission_required = "casino.view_recordedround"
    template_name = "casino/rounds.html"

    def get(self, request, *args, **kwargs):
        return self.render_to_response(self._context(RoundFileForm()))

    def post(self, request, *args, **kwargs):
        if not request.user.has_perm("casino.record_round"):
            raise PermissionDenied
        form = RoundFileForm(request.POST, request.FILES)
        batch = report = None
        if form.is_valid():
            upload = form.cleaned_data["file"]
            digest = hashlib.sha256()
            for block in upload.chunks():
                digest.update(block)
            try:
                batch = operations.rounds_import_file(actor=request.user, request=request, file=upload.file,
                                                      name=upload.name, sha256=digest.hexdigest())
            except DomainError as exc:
                form.add_error(None, exc.detail)
                report = exc.extra.get("rows", [])
        return self.render_to_response(self._context(form, batch=batch, report=report))

    def _context(self, file_form, **extra):
        filters = RoundFilterForm(self.request.GET or None)
        args = {}
        if filters.is_valid():
            d = filters.cleaned_data
            args = {"venue": d["venue"].pk if d.get("venue") else None, "table": d.get("table"), "day": d.get("day"),
                    "game": d.get("game") or "", "person": d.get("person"),
                    "discrepancy_only": d.get("discrepancy_only", False)}
        try:
            number = max(1, int(self.request.GET.get("page", "1")))
        except ValueError:
            number = 1
        start = (number - 1) * ROUNDS_PER_PAGE
        rows = list(rounds_filtered(**args)[start:start + ROUNDS_PER_PAGE + 1])
        query = self.request.GET.copy()
        query.pop("page", None)
        return self.get_context_data(
            filters=filters, rounds=rows[:ROUNDS_PER_PAGE], page=number, has_next=len(rows) > ROUNDS_PER_PAGE,
            query=query.urlencode(), file_form=file_form, may_record=self.request.user.has_perm("casino.record_round"),
            **extra)


class RoundEntryView(StaffPermissionRequired, TemplateView):
    """An inspector enters one round."""

    permission_required = "casino.record_round"
    template_name = "casino/round_entry.html"

    def get(self, request, *args, **kwargs):
        return self.render_to_response(self.get_context_data(form=RoundEntryForm()))

    def post(self, request, *args, **kwargs):
        form = RoundEntryForm(request.POST)
        if form.is_valid():
            try:
                batch = operations.rounds_record(actor=request.user, request=request, rounds=[form.round()],
                                                 source=RoundBatch.Source.INSPECTOR)
            except DomainError as exc:
                for row in exc.extra.get("rows", []):
                    name = row["field"].split("[", 1)[0].split(".", 1)[0]
                    form.add_error(name if name in form.fields else None, f"{row['field']}: {row['message']}")
                if not exc.extra.get("rows"):
                    exc.add_to_form(form)
            else:
                return redirect("casino:round", pk=batch.first_round_id)
        return self.render_to_response(self.get_context_data(form=form))


class RoundView(StaffPermissionRequired, TemplateView):
    """One round: its bets, the outcome, what the engine says each bet should have paid, what was
    paid and the difference; its discrepancies and corrections."""

    permission_required = "casino.view_recordedround"
    template_name = "casino/round.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        r = get_object_or_404(RecordedRound.objects.select_related("table__venue", "table_version", "corrects"),
                              pk=kwargs["pk"])
        result = round_result(r)
        lines = []
        answer_bets = (result["answer"] or {}).get("bets", [])
        for index, bet in enumerate(r.bets):
            due = result["due"][index] if result["due"] else None
            paid = r.paid_cents[index]
            engine = answer_bets[index] if index < len(answer_bets) else {}
            lines.append({"index": index, "type": bet.get("type"), "box": bet.get("box"), "person": bet.get("person"),
                          "stake": euros_to_cents(bet.get("stake")), "status": STATUS.get(engine.get("status"), ""),
                          "rule": engine.get("rule", ""),
                          "violations": [message_words(v) for v in engine.get("violations", [])],
                          "due": due, "paid": paid, "difference": None if due is None else paid - due})
        ctx.update(round=r, lines=lines, result=result,
                   outcome_json=json.dumps(r.outcome, ensure_ascii=False),
                   answer_json=json.dumps(result["answer"], indent=2, ensure_ascii=False) if result["answer"] else "",
                   discrepancies=r.discrepancies.select_related("resolved_by").order_by("id"),
                   corrections=r.corrections.all(), verification=getattr(r, "verification", None)
                   if RoundVerification.objects.filter(round=r).exists() else None,
                   resolve_form=ResolveForm(), may_resolve=self.request.user.has_perm("casino.resolve_discrepancy"))
        return ctx


class DiscrepanciesView(StaffPermissionRequired, TemplateView):
    """Discrepancies per venue and day, open ones first; resolving one takes a note."""

    permission_required = "casino.view_discrepancy"
    template_name = "casino/discrepancies.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        show_all = self.request.GET.get("all") == "1"
        qs = Discrepancy.objects.select_related("venue", "round__table", "resolved_by").order_by("-day", "venue__name", "id")
        if not show_all:
            qs = qs.filter(resolved_at__isnull=True)
        groups: dict[tuple, list] = {}
        for d in qs[:500]:
            groups.setdefault((d.venue, d.day), []).append(d)
        ctx.update(groups=[{"venue": v, "day": day, "items": items} for (v, day), items in groups.items()],
                   show_all=show_all, resolve_form=ResolveForm(),
                   may_resolve=self.request.user.has_perm("casino.resolve_discrepancy"))
        return ctx


class ResolveView(StaffPermissionRequired, TemplateView):
    permission_required = "casino.resolve_discrepancy"
    template_name = "casino/resolve.html"

    def get(self, request, *args, **kwargs):
        return self.render_to_response(self.get_context_data(
            discrepancy=get_object_or_404(Discrepancy, pk=kwargs["pk"]), form=ResolveForm()))

    def post(self, request, *args, **kwargs):
        discrepancy = get_object_or_404(Discrepancy, pk=kwargs["pk"])
        form = ResolveForm(request.POST)
        if form.is_valid():
            try:
                operations.discrepancy_resolve(actor=request.user, request=request, discrepancy=discrepancy,
                                               note=form.cleaned_data["note"])
            except DomainError as exc:
                exc.add_to_form(form)
            else:
                return redirect("casino:discrepancies")
        return self.render_to_response(self.get_context_data(discrepancy=discrepancy, form=form))
