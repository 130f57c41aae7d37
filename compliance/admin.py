"""Django admin: reference data for Administrators. Regulated tables are read-only here."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.forms.models import model_to_dict
from django.utils.translation import gettext as _

from .audit import audit_record
from .controls import control_change_request, controlled_fields, field_value, staff_roles_change
from .models import (
    Approval,
    AuditEvent,
    ExclusionEntry,
    ExclusionRegistry,
    RegistryCall,
    RegistryImport,
    Report,
    ScreeningDecision,
)

User = get_user_model()


def _snapshot(obj) -> dict:
    data = model_to_dict(obj)
    data.pop("password", None)  # never into the audit trail
    return {k: (sorted(str(x) for x in v) if isinstance(v, list | tuple | set) else v) for k, v in data.items()}


class AuditedModelAdmin(admin.ModelAdmin):
    """Admin whose every add, change and delete is an audit event with before and after values."""

    def save_model(self, request, obj, form, change):
        before = _snapshot(type(obj).objects.get(pk=obj.pk)) if change and obj.pk else None
        super().save_model(request, obj, form, change)
        request._audit_before = before

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        obj = form.instance
        audit_record(
            actor=request.user,
            action=f"admin.{'change' if change else 'add'}",
            obj=obj,
            before=getattr(request, "_audit_before", None),
            after=_snapshot(obj),
            request=request,
            significant=isinstance(obj, User),
        )

    def delete_model(self, request, obj):
        before = _snapshot(obj)
        label, pk, text = obj._meta.label_lower, obj.pk, str(obj)
        super().delete_model(request, obj)
        audit_record(
            actor=request.user,
            action="admin.delete",
            object_type=label,
            object_id=pk,
            object_repr=text,
            before=before,
            request=request,
        )

    def delete_queryset(self, request, queryset):
        for obj in queryset:
            self.delete_model(request, obj)


class ControlledAdmin(AuditedModelAdmin):
    """Saving a controlled field (compliance.controls) files a request for a second person instead of
    changing it; the form's other fields are saved as usual. Rows of a fully controlled model are not
    added or deleted here."""

    def save_model(self, request, obj, form, change):
        fields = controlled_fields(obj)
        if change and fields:
            stored = type(obj).objects.get(pk=obj.pk)
            changed = {f: field_value(obj, f) for f in fields if field_value(obj, f) != field_value(stored, f)}
            if changed:
                control_change_request(actor=request.user, obj=stored, changes=changed, request=request)
                for name in changed:
                    setattr(obj, obj._meta.get_field(name).attname, field_value(stored, name))
                messages.warning(request, _("The change of %(fields)s waits for a second person's approval "
                                            "(Approvals).") % {"fields": ", ".join(changed)})
        super().save_model(request, obj, form, change)

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


admin.site.unregister(User)


@admin.register(User)
class AuditedUserAdmin(AuditedModelAdmin, UserAdmin):
    """Staff accounts. No superuser flag or single permissions here (`createsuperuser` is the audited
    break-glass); adding a role is a request a second person approves, removing one applies at once."""

    fieldsets = (
        (None, {"fields": ("username", "password")}),
        (_("Personal info"), {"fields": ("first_name", "last_name", "email")}),
        (_("Roles"), {"fields": ("is_active", "is_staff", "groups")}),
        (_("Important dates"), {"fields": ("last_login", "date_joined")}),
    )
    readonly_fields = ("is_staff", "last_login", "date_joined")
    list_display = ("username", "first_name", "last_name", "is_active", "is_staff")
    list_filter = ("is_active", "is_staff", "groups")

    def save_related(self, request, form, formsets, change):
        user = form.instance
        wanted = [g.name for g in form.cleaned_data.get("groups", [])]
        form.cleaned_data["groups"] = list(user.groups.all()) if change else []  # roles change below
        super().save_related(request, form, formsets, change)
        added = staff_roles_change(actor=request.user, user=user, roles=wanted, request=request)
        if added:
            messages.warning(request, _("Giving the role(s) %(roles)s waits for a second person's approval "
                                        "(Approvals).") % {"roles": ", ".join(added)})


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    list_display = ("seq", "created_at", "actor_repr", "action", "object_type", "object_id", "significant")
    list_filter = ("significant", "action")
    search_fields = ("actor_repr", "action", "object_type", "object_id", "object_repr")
    date_hierarchy = "created_at"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ExclusionRegistry)
class ExclusionRegistryAdmin(ControlledAdmin):
    """Switching a registry off or changing its adapter waits for a second person; a new registry may be
    added (it only adds protection)."""

    list_display = ("name", "kind", "jurisdiction", "source", "active", "last_updated")
    list_filter = ("kind", "active")

    def has_add_permission(self, request):
        return admin.ModelAdmin.has_add_permission(self, request)


def _controlled_beat_admin() -> None:
    """Regulated jobs (compliance.schedules) are switched off or retimed only with a second person."""
    from django_celery_beat.admin import PeriodicTaskAdmin
    from django_celery_beat.models import PeriodicTask

    class ControlledPeriodicTaskAdmin(ControlledAdmin, PeriodicTaskAdmin):
        actions = []  # the bulk enable/disable/run actions would bypass the request

    admin.site.unregister(PeriodicTask)
    admin.site.register(PeriodicTask, ControlledPeriodicTaskAdmin)


_controlled_beat_admin()


@admin.register(ExclusionEntry)
class ExclusionEntryAdmin(admin.ModelAdmin):
    """Entries come from the registries' imports (the compliance issue); read-only here."""

    list_display = ("registry", "external_id", "birth_date", "starts_at", "ends_at")
    list_filter = ("registry",)
    exclude = ("identifier_hash",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ScreeningDecision)
class ScreeningDecisionAdmin(admin.ModelAdmin):
    list_display = ("created_at", "action", "person", "amount_cents", "allowed", "actor_repr")
    list_filter = ("action", "allowed")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyAdmin(admin.ModelAdmin):
    """Written only by services (approvals, imports, reports, live calls); shown for reference."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Approval)
class ApprovalAdmin(ReadOnlyAdmin):
    list_display = ("pk", "kind", "target_repr", "state", "requester", "requested_at", "decided_by", "decided_at")
    list_filter = ("state", "kind")


@admin.register(RegistryImport)
class RegistryImportAdmin(ReadOnlyAdmin):
    list_display = ("pk", "registry", "file_name", "rows", "state", "uploaded_by_repr", "uploaded_at", "applied_by_repr")
    list_filter = ("state", "registry")


@admin.register(RegistryCall)
class RegistryCallAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "registry", "outcome", "duration_ms", "error")
    list_filter = ("outcome", "registry")


@admin.register(Report)
class ReportAdmin(ReadOnlyAdmin):
    list_display = ("pk", "kind", "language", "version", "status", "rows", "pages", "created_by_repr", "created_at")
    list_filter = ("kind", "status")
