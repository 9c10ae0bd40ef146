"""``tarot-web``: the command line's advice on a local web page, and the JSON API behind it."""
