"""Units and scale words of figures, as the slot reader reads them ("$", "per cent", "km", "bn"). Pure.

Usage::

    canonical_unit("kilometres")     # "km"
    UNIT_INFO["km"]                 # ("length", 1000.0): its family and factor to the family's base
"""

from __future__ import annotations

import re

__all__ = ["CURRENCY_CODES", "SCALES", "UNITS", "UNIT_INFO", "canonical_unit", "is_currency"]


def _area(short: str, names: list[str], factor: float) -> dict[str, tuple[str, str, float]]:
    """An area unit under its names and its short forms ("sq ft", "sq. ft", "sqft")."""
    tails = [short, *(n.split()[-1] for n in names if n.startswith("square "))]  # "sq ft", "sq metres"
    shorts = [f"sq{dot}{space}{tail}" for tail in tails for dot in ("", ".") for space in ("", " ")]
    return dict.fromkeys([*names, *shorts], (f"{short}2", "area", factor))


# Currency codes the slot reader takes before or after an amount ("NOK 4.2 billion"); not CHF, CAD or
# AUD, which a clinical text writes for heart failure, coronary artery disease, alcohol use disorder.
CURRENCY_CODES = (
    "USD", "EUR", "GBP", "INR", "JPY", "NOK", "SEK", "DKK", "NZD", "CNY", "HKD", "SGD", "ZAR", "PLN", "CZK",
    "BRL", "MXN", "KRW",
)  # fmt: skip

# (canonical unit, family, factor to the family's base unit)
UNITS: dict[str, tuple[str, str, float]] = {
    **dict.fromkeys(["$", "us$", "usd", "dollar", "dollars"], ("USD", "currency", 1.0)),
    **dict.fromkeys(["€", "eur", "euro", "euros"], ("EUR", "currency", 1.0)),
    **dict.fromkeys(["£", "gbp"], ("GBP", "currency", 1.0)),
    **dict.fromkeys(["₹", "inr", "rs", "rs.", "rupee", "rupees"], ("INR", "currency", 1.0)),
    **dict.fromkeys(["¥", "jpy", "yen"], ("JPY", "currency", 1.0)),
    **{code.lower(): (code, "currency", 1.0) for code in CURRENCY_CODES},
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
    # "8 lb" is no "8 kg"; "1,200 square feet" no "1,200 square metres"
    **dict.fromkeys(["lb", "lbs"], ("lb", "mass", 453.59237)),
    "oz": ("oz", "mass", 28.349523125),
    **_area("m", ["square metre", "square metres", "square meter", "square meters", "m2", "m²"], 1.0),
    **_area("ft", ["square foot", "square feet", "ft2", "ft²"], 0.09290304),
    **_area(
        "km",
        ["square kilometre", "square kilometres", "square kilometer", "square kilometers", "km2", "km²"],
        1e6,
    ),
    **_area("mi", ["square mile", "square miles"], 2589988.110336),
    **dict.fromkeys(["hectare", "hectares", "ha"], ("ha", "area", 1e4)),
    **dict.fromkeys(["acre", "acres"], ("acre", "area", 4046.8564224)),
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
