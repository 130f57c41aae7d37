"""Shared by the engines' worked-example tests (no Django): an answer matches a JSON pair's expected
part when every key of `expected` is in it with the same value (lists element by element)."""

from __future__ import annotations


def partial_match(actual, expected, path="$"):
    """Every key of `expected` is in `actual` with the same value (lists element by element)."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), path
        for key, value in expected.items():
            assert key in actual, f"{path}.{key} missing"
            partial_match(actual[key], value, f"{path}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), f"{path}: {actual!r}"
        for i, (a, e) in enumerate(zip(actual, expected)):
            partial_match(a, e, f"{path}[{i}]")
    else:
        assert actual == expected, f"{path}: {actual!r} != {expected!r}"
