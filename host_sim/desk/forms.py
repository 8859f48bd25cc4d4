from django import forms

from bobing import journal, profiles


def class_names():
    """{class id: Chinese name} over every prize spec of the firmware."""
    seen = {}
    for name in profiles.prize_names():
        for cid, zh, _n, _ranks in profiles.prize_spec(name)["classes"]:
            seen.setdefault(cid, zh)
    return seen


def class_choices():
    return sorted((cid, "%s %s" % (zh, cid)) for cid, zh in class_names().items())


class CodeForm(forms.Form):
    code = forms.CharField(max_length=20, label="Claim code",
                           widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters",
                                                         "placeholder": "XXXX-XXXX", "autofocus": True}))


class AwardForm(CodeForm):
    """A code with the award it is for, read off the bowl's claim screen."""
    bowl = forms.CharField(max_length=32, label="Bowl id")
    game = forms.IntegerField(min_value=1, max_value=journal.MAX_GAME_ID, label="Game no")
    award = forms.IntegerField(min_value=1, max_value=99999999, label="Award no")
    cls = forms.ChoiceField(choices=class_choices, label="Prize class")


class JournalForm(forms.Form):
    journal = forms.FileField(label="Journal file (gNNNNNNNN.bbj)")


class RateForm(forms.Form):
    rate = forms.FloatField(min_value=0.1, max_value=10000, label="Customers per hour")
