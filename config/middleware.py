"""Response headers of every page (DESIGN §7): what the browser may use, and no caching of pages
shown to a signed-in user (they carry personal data and must not stay in a shared workstation's
cache or a proxy). Content-Security-Policy comes from django-csp, Referrer-Policy from Django's
SecurityMiddleware (SECURE_REFERRER_POLICY)."""

from django.utils.cache import add_never_cache_headers

from compliance.audit import request_context

# No page of Valvoja uses any of these browser features.
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer", "ambient-light-sensor", "autoplay", "battery", "bluetooth", "camera",
        "display-capture", "fullscreen", "geolocation", "gyroscope", "hid", "magnetometer", "microphone",
        "midi", "payment", "publickey-credentials-get", "screen-wake-lock", "serial", "usb",
        "xr-spatial-tracking",
    )
)


class SecurityHeadersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        response.setdefault("Referrer-Policy", "same-origin")
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            add_never_cache_headers(response)  # Cache-Control: max-age=0, no-cache, no-store, must-revalidate, private
        return response


class AuditRequestMiddleware:
    """Runs each request inside compliance.audit.request_context, so that audit events recorded
    without a request of their own (signal receivers: a password saved by the admin's form) know the
    signed-in user and the client address."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        with request_context(request):
            return self.get_response(request)
