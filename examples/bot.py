#!/usr/bin/env python3
"""A reference bot: plays one seat of a Catan game through the HTTP API, Python's standard
library only.

    python3 examples/bot.py BASE_URL GAME_ID SEAT_TOKEN     # e.g. http://localhost:8080

The loop every bot needs, and no more (README, "Asynchronous play"):

    actions = GET  /v1/games/{id}/actions?after=V&wait=60   only when it holds none
    answer  = POST /v1/games/{id}/moves  (one of the actions)
    actions = answer["actions"] when the seat must act again, else none; V = answer["version"]

A move that leaves the seat to act answers its next actions itself, and the wait answers at
once when the seat is due at V (its move, or an offer made to it waiting for its answer):
one request per move, one more each time the game comes back to the seat. An offer made
to the seat is answered at once (this bot declines), since the offerer may be waiting for
it: a server bot's offer waits for the people it asked. Refused moves (409, 412, 422: the game moved on) are read again; 429 and
503 wait for Retry-After. Prints a line when the game is over and exits 0.
"""
import json
import random
import sys
import time
import urllib.error
import urllib.request

# Which kind of move to prefer; templates are completed below, offers are not made.
PREFERENCE = ["build_city", "build_settlement", "play_road_building", "play_year_of_plenty",
              "play_monopoly", "play_knight", "buy_development_card", "build_road", "maritime_trade",
              "decline_trade", "move_robber", "discard", "roll", "end_turn"]


def call(base, token, method, path, body=None):
    """(status, JSON answer, headers) of one request; waits and retries on 429 and 503."""
    data = None if body is None else json.dumps(body).encode()
    while True:
        request = urllib.request.Request(base + path, data=data, method=method)
        request.add_header("Authorization", "Bearer " + token)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=90) as answer:
                return answer.status, json.load(answer), answer.headers
        except urllib.error.HTTPError as refusal:
            if refusal.code in (429, 503):
                time.sleep(float(refusal.headers.get("Retry-After") or 1))
                continue
            return refusal.code, json.load(refusal), refusal.headers


def complete(action, rng):
    """The move body of an action: as listed, or a template filled in."""
    if action["type"] == "discard":
        cards = [r for r, n in action["hand"].items() for _ in range(n)]
        chosen = {}
        for resource in rng.sample(cards, action["count"]):
            chosen[resource] = chosen.get(resource, 0) + 1
        return {"type": "discard", "resources": chosen}
    if action["type"] == "roll" and action.get("template"):
        return {"type": "roll", "dice": [rng.randint(1, 6), rng.randint(1, 6)]}
    return action


def choose(actions, rng):
    """The first kind of PREFERENCE listed (a road only now and then), one of it at random."""
    listed = [a for a in actions if a["type"] in PREFERENCE]
    kinds = {a["type"] for a in listed}
    for kind in PREFERENCE:
        if kind in kinds and (kind != "build_road" or rng.random() < 0.3 or "end_turn" not in kinds):
            return rng.choice([a for a in listed if a["type"] == kind])
    return None


def due(now):
    """The seat must act: its move, or its answer to an offer made to it (which lists
    decline_trade for it; another seat's turn may also list offers the seat could make)."""
    return now["seat"] in now["waiting_for"] or any(a["type"] == "decline_trade" for a in now["actions"])


def play(base, game, token, seed=None):
    rng = random.Random(seed)
    held, after, moves = None, 0, 0
    while True:
        if held is None:
            status, held, _ = call(base, token, "GET", f"/v1/games/{game}/actions?after={after}&wait=60")
            if status != 200:
                sys.exit(f"bot: GET actions: {status} {held}")
        now, held = held, None
        if not now["waiting_for"]:
            print(f"bot: game {game} over at version {now['version']}: seat {now['seat']} made {moves} moves")
            return moves
        after = now["version"]
        if not due(now):
            continue  # someone else's move: wait from this version
        action = choose(now["actions"], rng)
        if action is None:
            sys.exit(f"bot: nothing to do at version {after}: {now['actions']}")
        status, answer, _ = call(base, token, "POST", f"/v1/games/{game}/moves", complete(action, rng))
        if status == 201:
            moves += 1
            after, held = answer["version"], answer.get("actions")
        elif status not in (409, 412, 422):
            sys.exit(f"bot: POST {action}: {status} {answer}")


if __name__ == "__main__":
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    play(sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else None)
