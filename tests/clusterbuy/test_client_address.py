"""Rate limits and the login lockout key on the address our trusted proxies report."""

import pytest
from django.core.cache import cache
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse

from clusterbuy.client_address import client_address
from tests.factories import PASSWORD

PROXY = "10.0.0.2"
ATTACKER = "203.0.113.7"
USER = "198.51.100.20"


@pytest.mark.parametrize(
    ("proxy_count", "peer", "forwarded", "expected"),
    [
        (0, ATTACKER, USER, ATTACKER),  # no proxy: the header is the client's own text
        (
            1,
            PROXY,
            f"{USER}, {ATTACKER}",
            ATTACKER,
        ),  # our proxy appended the last entry
        (2, PROXY, f"{USER}, {ATTACKER}, 10.0.0.1", ATTACKER),
        (1, PROXY, "", PROXY),  # no header at all: the peer
        (2, PROXY, ATTACKER, PROXY),  # fewer entries than proxies: the peer
        (1, PROXY, "unknown", PROXY),
        (1, PROXY, f"{ATTACKER}:51234", ATTACKER),
        (1, PROXY, "[2001:db8:1:2:aaaa:bbbb:cccc:dddd]:443", "2001:db8:1:2::"),
        (0, "2001:db8:1:2::99", "", "2001:db8:1:2::"),  # an IPv6 client is its /64
        (0, f"::ffff:{ATTACKER}", "", ATTACKER),
    ],
)
def test_client_address_is_the_entry_our_outermost_proxy_wrote(
    settings, proxy_count, peer, forwarded, expected
):
    settings.TRUSTED_PROXY_COUNT = proxy_count
    request = RequestFactory().get(
        "/", REMOTE_ADDR=peer, HTTP_X_FORWARDED_FOR=forwarded
    )
    assert client_address(request) == expected


@pytest.fixture
def anon_limit_of_three(settings):
    rest = dict(settings.REST_FRAMEWORK)
    rest["DEFAULT_THROTTLE_RATES"] = {"anon": "3/min", "user": "100/min"}
    cache.clear()
    with override_settings(REST_FRAMEWORK=rest):
        yield
    cache.clear()


def _anonymous_get(client: Client, forwarded: str, peer: str) -> int:
    return client.get(
        "/api/v1/accelerators/", REMOTE_ADDR=peer, HTTP_X_FORWARDED_FOR=forwarded
    ).status_code


def test_rotating_x_forwarded_for_does_not_escape_the_anonymous_limit(
    db, settings, anon_limit_of_three
):
    settings.TRUSTED_PROXY_COUNT = 0
    client = Client()
    codes = [_anonymous_get(client, f"192.0.2.{n}", ATTACKER) for n in range(5)]
    assert codes == [200, 200, 200, 429, 429]


def test_behind_a_proxy_each_client_has_its_own_anonymous_limit(
    db, settings, anon_limit_of_three
):
    settings.TRUSTED_PROXY_COUNT = 1
    client = Client()
    # The attacker rotates what it writes; our proxy appends the real address.
    codes = [
        _anonymous_get(client, f"192.0.2.{n}, {ATTACKER}", PROXY) for n in range(5)
    ]
    assert codes == [200, 200, 200, 429, 429]
    assert _anonymous_get(client, USER, PROXY) == 200


def _login(client: Client, username: str, password: str, **meta) -> int:
    return client.post(
        reverse("login"), {"username": username, "password": password}, **meta
    ).status_code


def test_failures_from_one_address_do_not_lock_the_user_out_elsewhere(
    settings, it_lead
):
    settings.TRUSTED_PROXY_COUNT = 0
    attacker = Client(REMOTE_ADDR=ATTACKER)
    codes = [_login(attacker, it_lead.username, "wrong") for _ in range(6)]
    assert codes == [200, 200, 200, 200, 429, 429]
    # Brute force from that address stays stopped, even with the right password...
    assert _login(attacker, it_lead.username, PASSWORD) == 429
    # ...while the user, from their own address, logs in.
    user = Client(REMOTE_ADDR=USER)
    assert _login(user, it_lead.username, PASSWORD) == 302
    assert user.session["_auth_user_id"] == str(it_lead.pk)


def test_behind_a_proxy_a_spoofed_header_cannot_lock_the_user_out(settings, it_lead):
    settings.TRUSTED_PROXY_COUNT = 1
    attacker = Client(REMOTE_ADDR=PROXY)
    # The attacker claims the user's address; our proxy appends the attacker's own.
    codes = [
        _login(
            attacker,
            it_lead.username,
            "wrong",
            HTTP_X_FORWARDED_FOR=f"{USER}, {ATTACKER}",
        )
        for _ in range(5)
    ]
    assert codes == [200, 200, 200, 200, 429]
    rotated = f"192.0.2.99, {ATTACKER}"
    assert (
        _login(attacker, it_lead.username, PASSWORD, HTTP_X_FORWARDED_FOR=rotated)
        == 429
    )
    user = Client(REMOTE_ADDR=PROXY)
    assert _login(user, it_lead.username, PASSWORD, HTTP_X_FORWARDED_FOR=USER) == 302
    assert user.session["_auth_user_id"] == str(it_lead.pk)
