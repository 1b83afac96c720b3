"""API rate limits that read their rates at request time (so deployments and tests
can change them without re-importing DRF's classes)."""

from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle


class AnonThrottle(AnonRateThrottle):
    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)


class UserThrottle(UserRateThrottle):
    """Per user, token clients included."""

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
