"""Staff pages: the round check, and the rules of every game and variant with their house edge."""

from __future__ import annotations

import json

from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from django.views.generic import TemplateView

from casino.rules import registry, versions
from compliance.access import StaffPermissionRequired
from compliance.errors import InvalidInput
from compliance.money import euros_to_cents

from . import services
from .forms import SEP, BetFormSet, RoundCheckForm, place_error
from .models import CasinoRuleVersion
from .selectors import house_edges, variant_choices, version_at

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
        return self.render_to_response(self.get_context_data(form=RoundCheckForm(initial=initial),
                                                             rows=BetFormSet(prefix="bets")))

    def post(self, request, *args, **kwargs):
        form, rows = RoundCheckForm(request.POST), BetFormSet(request.POST, prefix="bets")
        ctx = {"form": form, "rows": rows}
        if form.is_valid() and rows.is_valid():
            filled = [row for row in rows if not row.is_blank()]
            if not filled:
                rows.forms[0].add_error("type", _("Enter at least one bet."))
            else:
                try:
                    check = services.round_check(
                        actor=request.user, request=request, bets=[row.bet() for row in filled],
                        paid=[row.cleaned_data.get("paid") or None for row in filled]
                        if any(row.cleaned_data.get("paid") for row in filled) else None,
                        **form.round_args())
                except InvalidInput as exc:
                    ctx["refusal"] = exc.detail
                    for field, messages in exc.field_messages().items():
                        for message in messages:
                            place_error(field, message, form, filled)
                else:
                    ctx.update(check=check, lines=_lines(check.answer, filled),
                               voided_cents=euros_to_cents(check.answer["voided_excess"]),
                               capped_cents=euros_to_cents(check.answer["capped_excess"]),
                               input_json=json.dumps(check.round_input, indent=2, ensure_ascii=False),
                               answer_json=json.dumps(check.answer, indent=2, ensure_ascii=False))
        return self.render_to_response(self.get_context_data(**ctx))


def _lines(answer: dict, rows) -> list[dict]:
    """The answer's bets in cents for the page (|money), beside the row they came from."""
    out = []
    for row, bet in zip(rows, answer["bets"]):
        out.append({
            "type": row.cleaned_data["type"], "box": row.cleaned_data.get("box"), "status": STATUS.get(bet["status"], bet["status"]),
            "stake": euros_to_cents(bet["stake"]), "voided": euros_to_cents(bet["voided_excess"]), "capped": euros_to_cents(bet["capped_excess"]),
            "payout": euros_to_cents(bet["payout"]), "winnings": euros_to_cents(bet["winnings"]), "rule": bet["rule"],
            "note": bet.get("note", ""), "violations": bet.get("violations", []),
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
