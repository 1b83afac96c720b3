import factory
from django.contrib.auth import get_user_model

from clusterbuy.models import Membership, Organisation, Procurement, Role

PASSWORD = "test-password-123"


class OrganisationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Organisation
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"Org {n}")


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def _save(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    user = factory.SubFactory(UserFactory)
    organisation = factory.SubFactory(OrganisationFactory)
    role = Role.VIEWER


class ProcurementFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Procurement

    organisation = factory.SubFactory(OrganisationFactory)
    name = factory.Sequence(lambda n: f"GPU cluster {n}")
    currency = "CNY"
    horizon_years = 5


def member(organisation, role, username=None):
    kwargs = {"username": username} if username else {}
    return MembershipFactory(
        organisation=organisation, role=role, user=UserFactory(**kwargs)
    ).user


def pdf_bytes(pages: int = 1) -> bytes:
    """A real, parseable PDF of blank A4 pages (attachments are checked by content)."""
    import io

    import pypdf

    writer = pypdf.PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(width=595, height=842)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
