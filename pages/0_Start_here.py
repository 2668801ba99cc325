"""Start here: the guided story, one idea per step (the workshop deck).

``?step=N`` opens step N; Back / Next (and the arrow keys) move through the steps. The
steps themselves live in ``ui.story``: each draws two short lines, at most two controls,
one chart computed live, a formula and a link to the page and tab that go deeper.
"""

from ui import controls, story
from ui.specs.story import SPECS

controls.setup_page("story", SPECS)
story.show(story.current_step())
