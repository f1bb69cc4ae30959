"""Everything the conformance corpus and its runner know of KALA: one entry a rule
(:mod:`.rules`: the parts of the view it decides, the diagnosis checks naming it, the
readings, the misreadings and mutants, and the tables and catalogue built from the
entries), the code the entries refer to (:mod:`.diagnosis`: the predicates, the searches,
``legal_rule``; :mod:`.misreadings`: the misread functions) and the record
(:mod:`.record`: random games, scenarios, counts, the rules a step exercises)."""
