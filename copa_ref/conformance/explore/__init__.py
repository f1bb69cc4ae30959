"""``copa-ref conformance explore``: find an engine's differences beyond the corpus.

Seeded games over every config the engine declares, the reference choosing the moves
(steered towards the rules seen least), each judged step by step as a trace case of the
corpus, in lockstep past the differences already known, with refused-action probes along
the way; every difference shrunk to a minimal case that names its rule, each broken rule
reported once.

* :mod:`~copa_ref.conformance.explore.configs`: the config sweep;
* :mod:`~copa_ref.conformance.explore.play`: the seeded, steered reference games;
* :mod:`~copa_ref.conformance.explore.loop`: the exploration itself;
* :mod:`~copa_ref.conformance.explore.lockstep`: judging a case past its known differences;
* :mod:`~copa_ref.conformance.explore.shrink`: shrinking a difference;
* :mod:`~copa_ref.conformance.explore.report`: the report, the summary, writing the minimal
  cases as a corpus, merging the reports of shards.
"""

from copa_ref.conformance.explore.loop import Difference, Exploration, Explorer, Settings

__all__ = ["Difference", "Exploration", "Explorer", "Settings"]
