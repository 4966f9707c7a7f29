"""Redealing the cards a player cannot see, consistently with what he can see.

Card games sample the unseen cards (the secrecy test, the bots): every card a viewer
cannot see is dealt again among the hidden places (other hands, the stock) so that each
keeps its size and every fact play revealed still holds. The facts this module takes are
the usual ones: a place cannot hold a given card (a void in a suit, a card known dead),
and a place holds at most so many cards of a group (Bog's showdown: "his best combination
was a single pair" caps every rank at one card but the pair's).

It is a small maximum flow, solved exactly: a redeal exists whenever the facts are true of
the real deal, so the answer is found in bounded time (no rejection sampling), and the
random order in which cards and places are tried varies it. That order comes from a
``random.Random`` seeded once from the caller's ``Rng``: the hash-based ``Rng`` costs a
SHA-256 per draw, and nothing of this generator is kept in any state.
"""

import random

from .rng import Rng

_UNLIMITED = 1 << 30


def redeal(cards: list, sizes: list, rng: Rng, *, forbidden=None, caps=None, group=None):
    """``cards`` dealt out so that place ``i`` gets exactly ``sizes[i]`` of them, or ``None``
    when the facts leave no way to do it.

    ``forbidden[i]`` is a set of cards place ``i`` may not hold; ``caps[i]`` maps a group
    (``group(card)``, e.g. the rank) to the most cards of that group place ``i`` may get.
    Returns one list of cards per place.
    """
    forbidden = forbidden or {}
    caps = caps or {}
    if sum(sizes) != len(cards) or any(size < 0 for size in sizes):
        return None
    order = random.Random(rng.below(1 << 62))
    graph = _Flow()
    source, sink = graph.node(), graph.node()
    place_nodes = [graph.node() for _ in sizes]
    to_sink = [graph.edge(node, sink, size) for node, size in zip(place_nodes, sizes, strict=True)]
    group_edges = {}  # (place, group) -> edge towards the place, capped
    routes = []  # (card, source edge, [(place, [edges from the card to the sink])])
    cards = list(cards)
    order.shuffle(cards)
    places = list(range(len(sizes)))
    for card in cards:
        card_node = graph.node()
        routes.append((card, graph.edge(source, card_node, 1), []))
        order.shuffle(places)
        for place in places:
            if sizes[place] == 0 or card in forbidden.get(place, ()):
                continue
            path = [to_sink[place]]
            target = place_nodes[place]
            if place in caps:
                key = (place, group(card))
                if key not in group_edges:
                    group_edges[key] = graph.edge(graph.node(), target, caps[place].get(key[1], _UNLIMITED))
                path.insert(0, group_edges[key])
                target = graph.to[group_edges[key] ^ 1]
            routes[-1][2].append((place, [graph.edge(card_node, target, 1)] + path))
    placed = 0
    for _, from_source, choices in routes:  # most cards go straight to a place with room
        for _, path in choices:
            if all(graph.cap[edge] > 0 for edge in path):
                graph.push([from_source] + path)
                placed += 1
                break
    if placed + graph.max_flow(source, sink) != len(cards):
        return None
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
