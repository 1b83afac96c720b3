"""API rate limits keyed on the client address our trusted proxies report.

DRF's own ``get_ident`` trusts the whole X-Forwarded-For when NUM_PROXIES is unset, so
a client rotating that header gets a fresh budget on every request; these classes key
on ``clusterbuy.client_address`` instead. Rates are read at request time so
deployments and tests can change them without re-importing DRF's classes.
"""

from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from .client_address import client_address


class ClientAddressThrottleMixin:
    """Anonymous clients keyed as the login lockout keys them; rate read per request."""

    def get_ident(self, request):
        return client_address(request)

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)


class AnonThrottle(ClientAddressThrottleMixin, AnonRateThrottle):
    pass


class UserThrottle(ClientAddressThrottleMixin, UserRateThrottle):
    """Per user, token clients included; anonymous requests per client address."""
