"""Demo draws: a paid round, one awaiting its result, open ones; loading again adds nothing."""

import io

from django.core.management import call_command

from lottery.models import Draw, DrawState


def test_the_demo_has_a_round_in_every_stage(db):
    call_command("seed_demo", stdout=io.StringIO())
    states = dict(Draw.objects.filter(game__code="lotto").values_list("number", "state"))
    assert states == {1001: DrawState.PAID, 1002: DrawState.CLOSED, 1003: DrawState.OPEN}


def test_loading_the_demo_again_adds_no_draw(db):
    call_command("seed_demo", stdout=io.StringIO())
    count = Draw.objects.count()
    call_command("seed_demo", stdout=io.StringIO())
    assert Draw.objects.count() == count


def test_the_demo_has_an_open_keno_round_with_sales_and_a_jokeri_draw_linked_to_lotto(db):
    call_command("seed_demo", stdout=io.StringIO())
    keno = Draw.objects.get(game__code="keno", number=2001)
    jokeri = Draw.objects.get(game__code="jokeri", number=1003)
    assert (keno.state, keno.retail_imports.get().lines, jokeri.state, jokeri.main_draw.game.code,
            jokeri.main_draw.number) == (DrawState.OPEN, 800, DrawState.OPEN, "lotto", 1003)
