import os
import secrets
import subprocess
import sys

from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.conftest import ROOT
from tests.factories import PASSWORD


def test_check_deploy_is_clean_with_production_settings():
    # The browser tests relax Django's async check in their own process only.
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="clusterbuy.example.com",
        CSRF_TRUSTED_ORIGINS="https://clusterbuy.example.com",
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_secret_key():
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    env["DEBUG"] = "0"
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_every_page_carries_a_content_security_policy(client):
    response = client.get(reverse("login"))
    policy = response["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]


def test_forms_require_a_csrf_token(it_lead):
    client = Client(enforce_csrf_checks=True)
    client.force_login(it_lead)
    response = client.post(reverse("procurement-create"), {"name": "x"})
    assert response.status_code == 403


def test_login_is_locked_after_repeated_failures(it_lead):
    cache.clear()
    client = Client()
    url = reverse("login")
    codes = [
        client.post(
            url, {"username": it_lead.username, "password": "wrong"}
        ).status_code
        for _ in range(5)
    ]
    # AXES_FAILURE_LIMIT = 5: the fifth failure locks the username from this address.
    assert codes == [200, 200, 200, 200, 429]
    response = client.post(url, {"username": it_lead.username, "password": PASSWORD})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_login_succeeds_with_the_right_password(it_lead):
    client = Client()
    response = client.post(
        reverse("login"), {"username": it_lead.username, "password": PASSWORD}
    )
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(it_lead.pk)


def test_api_tokens_are_rate_limited(it_lead, settings):
    cache.clear()
    rest = dict(settings.REST_FRAMEWORK)
    rest["DEFAULT_THROTTLE_RATES"] = {"anon": "100/min", "user": "3/min"}
    token = Token.objects.create(user=it_lead)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    with override_settings(REST_FRAMEWORK=rest):
        codes = [api.get("/api/v1/procurements/").status_code for _ in range(4)]
    cache.clear()
    assert codes == [200, 200, 200, 429]


def test_unauthenticated_api_gets_401(client):
    assert APIClient().get("/api/v1/procurements/").status_code == 401
