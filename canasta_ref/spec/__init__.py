"""Variant specs: YAML files of parameters and rule clauses, checked, flattened and compiled."""

from .loader import check_file, check_warnings, clear_cache, list_variants, load_variant
from .model import Alternative, Clause, Parameter, ParamType, Source, SourceRef, Variant

__all__ = [
    "Alternative",
    "Clause",
    "ParamType",
    "Parameter",
    "Source",
    "SourceRef",
    "Variant",
    "check_file",
    "check_warnings",
    "clear_cache",
    "list_variants",
    "load_variant",
]
