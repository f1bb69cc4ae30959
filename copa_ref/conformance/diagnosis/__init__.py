"""Each game's statement of which rule decides which part of its public view
(``VIEW_RULES``), and its own diagnosis of a divergence (``diagnose``): the parts of a
:class:`~copa_ref.conformance.scenarios.GameRecord` that name the rule an engine breaks."""
