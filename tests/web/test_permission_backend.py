"""annotator.accounts.backends: a user's permissions, their own and their groups', in one query."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission

from annotator.campaigns.access import is_site_administrator, reads_everything

pytestmark = pytest.mark.django_db


def fresh(user):
    """The user as a new request loads it: nothing cached."""
    return get_user_model().objects.get(pk=user.pk)


def test_own_and_group_permissions_are_read_in_one_query(django_assert_num_queries):
    user = get_user_model().objects.create_user("organizer-and-more")
    user.groups.add(Group.objects.get(name="Organizers"))
    user.user_permissions.add(Permission.objects.get(codename="administer_all_collections"))
    user = fresh(user)
    with django_assert_num_queries(1):
        assert reads_everything(user)  # from the group
        assert is_site_administrator(user)  # their own
        assert user.has_perm("annotator.read_all_collections")
    assert user.get_all_permissions() == {
        "annotator.read_all_collections",
        "annotator.administer_all_collections",
    }


@pytest.mark.parametrize(
    ("group", "reads", "administers"),
    [(None, False, False), ("Organizers", True, False), ("Administrators", True, True)],
)
def test_the_site_wide_roles_come_from_the_groups(group, reads, administers):
    user = get_user_model().objects.create_user("someone")
    if group:
        user.groups.add(Group.objects.get(name=group))
    user = fresh(user)
    assert reads_everything(user) is reads
    assert is_site_administrator(user) is administers


def test_an_inactive_user_has_none_and_a_superuser_all_without_a_query(
    django_assert_num_queries,
):
    gone = get_user_model().objects.create_user("gone", is_active=False)
    gone.groups.add(Group.objects.get(name="Administrators"))
    root = get_user_model().objects.create_superuser("root")
    gone, root = fresh(gone), fresh(root)
    with django_assert_num_queries(0):
        assert not gone.has_perm("annotator.administer_all_collections")
        assert root.has_perm("annotator.administer_all_collections")


def test_another_users_permissions_are_not_counted():
    other = get_user_model().objects.create_user("other")
    other.groups.add(Group.objects.get(name="Administrators"))
    user = fresh(get_user_model().objects.create_user("plain"))
    assert user.get_all_permissions() == set()
    assert not is_site_administrator(user)
