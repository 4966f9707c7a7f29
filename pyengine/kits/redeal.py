"""Redealing the cards a player cannot see, consistently with what he can see: the heart of
``resample`` for card games (the secrecy test, the bots).

Every card a viewer cannot see is dealt again among the hidden places (other hands, the
stock, face-down piles) so that each keeps its size and every fact play revealed still
holds. The facts are the usual ones: a place cannot hold a given card (a void in a suit, a
card known dead or pinned elsewhere), and a place holds at most so many cards of a group
(Bog's showdown: "his best combination was a single pair" caps every rank at one card but
the pair's).

It is a small maximum flow (source -> card -> [place, group] -> place -> sink), so it never
loops and finds a deal whenever one exists (the real deal always is one). Cards are placed
most-constrained first, each into an allowed place with room drawn with probability
proportional to that place's free room; augmenting paths then place any card left over by
moving placed ones along. Without constraints this is exactly a uniform deal; when they
bite it is not exactly uniform over the consistent deals, but every consistent deal can
come out. The draws come from a ``random.Random`` seeded once from the caller's ``Rng``:
the hash-based ``Rng`` costs a SHA-256 per draw, and nothing of this generator is kept in
any state, so the result still depends only on the caller's ``Rng``.
"""

import random

from ..core.rng import Rng

_UNLIMITED = 1 << 30


class NoConsistentDeal(ValueError):
    """The facts admit no deal: for a caller sure of its facts a bookkeeping bug, for one
    trying several explanations (Bog's run) the sign that this one is false."""


def redeal(cards: list, sizes: list, rng: Rng, *, forbidden=None, caps=None, group=None) -> list:
    """``cards`` dealt out so that place ``i`` gets exactly ``sizes[i]`` of them; one list of
    cards per place. Raises ``NoConsistentDeal`` when the facts leave no way to do it.

    ``forbidden[i]`` is a set of cards place ``i`` may not hold; ``caps[i]`` maps a group
    (``group(card)``, e.g. the rank) to the most cards of that group place ``i`` may get.
    Both are dicts keyed by place; a place missing from them is unconstrained.
    """
    forbidden = forbidden or {}
    caps = caps or {}
    if sum(sizes) != len(cards) or any(size < 0 for size in sizes):
        raise NoConsistentDeal(f"{len(cards)} cards do not fill places of sizes {list(sizes)}")
    draws = random.Random(rng.below(1 << 62))
    graph = _Flow()
    source, sink = graph.node(), graph.node()
    place_nodes = [graph.node() for _ in sizes]
    to_sink = [graph.edge(node, sink, size) for node, size in zip(place_nodes, sizes, strict=True)]
    group_edges = {}  # (place, group) -> edge towards the place, capped
    routes = []  # (card, source edge, [(place, [edges from the card to the sink])])
    cards = list(cards)
    draws.shuffle(cards)
    for card in cards:
        card_node = graph.node()
        choices = []
        for place, size in enumerate(sizes):
            if size == 0 or card in forbidden.get(place, ()):
                continue
            path = [to_sink[place]]
            target = place_nodes[place]
            if place in caps:
                key = (place, group(card))
                if key not in group_edges:
                    group_edges[key] = graph.edge(graph.node(), target, caps[place].get(key[1], _UNLIMITED))
                path.insert(0, group_edges[key])
                target = graph.to[group_edges[key] ^ 1]
            choices.append((place, [graph.edge(card_node, target, 1)] + path))
        routes.append((card, graph.edge(source, card_node, 1), choices))
    short = 0
    for _, from_source, choices in sorted(routes, key=lambda route: len(route[2])):  # stable: ties stay shuffled
        open_paths = [path for _, path in choices if all(graph.cap[edge] > 0 for edge in path)]
        if open_paths:
            rooms = [graph.cap[path[-1]] for path in open_paths]
            graph.push([from_source] + draws.choices(open_paths, weights=rooms)[0])
        else:
            short += 1
    if graph.max_flow(source, sink) != short:
        raise NoConsistentDeal("no deal fits the facts")
    hands = [[] for _ in sizes]
    for card, _, choices in routes:
        for place, path in choices:
            if graph.used(path[0]):
                hands[place].append(card)
    return hands


class _Flow:
    """Ford-Fulkerson on a residual graph stored as parallel lists (a few hundred edges)."""

    def __init__(self):
        self.out = []  # node -> edge ids
        self.to, self.cap = [], []

    def node(self) -> int:
        self.out.append([])
        return len(self.out) - 1

    def edge(self, a: int, b: int, capacity: int) -> int:
        """Adds ``a -> b``; its reverse is the next id (``id ^ 1``)."""
        for head, tail, room in ((a, b, capacity), (b, a, 0)):
            self.out[head].append(len(self.to))
            self.to.append(tail)
            self.cap.append(room)
        return len(self.to) - 2

    def used(self, edge: int) -> bool:
        return self.cap[edge ^ 1] > 0

    def push(self, path: list) -> None:
        """One unit along ``path`` (edge ids)."""
        for edge in path:
            self.cap[edge] -= 1
            self.cap[edge ^ 1] += 1

    def max_flow(self, source: int, sink: int) -> int:
        flow = 0
        while self._augment(source, sink):
            flow += 1
        return flow

    def _augment(self, source: int, sink: int) -> bool:
        """One unit along any path with room (iterative depth-first search)."""
        parent_edge = {source: None}
        stack = [source]
        while stack:
            node = stack.pop()
            if node == sink:
                break
            for edge in self.out[node]:
                nxt = self.to[edge]
                if self.cap[edge] > 0 and nxt not in parent_edge:
                    parent_edge[nxt] = edge
                    stack.append(nxt)
        if sink not in parent_edge:
            return False
        path, node = [], sink
        while parent_edge[node] is not None:
            path.append(parent_edge[node])
            node = self.to[parent_edge[node] ^ 1]
        self.push(path)
        return True
