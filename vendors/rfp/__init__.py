"""The buyer's request for proposal: what the bid must meet (from the sizing plan),
what it must answer (from the evaluation checklist), how it is weighed (if the buyer
publishes it) and by when; rendered as PDF, DOCX and a ZIP with the bid template.

``facts`` reads the ORM once into plain data, ``content`` assembles the pack's text
from it, ``pdf``/``docx``/``pack`` render it, ``services`` owns the RFP settings.
"""
