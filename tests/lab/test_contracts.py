"""The import-circle contract finds circles of modules, and the project has none."""

from __future__ import annotations

import grimp

from lab.contracts import circles


def test_circles_are_the_groups_that_import_each_other() -> None:
    edges = {"a": ["b"], "b": ["c"], "c": ["a", "d"], "d": [], "e": ["e2"], "e2": ["e"], "f": ["a"]}
    assert circles(edges) == [["a", "b", "c"], ["e", "e2"]]
    assert circles({"a": ["b"], "b": []}) == []


def test_the_runtime_and_the_lab_have_no_import_circles() -> None:
    graph = grimp.build_graph("workers", "lab")
    edges = {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}
    assert circles(edges) == []
