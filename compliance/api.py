"""Read-only audit API for auditors and integrations (SIEM, archive)."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from .forms import AuditFilterForm
from .models import AuditEvent
from .selectors import audit_events
from .serializers import AuditEventSerializer

_FILTER_PARAMS = [
    OpenApiParameter("since", OpenApiTypes.DATETIME, description="Events at or after this time"),
    OpenApiParameter("until", OpenApiTypes.DATETIME, description="Events before this time"),
    OpenApiParameter("actor", OpenApiTypes.STR, description="User name (exact, case-insensitive)"),
    OpenApiParameter("action", OpenApiTypes.STR, description="Action prefix, e.g. auth."),
    OpenApiParameter("object_type", OpenApiTypes.STR, description="e.g. auth.user"),
    OpenApiParameter("object_id", OpenApiTypes.STR),
    OpenApiParameter("significant", OpenApiTypes.BOOL),
]


class AuditEventListAPI(generics.ListAPIView):
    permission_required = "compliance.view_auditevent"
    serializer_class = AuditEventSerializer

    @extend_schema(parameters=_FILTER_PARAMS)
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        form = AuditFilterForm(self.request.query_params)
        if not form.is_valid():
            raise ValidationError(form.errors.get_json_data())
        return audit_events(form.to_filter())


class AuditEventDetailAPI(generics.RetrieveAPIView):
    permission_required = "compliance.view_auditevent"
    serializer_class = AuditEventSerializer

    queryset = AuditEvent.objects.all()


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    roles = serializers.ListField(child=serializers.CharField())
    permissions = serializers.ListField(child=serializers.CharField())


class MeAPI(generics.GenericAPIView):
    """Who the caller is: user name, roles and permissions (for integration set-up checks)."""

    permission_required = "compliance.use_api"
    serializer_class = MeSerializer

    def get(self, request):
        user = request.user
        return Response(
            MeSerializer(
                {
                    "username": user.get_username(),
                    "roles": sorted(user.groups.values_list("name", flat=True)),
                    "permissions": sorted(user.get_all_permissions()),
                }
            ).data
        )
