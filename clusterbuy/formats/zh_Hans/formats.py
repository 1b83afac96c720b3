"""Number formats for zh-Hans pages, over Django's (which groups nothing: "3839269").

Chinese finance and procurement documents group digits in threes with a comma
("3,839,269", as in the bids and budgets users type); Django's zh_Hans locale has an
empty THOUSAND_SEPARATOR. Only ``intcomma`` and explicit grouping use this:
USE_THOUSAND_SEPARATOR stays off, so form inputs keep plain, parseable numbers.
"""

DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
