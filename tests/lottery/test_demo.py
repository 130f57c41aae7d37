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
