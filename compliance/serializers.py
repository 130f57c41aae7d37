from rest_framework import serializers

from .models import AuditEvent


class AuditEventSerializer(serializers.ModelSerializer):
    class Meta:
        model = AuditEvent
        fields = [
            "id", "seq", "created_at", "actor_repr", "action", "object_type", "object_id",
            "object_repr", "before", "after", "data", "approver_repr", "ip_address",
            "significant", "prev_hash", "hash", "key_id",
        ]
        read_only_fields = fields
