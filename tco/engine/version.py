"""Engine version stored with every TCO result; bump it when a formula changes."""

ENGINE_VERSION = "tco-1.0.0"
