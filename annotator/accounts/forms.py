"""The accounts page's form: a new account and its site-wide role."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import Group

User = get_user_model()


SITE_ROLES = [
    ("", "No site-wide role"),
    ("Organizers", "Organizer of every collection"),
    ("Administrators", "Administrator of every collection"),
]


class NewUserForm(UserCreationForm):
    """A new account; its collection roles are given on the collection's members page."""

    email = forms.EmailField(required=False)
    site_role = forms.ChoiceField(choices=SITE_ROLES, required=False)

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "first_name", "last_name", "email")

    def save(self, commit=True):
        user = super().save(commit=False)
        user.is_staff = (
            self.cleaned_data.get("site_role") == "Administrators"
        )  # the Django admin too
        if commit:
            user.save()
            if self.cleaned_data.get("site_role"):
                user.groups.add(Group.objects.get(name=self.cleaned_data["site_role"]))
        return user
