"""API rate limits keyed on the client address our trusted proxies report.

DRF's own ``get_ident`` trusts the whole X-Forwarded-For when NUM_PROXIES is unset, so
a client rotating that header gets a fresh budget on every request; these classes key
on ``clusterbuy.client_address`` instead. Rates are read at request time so
deployments and tests can change them without re-importing DRF's classes.
"""

from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from . import rate_counter
from .client_address import client_address


class ClientAddressThrottleMixin:
    """Anonymous clients keyed as the login lockout keys them; rate read per request."""

    def get_ident(self, request):
        return client_address(request)

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def allow_request(self, request, view):
        """One atomic count per request (`clusterbuy.rate_counter`), not DRF's
        history list, which concurrent requests read and write back over each other."""
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.wait_s = rate_counter.hit(
            self.key,
            allowed=self.num_requests,
            period_s=self.duration,
            now=self.timer(),
        )
        return self.wait_s is None

    def wait(self):
        return getattr(self, "wait_s", None)


class AnonThrottle(ClientAddressThrottleMixin, AnonRateThrottle):
    pass


class UserThrottle(ClientAddressThrottleMixin, UserRateThrottle):
    """Per user, token clients included; anonymous requests per client address."""
