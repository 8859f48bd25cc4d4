"""Refuse an upload over the desk's limit before anything reads its body (the
CSRF check would parse a 50 MB form first): the styled, translated page."""
from django.conf import settings


def too_large(get_response):
    limit = settings.MAX_JOURNAL_BYTES + 65536  # a journal and the form around it

    def middleware(request):
        try:
            size = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            size = 0
        if size > limit:
            from .views import too_large as page
            return page(request)
        return get_response(request)
    return middleware


def attendant_language(get_response):
    """After LocaleMiddleware (cookie, browser) and the login: a logged-in attendant's own
    language (models.AttendantLanguage) wins."""
    from django.utils import translation
    from .models import AttendantLanguage

    def middleware(request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            code = AttendantLanguage.objects.filter(user=user).values_list("language", flat=True).first()
            if code and translation.check_for_language(code):
                translation.activate(code)
                request.LANGUAGE_CODE = translation.get_language()
        return get_response(request)
    return middleware
