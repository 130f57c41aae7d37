"""Staff pages: published prize rule versions and the prize calculator."""

from __future__ import annotations

import json

from django.utils import timezone
from django.views.generic import DetailView, ListView, TemplateView

from compliance.access import StaffPermissionRequired
from compliance.bounds import parse_int

from .forms import MULTIPLIER, CalculatorForm
from .models import RuleSet
from .rules.errors import RoundInputError, RulesError
from .selectors import prize_calculation, ruleset_effective
from .services.rulesets import check_tables_message, ruleset_check_tables


class RuleSetListView(StaffPermissionRequired, ListView):
    permission_required = "lottery.view_ruleset"
    template_name = "lottery/ruleset_list.html"
    model = RuleSet
    context_object_name = "rulesets"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        today = timezone.localdate()
        in_force = {r.game: r.pk for r in (ruleset_effective(g, today) for g in {x.game for x in ctx["rulesets"]}) if r}
        ctx["in_force"] = set(in_force.values())
        return ctx


class RuleSetDetailView(StaffPermissionRequired, DetailView):
    permission_required = "lottery.view_ruleset"
    template_name = "lottery/ruleset_detail.html"
    model = RuleSet
    context_object_name = "ruleset"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["params_json"] = json.dumps(self.object.params, indent=2, ensure_ascii=False)
        ctx["classes"] = self.object.params.get("classes", [])
        cells = ruleset_check_tables(self.object)
        ctx["check_tables"] = check_tables_message(self.object.game, self.object.version, cells,
                                                   published=True).splitlines() if cells else []
        return ctx


class PrizeCalculatorView(StaffPermissionRequired, TemplateView):
    """Pick a game and rule version, fill in a round, see the command's result explained."""

    permission_required = "lottery.use_prize_calculator"
    template_name = "lottery/calculator.html"

    def _ruleset(self, game: str | None, ruleset_id: str | None) -> RuleSet | None:
        if parse_int(ruleset_id) is not None:
            found = RuleSet.objects.filter(pk=parse_int(ruleset_id), game=game).first()
            if found:
                return found
        return ruleset_effective(game, timezone.localdate()) if game else None

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        params = self.request.GET
        game = params.get("game") or "lotto"
        ruleset = self._ruleset(game, params.get("ruleset"))
        rule_params = ruleset.params if ruleset else {}
        form = CalculatorForm(
            params if "calculate" in params else None,
            initial={"game": game, "ruleset": ruleset},
            classes=[] if game in MULTIPLIER else rule_params.get("classes", []),
            plussa_classes=(rule_params.get("plussa") or {}).get("classes", []),
        )
        ctx.update(form=form, game=game, ruleset=ruleset, multiplier=game in MULTIPLIER,
                   versions=RuleSet.objects.filter(game=game))
        if form.is_bound and form.is_valid():
            round_input = form.round_input()
            chosen = form.cleaned_data.get("ruleset") or ruleset
            ctx["round_input_json"] = json.dumps(round_input, indent=2, ensure_ascii=False)
            try:
                used, result = prize_calculation(round_input, version=chosen.version if chosen else None)
            except RoundInputError as exc:
                ctx["error"] = {"field": exc.field, "message": exc.message}
            except (RulesError, RuleSet.DoesNotExist) as exc:
                ctx["error"] = {"field": "", "message": str(exc)}
            else:
                ctx.update(
                    result=result,
                    used=used,
                    result_json=json.dumps(result, indent=2, ensure_ascii=False),
                    class_rows=_explained_classes(result),
                )
        return ctx


def _explained_classes(result: dict) -> list[dict]:
    """Class rows with the engine's explanation lines that concern each class ("Class 3: ...")."""
    rows = []
    for key, data in result["classes"].items():
        prefix = f"Class {key}:"
        notes = [line.removeprefix(prefix).strip() for line in result.get("explain", []) if line.startswith(prefix)]
        rows.append({"key": key, "notes": notes, **data})
    return rows
