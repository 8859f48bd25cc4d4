from django import forms
from django.utils.translation import gettext_lazy as _

from bobing import journal

from . import codes
from .codes import class_names  # (codes.py's: the forms import codes, never the other way)
from .ingest import ACCEPT_LABEL


def all_class_choices():
    return [("", _("choose the class shown on the bowl"))] + [(c, "%s %s" % (zh, c)) for c, zh in class_names().items()]


def class_choices():
    """The classes an empty form offers: the newest event's, else those the desk
    has seen in games and awards, else every class the firmware knows; highest
    first, and no class chosen until the attendant picks the one on the bowl's
    screen. (A form sent back is checked against every class the firmware knows.)"""
    from .models import Award, Event, EventClass, Game
    names = class_names()
    ev = Event.objects.order_by("-started").first()
    have = set(EventClass.objects.filter(event=ev).values_list("cls", flat=True)) if ev else set()
    if not have:
        have = set(Award.objects.values_list("cls", flat=True).distinct())
        for stock in Game.objects.values_list("stock", flat=True)[:200]:
            have.update(c for c, _n in stock)
    order = list(names)
    have = sorted((c for c in have if c in names) or names, key=order.index)
    return [("", _("choose the class shown on the bowl"))] + [(c, "%s %s" % (names[c], c)) for c in have]


class CodeField(forms.CharField):
    def to_python(self, value):
        return codes.normalize(super().to_python(value))


class CodeForm(forms.Form):
    # room for the claim screen's QR text, which a USB scanner types here too
    code = CodeField(max_length=120, label=_("Claim code"),
                     widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters",
                                                   "placeholder": "XXXX-XXXX", "autofocus": True}))


class AwardForm(CodeForm):
    """A code with the award it is for, read off the bowl's claim screen."""
    bowl = forms.CharField(max_length=32, label=_("Bowl id"))
    game = forms.IntegerField(min_value=1, max_value=journal.MAX_GAME_ID, label=_("Game no"))
    award = forms.IntegerField(min_value=1, max_value=99999999, label=_("Award no"))
    cls = forms.ChoiceField(choices=all_class_choices, label=_("Prize class"))

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        if not self.is_bound:
            self.fields["cls"].choices = class_choices()


class JournalForm(forms.Form):
    journal = forms.FileField(label=_("Journal file (gNNNNNNNN.bbj)"))
    # shown to supervisors only; the view believes it only from one (ingest.supervisor)
    unsealed = forms.BooleanField(required=False, label=_(ACCEPT_LABEL))


class RateForm(forms.Form):
    rate = forms.FloatField(min_value=0.1, max_value=10000, label=_("Customers per hour"))


def bowl_choices():
    from .models import Bowl
    return [("", _("choose the bowl"))] + [(b, b) for b in Bowl.objects.order_by("bowl_id").values_list(
        "bowl_id", flat=True)]


class ShakeForm(forms.Form):
    """Shakes granted at the counter: the bowl, how many, the receipt checked."""
    event = forms.RegexField(regex=r'^[^/+#"\\\s$][^/+#"\\\s]{0,31}$', label=_("Event"))
    bowl = forms.ChoiceField(choices=bowl_choices, label=_("Bowl id"))
    shakes = forms.IntegerField(min_value=1, max_value=99, label=_("Shakes"))
    # required: a receipt is granted once per event (shakegrants.grant); without one only on the tick
    ref = forms.RegexField(regex=r'^[ !#-\[\]-{}~]*$', max_length=24, required=False, label=_("Receipt or reference"),
                           error_messages={"invalid": _("Letters, digits and signs only (no | or quotes).")})
    # shown to supervisors only; the view believes it only from one (ingest.supervisor)
    again = forms.BooleanField(required=False, label=_("Supervisor: grant again on a receipt already granted "
                                                       "(or without a receipt)"))
