"""Everything the conformance corpus and its runner know of Kopa: its record
(:mod:`.record`: random games, scenarios, counts, the rules a step exercises, the readings),
its diagnosis (:mod:`.diagnosis`: which rule decides which part of the view, and the
game's own naming of a divergence) and its misreadings (:mod:`.misreadings`: the one
catalogue the explanations, the kill matrix and the rule book use)."""
