"""`{% load words %}`: codes in words (compliance.words) for the audit, approvals and reports pages.

`{{ e.action|action_words }}`, `{{ e.object_type|object_type_words }}`, `{% object_url type id as url %}`,
`{% include "compliance/_facts.html" with facts=e.data|facts %}`."""

from django import template

from compliance import words

register = template.Library()


@register.filter
def action_words(code) -> str:
    return words.action_words(str(code or ""))


@register.filter
def object_type_words(label) -> str:
    return words.object_type_words(str(label or ""))


@register.simple_tag
def object_url(label, object_id) -> str:
    return words.object_url(str(label or ""), object_id)


@register.simple_tag
def object_words(label, object_id, stored) -> str:
    """An audit event's object by its app's name for it ("Early lifting of a ban #4"), else as stored."""
    return words.object_name(str(label or ""), object_id) or stored or str(object_id or "")


@register.filter
def reason_words(reason) -> str:
    """A logged screening reason ({"code", "message", "params"}) as its sentence in the reader's language."""
    from compliance.screening import reason_message

    return str(reason_message(reason)) if isinstance(reason, dict) else str(reason or "")


@register.filter
def facts(payload) -> list:
    return words.payload_facts(payload)
