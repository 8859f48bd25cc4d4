"""Response headers of every page: a Content-Security-Policy, and `Cache-Control:
no-store` on what a logged-in attendant sees (a code, a customer's prize, the
day's report must not stay in a shared browser's cache or history copy).

The pages' own <script> elements get the response's nonce here, so the policy
allows them and nothing else: a template's markup is trusted, and anything from
a user is escaped by the templates (it can never open a <script> element).
Event-handler attributes (onclick=...) are not allowed: scripts attach handlers."""
import re
import secrets

from django.utils.cache import add_never_cache_headers

_SCRIPT = re.compile(rb"<script(?=[\s>])")
POLICY = ("default-src 'self'; script-src 'self' 'nonce-%s'; style-src 'self' 'unsafe-inline'; "
          "img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; object-src 'none'; "
          "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


class Headers:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        resp = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            add_never_cache_headers(resp)  # Cache-Control: max-age=0, no-cache, no-store, must-revalidate, private
        nonce = secrets.token_urlsafe(16)
        if (resp.get("Content-Type", "").startswith("text/html") and not resp.streaming
                and b"<script" in resp.content):
            resp.content = _SCRIPT.sub(b'<script nonce="' + nonce.encode() + b'"', resp.content)
        resp.setdefault("Content-Security-Policy", POLICY % nonce)
        return resp
