"""A Monte-Carlo estimate: a mean over samples and its standard error."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Estimate:
    """A mean over N samples and its standard error ``std(ddof=1) / sqrt(N)``."""

    mean: float
    se: float

    @classmethod
    def of(cls, values: np.ndarray) -> Estimate:
        """From (N,) samples (bool or numbers); the SE is NaN with fewer than 2."""
        values = np.asarray(values, np.float64)
        n = len(values)
        se = float(values.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
        return cls(float(values.mean()), se)

    @property
    def z(self) -> float:
        """The mean in standard errors (infinite when the SE is 0 and the mean is not)."""
        if self.se == 0:
            return 0.0 if self.mean == 0 else math.copysign(math.inf, self.mean)
        return self.mean / self.se

    def to_dict(self) -> dict[str, float]:
        return {"mean": self.mean, "se": self.se}
