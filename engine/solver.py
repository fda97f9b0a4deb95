"""Exact check that a partly built museum can still be completed.

Every cell of the plan must end up with one value 1-6 such that the values of any two
neighbouring cells differ by exactly 1.  Occupied cells have their value fixed; the
question is whether the empty cells can all be given values.  This is a small constraint
problem (at most a few dozen cells, six values) solved by backtracking with forward
checking, smallest domain first.  Because ``|a - b| == 1`` forces neighbouring cells to
have opposite parity, most dead ends are found by propagation alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

ALL_VALUES = frozenset(range(1, 7))
_NEAR = {v: frozenset(w for w in (v - 1, v + 1) if 1 <= w <= 6) for v in range(1, 7)}


def completable(
    cells: Sequence[int],
    fixed: Mapping[int, int],
    neighbours: Sequence[Sequence[int]],
) -> bool:
    """Can the cells not in ``fixed`` get values so that all neighbouring pairs differ by 1?

    ``cells`` is the whole plan; ``neighbours[c]`` lists the grid neighbours of ``c``
    (cells outside the plan are ignored).  Fixed cells are assumed to be consistent with
    each other, as the placement rules guarantee.
    """
    plan = set(cells)
    domains: dict[int, frozenset[int]] = {}
    for c in cells:
        if c in fixed:
            continue
        dom = ALL_VALUES
        for n in neighbours[c]:
            if n in fixed:
                dom = dom & _NEAR[fixed[n]]
        if not dom:
            return False
        domains[c] = dom
    if not domains:
        return True
    links = {c: [n for n in neighbours[c] if n in plan and n not in fixed] for c in domains}
    return _search(domains, links)


def _search(domains: dict[int, frozenset[int]], links: dict[int, list[int]]) -> bool:
    if not domains:
        return True
    # Smallest domain first; ties broken by most unassigned neighbours.
    cell = min(domains, key=lambda c: (len(domains[c]), -len(links[c])))
    for value in sorted(domains[cell]):
        allowed = _NEAR[value]
        new = {}
        ok = True
        for c, dom in domains.items():
            if c == cell:
                continue
            if c in links[cell]:
                dom = dom & allowed
                if not dom:
                    ok = False
                    break
            new[c] = dom
        if ok and _search(new, links):
            return True
    return False
