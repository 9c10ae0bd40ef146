"""A Monte-Carlo estimate: a mean over samples, its standard error, and for a proportion the
Wilson interval, which stays honest at 0% and 100% (where mean ± 1.96 SE shrinks to nothing)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


def wilson_interval(p: float, n: float, z: float = Z95) -> tuple[float, float]:
    """(low, high) of the Wilson score interval for a proportion ``p`` observed on ``n`` samples.

    Unlike p ± z·SE it never collapses to a point at 0 or 1: 0 successes in 2,000 samples give
    [0, 0.19%], the "rule of three" a reader expects. (nan, nan) without samples.
    """
    if n <= 0:
        return (math.nan, math.nan)
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low = 0.0 if p <= 0 else max(0.0, centre - half)
    high = 1.0 if p >= 1 else min(1.0, centre + half)
    return (low, high)


@dataclass(frozen=True)
class Estimate:
    """A mean over N samples and its standard error ``std(ddof=1) / sqrt(N)``."""

    mean: float
    se: float
    n: int | None = None
    """How many samples, when known (:meth:`of` sets it): the Wilson interval needs it."""
    effective: float | None = None
    """For a proportion estimated otherwise than by a plain mean (steadied by a control
    variate): the plain samples that would be as precise, p(1 − p) / SE², which its Wilson
    interval uses instead of ``n`` (Korn and Graubard's effective sample size)."""

    @classmethod
    def of(cls, values: np.ndarray) -> Estimate:
        """From (N,) samples (bool or numbers); the SE is NaN with fewer than 2."""
        values = np.asarray(values, np.float64)
        n = len(values)
        se = float(values.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
        return cls(float(values.mean()), se, n)

    @property
    def z(self) -> float:
        """The mean in standard errors (infinite when the SE is 0 and the mean is not)."""
        if self.se == 0:
            return 0.0 if self.mean == 0 else math.copysign(math.inf, self.mean)
        return self.mean / self.se

    def wilson(self, z: float = Z95) -> tuple[float, float]:
        """The Wilson score interval of a proportion (the mean of 0/1 samples); see
        :func:`wilson_interval`. Raises :class:`ValueError` when ``n`` is unknown."""
        if self.effective is not None:
            return wilson_interval(self.mean, self.effective, z)
        if self.n is None:
            raise ValueError("the Wilson interval needs the number of samples")
        return wilson_interval(self.mean, self.n, z)

    def minus(self, other: Estimate) -> Estimate:
        """The difference of two independent estimates: the means subtracted, the standard
        errors added in quadrature (for estimates on the same samples, an upper bound)."""
        return Estimate(self.mean - other.mean, math.hypot(self.se, other.se))

    def to_dict(self) -> dict[str, float]:
        return {"mean": self.mean, "se": self.se}


def paired_gap(scores: np.ndarray, best: np.ndarray) -> Estimate:
    """E[``scores`` − ``best``] on the samples both were played on (the first of each: an
    alternative left out of later rounds has fewer), with its paired standard error; infinitely
    uncertain on fewer than 2."""
    shared = min(len(scores), len(best))
    if shared < 2:
        return Estimate(0.0, math.inf)
    return Estimate.of(np.asarray(scores[:shared], np.float64) - best[:shared])
