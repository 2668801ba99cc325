"""Start here: the guided story, one idea per step (the workshop deck).

``?step=N`` opens step N; Back / Next (and the arrow keys) move through the steps. The
steps themselves live in ``ui.features.story.view``: each draws two short lines, at most
two controls, one chart computed live, a formula and a link to the page and tab that go deeper.
"""

from ui.features.story import view as story
from ui.features.story.specs import SPECS
from ui.shared import controls


def render() -> None:
    """Draw the page (its entry script calls this on every run)."""
    controls.setup_page("story", SPECS)
    story.show(story.current_step())
