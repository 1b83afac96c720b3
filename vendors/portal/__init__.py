"""The supplier portal: invited vendors reach their procurement's RFP by a signed link
(`tokens`), submit versions of their answer (sealed until opening) and ask questions.
"""
