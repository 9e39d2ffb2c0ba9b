#!/usr/bin/env python3
"""verify_fair.py EXPORT.json - check a finished provably fair game from docs/fairness.md alone.

Checks the commitment (SHA-256 of the revealed server seed) and recomputes every die of the
log (dice_rolled, from the seed of the version before it). Standard library only. Exit 0
when all match, 1 naming the first mismatch.
"""
import hashlib
import hmac
import json
import sys

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


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


def key(server_seed, game_id, seeds, version):
    message = b"catan-fair-1\x00" + (0 if version == 0 else game_id).to_bytes(8, "big")
    for seed in seeds:
        data = b"" if version == 0 else seed.encode("utf-8")
        message += bytes([len(data)]) + data
    message += version.to_bytes(4, "big")
    return int.from_bytes(hmac.new(server_seed, message, hashlib.sha256).digest()[:8], "big")


def main(path):
    export = json.load(open(path))
    events = export["events"]
    created = events[0]
    fairness = created.get("fairness")
    if not fairness or not export.get("seed"):
        print("not provably fair, or not finished: nothing to check")
        return 1
    server_seed = bytes.fromhex(export["seed"])
    if hashlib.sha256(server_seed).hexdigest() != fairness["commitment"]:
        print("mismatch: the seed is not the one the game committed to")
        return 1
    game_id = int(export["game"], 16)
    seats = created["options"]["seats"]
    seeds = (export.get("fairness") or {}).get("player_seeds") or [""] * seats
    rolls = 0
    for entry in events:
        if entry["type"] != "dice_rolled" or created["options"].get("dice") == "manual":
            continue
        version = entry["version"] - 1  # decided on the game before the roll's event
        draws = Draws(key(server_seed, game_id, seeds, version), version)
        expected = [draws.die(), draws.die()]
        if entry["dice"] != expected:
            print("mismatch at version %d: dice %s, the seed makes %s" % (entry["version"], entry["dice"], expected))
            return 1
        rolls += 1
    print("commitment matches; %d rolls: all match" % rolls)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
