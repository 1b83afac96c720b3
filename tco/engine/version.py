"""Engine version stored with every TCO result. It changes with the outputs
(tests/tco/engine/test_golden.py, docs/architecture.md "Engine versions"): the major
for a changed field of the result, the minor for a changed figure."""

ENGINE_VERSION = "tco-2.0.0"
