"""Vendor-evaluation REST API: explicit serializers, thin views over the vendors use-case
modules; one module per resource (suppliers, bids, evaluation, comparison, checklists).

Organisation scoping: vendors and checklist templates are filtered by the user's
organisation, bids through `access_procurement` (404 for another organisation's ids).
A vendor id of another organisation in a bid is "no such vendor" (400).
"""
