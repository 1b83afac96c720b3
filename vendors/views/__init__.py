"""HTML views of vendor evaluation: validate a form, call one service, render/redirect.

One module per page family (suppliers, checklists, bids, line_items, attachments,
evaluation, comparison); `vendors.urls` routes to them by module.
"""
