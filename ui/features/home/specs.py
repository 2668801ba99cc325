"""URL-bound controls of the home page: none of its own; it reads the settings every
page carries (``ui.plain.params.CARRIED``: sequence length, width, base, language,
presenter mode)."""

SPECS: tuple = ()
