"""Units and scale words of figures, as the slot reader reads them ("$", "per cent", "km", "bn"). Pure.

Usage::

    canonical_unit("kilometres")     # "km"
    UNIT_INFO["km"]                 # ("length", 1000.0): its family and factor to the family's base
"""

from __future__ import annotations

import re

__all__ = ["SCALES", "UNITS", "UNIT_INFO", "canonical_unit", "is_currency"]

# (canonical unit, family, factor to the family's base unit)
UNITS: dict[str, tuple[str, str, float]] = {
    **dict.fromkeys(["$", "us$", "usd", "dollar", "dollars"], ("USD", "currency", 1.0)),
    **dict.fromkeys(["€", "eur", "euro", "euros"], ("EUR", "currency", 1.0)),
    **dict.fromkeys(["£", "gbp"], ("GBP", "currency", 1.0)),
    **dict.fromkeys(["₹", "inr", "rs", "rs.", "rupee", "rupees"], ("INR", "currency", 1.0)),
    **dict.fromkeys(["¥", "jpy", "yen"], ("JPY", "currency", 1.0)),
    "a$": ("AUD", "currency", 1.0),
    "c$": ("CAD", "currency", 1.0),
    **dict.fromkeys(["%", "percent", "per cent", "pct"], ("%", "percent", 1.0)),
    "mg": ("mg", "mass", 1e-3),
    "g": ("g", "mass", 1.0),
    "kg": ("kg", "mass", 1e3),
    **dict.fromkeys(["tonnes", "tonne", "tons"], ("t", "mass", 1e6)),
    **dict.fromkeys(["milligram", "milligrams"], ("mg", "mass", 1e-3)),
    **dict.fromkeys(["gram", "grams"], ("g", "mass", 1.0)),
    **dict.fromkeys(["kilogram", "kilograms"], ("kg", "mass", 1e3)),
    # "500 micrograms" is 0.5 mg, never 500 mg: a dose off a thousandfold
    **dict.fromkeys(["mcg", "µg", "μg", "ug", "microgram", "micrograms"], ("mcg", "mass", 1e-6)),
    **dict.fromkeys(["ml", "millilitre", "millilitres", "milliliter", "milliliters"], ("ml", "volume", 1e-3)),
    **dict.fromkeys(["l", "litre", "litres", "liter", "liters"], ("l", "volume", 1.0)),
    "mm": ("mm", "length", 1e-3),
    "cm": ("cm", "length", 1e-2),
    "m": ("m", "length", 1.0),
    "km": ("km", "length", 1e3),
    **dict.fromkeys(["millimetre", "millimetres", "millimeter", "millimeters"], ("mm", "length", 1e-3)),
    **dict.fromkeys(["centimetre", "centimetres", "centimeter", "centimeters"], ("cm", "length", 1e-2)),
    **dict.fromkeys(["metre", "metres", "meter", "meters"], ("m", "length", 1.0)),
    **dict.fromkeys(["kilometre", "kilometres", "kilometer", "kilometers"], ("km", "length", 1e3)),
    **dict.fromkeys(["mile", "miles", "mi"], ("mi", "length", 1609.344)),
}
SCALES = {
    "thousand": 1e3, "k": 1e3, "lakh": 1e5, "million": 1e6, "mn": 1e6, "m": 1e6, "crore": 1e7,
    "billion": 1e9, "bn": 1e9, "b": 1e9, "trillion": 1e12, "tn": 1e12, "trn": 1e12,
}  # fmt: skip
UNIT_INFO = {canonical: (family, factor) for canonical, family, factor in UNITS.values()}


def canonical_unit(raw: str) -> str | None:
    """The canonical unit for a unit as written ("per cent" -> "%", "kilometres" -> "km"), or None."""
    if not raw:
        return None
    key = re.sub(r"\s+", " ", raw.lower())
    if key.endswith(("point", "points")):  # a change in percentage points is no level in %
        return "pp"
    if key.startswith("percent") or key.startswith("per cent"):
        key = "percent"
    return UNITS[key][0] if key in UNITS else None


def is_currency(unit: str | None) -> bool:
    """Whether a canonical unit is money ("GBP", "USD"; not "%" or "mg")."""
    return UNIT_INFO.get(unit or "", ("", 1.0))[0] == "currency"
