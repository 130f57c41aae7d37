from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = "Players"

    def ready(self) -> None:
        # Imported here, not at the top: the app registry must be ready before the models load.
        from compliance import screening

        from . import registrations, rules, selectors, services  # noqa: F401  (services: approval handlers and controls)

        screening.register_player_side(screening.PlayerSide(
            effective_min_age=rules.effective_min_age, has_reached_age=rules.has_reached_age,
            active_self_exclusion=selectors.active_self_exclusion, effective_limits=selectors.effective_limits,
            window=selectors.window, deposited_cents=selectors.deposited_cents,
            net_loss_cents=selectors.net_loss_cents, play_seconds=selectors.play_seconds,
            cap_room=rules.cap_room, split_credit=rules.split_credit,
        ))
        registrations.register()
