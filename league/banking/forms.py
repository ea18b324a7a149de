"""The club's bank account form; validation is the service's."""

from django import forms
from django.utils.translation import gettext_lazy as _


class ClubBankAccountForm(forms.Form):
    holder = forms.CharField(label=_("account holder"), max_length=70)
    iban = forms.CharField(label=_("IBAN"), max_length=50)
    bic = forms.CharField(label=_("BIC"), max_length=20, required=False)


class BankStatementUploadForm(forms.Form):
    file = forms.FileField(label=_("bank statement (CAMT.053, MT940 or CSV)"))
