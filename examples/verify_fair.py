#!/usr/bin/env python3
"""verify_fair.py EXPORT.json - check a finished provably fair game from docs/fairness.md alone.

Checks the commitment (SHA-256 of the revealed server seed), then recomputes every random
outcome of the log from the key of the version before its move: each die (dice_rolled),
each stolen card (resource_stolen, from the victim's hand, which the log's events tell) and
each development card drawn (development_card_bought, from the deck left). Standard library
only. Exit 0 when all match, 1 naming the first mismatch.
"""
import hashlib
import hmac
import json
import sys

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
RESOURCES = ["brick", "lumber", "wool", "grain", "ore"]
CARDS = ["knight", "road_building", "year_of_plenty", "monopoly", "victory_point"]
DECK = [14, 2, 2, 2, 5]
COSTS = {"road_built": [1, 1, 0, 0, 0], "settlement_built": [1, 1, 1, 1, 0],
         "city_built": [0, 0, 0, 2, 3], "development_card_bought": [0, 0, 1, 1, 1]}


def mix(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


class Draws:
    def __init__(self, key, version):
        self.state = mix(key) ^ mix((version * GAMMA + 0x632BE59BD9B4E019) & MASK)

    def next(self):
        self.state = (self.state + GAMMA) & MASK
        return mix(self.state)

    def below(self, n):
        p = (self.next() >> 32) * n
        if p & 0xFFFFFFFF < n:
            t = ((1 << 32) - n) % n
            while p & 0xFFFFFFFF < t:
                p = (self.next() >> 32) * n
        return p >> 32

    def die(self):
        return 1 + self.below(6)


def key(server_seed, game_id, seeds, seeds_from, version):
    mixed = version != 0 and seeds_from is not None and version >= seeds_from
    message = b"catan-fair-1\x00" + (0 if version == 0 else game_id).to_bytes(8, "big")
    for seed in seeds:
        data = seed.encode("utf-8") if mixed else b""
        message += bytes([len(data)]) + data
    message += version.to_bytes(4, "big")
    return int.from_bytes(hmac.new(server_seed, message, hashlib.sha256).digest()[:8], "big")


def pick(counts, index):
    """The kind the index-th card is, counting the kinds in order."""
    kind = 0
    while index >= counts[kind]:
        index -= counts[kind]
        kind += 1
    return kind


def move(hands, giver, taker, resources):
    """Move cards between two hands (None: the bank)."""
    for r, name in enumerate(RESOURCES):
        count = (resources or {}).get(name, 0)
        if giver is not None:
            hands[giver][r] -= count
        if taker is not None:
            hands[taker][r] += count


def main(path):
    export = json.load(open(path))
    events, created = export["events"], export["events"][0]
    if not created.get("fairness") or not export.get("seed"):
        print("not provably fair, or not finished: nothing to check")
        return 1
    server_seed = bytes.fromhex(export["seed"])
    if hashlib.sha256(server_seed).hexdigest() != created["fairness"]["commitment"]:
        print("mismatch: the seed is not the one the game committed to")
        return 1
    seats, manual = created["options"]["seats"], created["options"].get("dice") == "manual"
    fairness = export.get("fairness") or {}
    seeds, seeds_from = fairness.get("player_seeds") or [""] * seats, fairness.get("seeds_from")
    hands, deck = [[0] * 5 for _ in range(seats)], list(DECK)
    counts = {"dice_rolled": 0, "resource_stolen": 0, "development_card_bought": 0}
    game_id = int(export["game"], 16)

    def draws(i):
        # A move's draws come from the version before its first event: a steal's move begins
        # with its robber_moved, or with the knight_played before that.
        if events[i]["type"] == "resource_stolen":
            i -= 2 if events[i - 2]["type"] == "knight_played" else 1
        version = events[i]["version"] - 1
        return Draws(key(server_seed, game_id, seeds, seeds_from, version), version)

    for i, e in enumerate(events):
        kind, seat, expected, logged = e["type"], e.get("seat"), None, None
        if kind == "dice_rolled" and not manual:
            d = draws(i)
            expected, logged = [d.die(), d.die()], e["dice"]
        elif kind == "resource_stolen":
            hand = hands[e["victim"]]
            expected = RESOURCES[pick(hand, draws(i).below(sum(hand)))] if sum(hand) else "no card"
            logged = e["resource"]
        elif kind == "development_card_bought":
            expected = CARDS[pick(deck, draws(i).below(sum(deck)))] if sum(deck) else "no card"
            logged = e["card"]
        if expected != logged:
            print("mismatch at version %d (%s): the log says %s, the seed makes %s"
                  % (e["version"], kind, logged, expected))
            return 1
        if kind in counts and expected is not None:
            counts[kind] += 1
        # Keep the hands and the deck as the event leaves them.
        if kind in COSTS and not e.get("free"):
            move(hands, seat, None, dict(zip(RESOURCES, COSTS[kind])))
        if kind == "development_card_bought":
            deck[CARDS.index(e["card"])] -= 1
        elif kind == "resources_produced":
            for s, gains in enumerate(e["gains"]):
                move(hands, None, s, gains)
        elif kind == "discarded":
            move(hands, seat, None, e["resources"])
        elif kind == "year_of_plenty_played":
            move(hands, None, seat, e["resources"])
        elif kind == "resource_stolen":
            move(hands, e["victim"], seat, {e["resource"]: 1})
        elif kind == "monopoly_played":
            for s, taken in enumerate(e["taken"]):
                move(hands, s, seat, {e["resource"]: taken})
        elif kind == "maritime_traded":
            move(hands, seat, None, e["give"])
            move(hands, None, seat, e["get"])
        elif kind == "trade_completed":
            move(hands, seat, e["with"], e["give"])
            move(hands, e["with"], seat, e["get"])
        if min(min(hand) for hand in hands) < 0 or min(deck) < 0:
            print("mismatch at version %d (%s): a hand or the deck goes below zero" % (e["version"], kind))
            return 1
    print("commitment matches; %d rolls, %d steals, %d draws: all match"
          % (counts["dice_rolled"], counts["resource_stolen"], counts["development_card_bought"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
