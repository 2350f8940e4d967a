"""An import-linter contract that no module takes part in an import circle (`make lint`).

import-linter's own `acyclic_siblings` works on packages; this one looks at modules, which is what a
reader means by a circle: `a` imports `b` (directly or through others) and `b` imports `a` back, even
inside a function or under `TYPE_CHECKING`. Usage, in pyproject.toml::

    [tool.importlinter]
    contract_types = ["acyclic_modules: lab.contracts.AcyclicModules"]

    [[tool.importlinter.contracts]]
    name = "No import circles"
    type = "acyclic_modules"
    containers = ["workers", "lab"]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from grimp import ImportGraph
from importlinter import Contract, ContractCheck, fields, output

__all__ = ["AcyclicModules", "circles"]


class AcyclicModules(Contract):
    type_name = "acyclic_modules"
    containers = fields.ListField(subfield=fields.StringField())

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        roots = tuple(str(c) for c in self.containers)  # type: ignore[attr-defined]
        modules = {m for m in graph.modules if m.split(".")[0] in roots}
        edges = {m: sorted(graph.find_modules_directly_imported_by(m) & modules) for m in modules}
        found = circles(edges)
        return ContractCheck(kept=not found, metadata={"circles": found})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for circle in check.metadata["circles"]:
            output.print_error(" <-> ".join(circle))
            output.new_line()


def circles(edges: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(edges.get(root, ())))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = _pop_group(stack, on_stack, node)
                    if len(group) > 1:
                        found.append(sorted(group))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(edges.get(child, ()))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return sorted(found)


def _pop_group(stack: list[str], on_stack: set[str], node: str) -> list[str]:
    group: list[str] = []
    while True:
        member = stack.pop()
        on_stack.discard(member)
        group.append(member)
        if member == node:
            return group
