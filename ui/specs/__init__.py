"""URL-bound controls of each page (``SPECS`` per module)."""

from ui.params import ChoiceParam
from ui.texts import LANGUAGES, text


def tab_param(key: str, page: str, names: tuple[str, ...]) -> ChoiceParam:
    """The open tab of a page with lazy tabs, kept in the URL under its (translated)
    label ``text(lang, f"{page}.tab_{name}")``; the first tab is the default."""
    labels = tuple(text(lang, f"{page}.tab_{name}") for lang in LANGUAGES for name in names)
    return ChoiceParam(key, labels, labels[0])
