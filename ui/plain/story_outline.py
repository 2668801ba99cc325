"""The guided story's steps, in order: one definition for the two pages that need it
(the "Start here" story draws them; the home page's link says how many there are)."""

STEPS = (
    "order", "naive", "binary", "smooth", "clock", "table",
    "shift", "dot", "weights", "rope", "decay", "extend", "pictures",
)  # fmt: skip
