"""Numbers as the fixture files write them, for the Swift tests to read back."""
import math


def number(value):
    """A float for JSON (`None` stays `None`); infinities and NaN as the strings "inf", "-inf" and "nan"."""
    if value is None:
        return None
    value = float(value)
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return value
