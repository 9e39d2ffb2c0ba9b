#!/usr/bin/env python3
"""
tests/mutants.py - do the engine suites notice a broken rule? (`make mutants`)

Each mutant below is a deliberate rule break: one or more exact textual substitutions
(file, original snippet, replacement) in engine/*.c or engine/*.h. The script copies the
source tree (what `git ls-files` lists, with uncommitted edits) to build/mutants/src, never
touching the real tree; builds the engine test programs there once as a baseline that must
pass; then, one mutant at a time, applies its substitutions to the copy, rebuilds, and runs
the engine suites (fast settings: PROPERTY_GAMES defaults to 300 here) until one fails.
A mutant no suite catches "survives": the script lists the survivors and exits 1.

Every original snippet must occur exactly once in its file; a snippet that no longer does
(the source drifted) stops the run before anything is built, naming the mutant, so the
list is kept in step with the code instead of silently testing nothing. A mutant that does
not compile is an error of the list too.

    make mutants                          every mutant
    MUTANTS="steal_first_kind draw_off_by_one" make mutants   just these
    MUTANT_PROPERTY_GAMES=1000 make mutants                   more property games
    MUTANT_SUITES="test_properties" make mutants              only these suites (which notice?)

It is not part of `make test`: a full run takes several minutes.
"""
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COPY = os.path.join(ROOT, "build", "mutants", "src")

# (name, what the break does, [(file, original, replacement), ...])
MUTANTS = [
    # ---- randomness (RULES.md 5, 6) ----
    ("steal_first_kind", "the robber always steals the victim's first kind of card",
     [("engine/rules.c", "int pick = (int)rng_below(rng, (uint32_t)resource_total(hand));",
       "int pick = 0;\n\t(void)rng_below(rng, (uint32_t)resource_total(hand));")]),
    ("steal_off_by_one", "the stolen card is drawn with an off-by-one bias",
     [("engine/rules.c", "while (pick >= hand[resource])", "while (pick > hand[resource])")]),
    ("draw_first_kind", "a development card bought is always the first kind left",
     [("engine/rules.c", "int pick = (int)rng_below(rng, (uint32_t)left);",
       "int pick = 0;\n\t(void)rng_below(rng, (uint32_t)left);")]),
    ("draw_off_by_one", "the development card drawn has an off-by-one bias",
     [("engine/rules.c", "while (pick >= g->deck[card])", "while (pick > g->deck[card])")]),
    # ---- development cards (RULES.md 6) ----
    ("road_building_second_not_opened", "a first free road opening the only place for a second allows one road",
     [("engine/placement.c", "return board_edge_set_count(&next) > 0 ? 2 : 1;", "(void)next;\n\treturn 1;")]),
    ("knight_while_robber_pending", "a knight is accepted while the rolled robber move is pending",
     [("engine/rules.c", "\tcase GAME_PHASE_MOVE_ROBBER:\n\t\treturn ERROR_ROBBER_MUST_MOVE;\n\tdefault:\n\t\tbreak;",
       "\tdefault:\n\t\tbreak;")]),
    ("card_bought_this_turn_playable", "a card bought this turn may be played when one of its kind was held",
     [("engine/rules.c", "if (player->development_cards[kind] <= player->bought_this_turn[kind])\n\t\treturn ERROR_DEV",
       "if (player->development_cards[kind] < player->bought_this_turn[kind])\n\t\treturn ERROR_DEV")]),
    ("two_cards_per_turn", "a second development card may be played in a turn",
     [("engine/rules.c", "\tif (g->development_played)\n\t\treturn ERROR_DEV_CARD_ALREADY_PLAYED;\n", "")]),
    ("year_of_plenty_beyond_the_bank", "year of plenty may take cards the bank does not hold",
     [("engine/legal.c", "if (g->bank[a] < (a == b ? 2 : 1) || g->bank[b] < 1)", "if (g->bank[a] < 1 || g->bank[b] < 1)")]),
    ("monopoly_counts_own_cards", "monopoly also 'takes' the player's own cards",
     [("engine/rules.c", "\t\tif (s != seat)\n\t\t\tevent.gains[s][c->resource]", "\t\tif (1)\n\t\t\tevent.gains[s][c->resource]")]),
    ("largest_army_on_a_tie", "Largest Army moves on a tie",
     [("engine/rules.c", "if (holder >= 0 && knights <= d->state->players[holder].knights_played)",
       "if (holder >= 0 && knights < d->state->players[holder].knights_played)")]),
    ("largest_army_at_two", "Largest Army at 2 knights",
     [("engine/rules.c", "if (holder == seat || knights < 3)", "if (holder == seat || knights < 2)")]),
    # ---- production (RULES.md 3) ----
    ("shortage_2025_pays_one", "the 2025 sole recipient takes one card, not every card left",
     [("engine/rules.c", "event->gains[only][r] = g->bank[r];", "event->gains[only][r] = 1;")]),
    ("shortage_judged_per_hex", "the classic shortage is judged hex by hex instead of over the whole resource",
     [("engine/rules.c",
       "\t\tint resource = g->board.terrain[hex];\n\t\t/* The buildings on the hex's corners",
       "\t\tint resource = g->board.terrain[hex];\n\t\tint hex_owed = 0;\n"
       "\t\tfor (int k = 0; k < 6; k++)\n"
       "\t\t\thex_owed += g->node_owner[board_hex_nodes[hex][k]] ? g->node_building[board_hex_nodes[hex][k]] : 0;\n"
       "\t\tif (hex_owed > g->bank[resource])\n\t\t\tcontinue;\n"
       "\t\t/* The buildings on the hex's corners"),
      ("engine/rules.c", "if (owed <= g->bank[r]) {",
       "if (owed <= g->bank[r] || g->options.edition == GAME_EDITION_CLASSIC) {")]),
    ("robber_hex_produces", "the robber's hex produces",
     [("engine/rules.c", "\t\thexes &= ~(UINT32_C(1) << g->robber);", "\t\thexes |= 0;")]),
    ("city_produces_one", "a city produces 1 card",
     [("engine/rules.c", "+= g->node_building[node];", "+= 1;")]),
    ("first_settlement_pays", "the first setup settlement pays starting resources too",
     [("engine/rules.c", "int second = g->setup_step >= g->options.seats;", "int second = 1;")]),
    ("discard_at_seven", "a seat holding exactly 7 cards discards",
     [("engine/apply.c", "discard_owed = (uint8_t)(cards > 7 ? cards / 2 : 0);",
       "discard_owed = (uint8_t)(cards >= 7 ? cards / 2 : 0);")]),
    # ---- the robber (RULES.md 5) ----
    ("robber_stays", "the robber may stay on its hex",
     [("engine/rules.c", "\tif (hex == g->robber)\n\t\treturn ERROR_ROBBER_SAME_HEX;\n", "")]),
    ("rob_a_seat_without_cards", "an opponent holding no card may be chosen as victim",
     [("engine/placement.c", "&& resource_total(game->players[s].resources) > 0)", ")")]),
    # ---- building (RULES.md 2, 4) ----
    ("distance_rule_ignored", "settlements may be built next to another building",
     [("engine/placement.c", "\t\tblocked |= board_node_neighbor_mask[node];\n", "\t\t(void)node;\n")]),
    ("road_through_opponent", "a road may connect through an opponent's building",
     [("engine/placement.c", "uint64_t anchors = buildings | (road_nodes & ~game->occupied_nodes);",
       "uint64_t anchors = buildings | road_nodes;\n\t(void)game;")]),
    ("setup_road_anywhere", "a setup road need not touch the settlement just placed",
     [("engine/rules.c", "\t\tif (!(board_edge_node_mask[c->edge] >> g->setup_node & 1u))\n\t\t\treturn ERROR_SETUP_ROAD_NOT_TOUCHING;\n", "")]),
    ("longest_road_at_four", "Longest Road from 4 roads",
     [("engine/longest_road.c", "int best = -1, best_length = 4, tied = 0;", "int best = -1, best_length = 3, tied = 0;")]),
    ("win_at_nine", "the game is won at 9 points",
     [("engine/rules.c", "if (points >= GAME_POINTS_TO_WIN)", "if (points >= GAME_POINTS_TO_WIN - 1)")]),
    # ---- maritime trade (RULES.md 7) ----
    ("maritime_best_rate_only", "maritime trade only at the best rate (the old deviation)",
     [("engine/rules.c", "rate > 4 || !(rates >> rate & 1u))", "rate > 4 || !(rates >> rate & 1u) || rate != __builtin_ctz(rates))")]),
    ("maritime_one_card_only", "a multiple of a rate is refused",
     [("engine/rules.c", "\tif (give < 0 || want < 0)\n\t\treturn ERROR_MARITIME_RATE;",
       "\tif (give < 0 || want < 0 || want_count != 1)\n\t\treturn ERROR_MARITIME_RATE;")]),
    ("maritime_generic_harbor_ignored", "a generic harbor gives no 3:1",
     [("engine/game.h", "\tif (harbor_kinds >> HARBOR_GENERIC & 1u)\n\t\trates |= 1u << 3;\n", "")]),
    ("maritime_harbor_by_road", "a harbor reached only by a road counts",
     [("engine/game.c", "uint64_t at = game->players[seat].buildings & board_harbor_nodes_any;",
       "uint64_t at = (game->players[seat].buildings | game->players[seat].road_nodes) & board_harbor_nodes_any;")]),
    ("maritime_bank_checked_for_one", "a multiple is accepted when the bank holds a single card",
     [("engine/rules.c", "if (g->bank[want] < want_count)", "if (g->bank[want] == 0)")]),
    ("maritime_last_card_not_listed", "the bank's last card of a kind is not listed for maritime trade",
     [("engine/legal.c", "taken * rate <= hand[give] && taken <= g->bank[want];", "taken * rate <= hand[give] && taken < g->bank[want];")]),
    ("maritime_like_for_like", "a maritime trade may take the resource it gives",
     [("engine/rules.c", "\tif (give == want)\n\t\treturn ERROR_SAME_RESOURCE;\n", "")]),
    # ---- random play's shortcuts: the tally and the listed decision (legal.c, rules.c) ----
    ("tally_skips_robber_hexes_without_victims", "random play never moves the robber where no one can be robbed",
     [("engine/legal.c", "int here = victims[hex] ? seats_in[victims[hex]] : 1;",
       "int here = victims[hex] ? seats_in[victims[hex]] : 0;")]),
    ("tally_maritime_bank_ignored", "random play's maritime count ignores the bank's shortage",
     [("engine/legal.c", "\t\tif (paid <= fewest) {", "\t\tif (paid <= fewest || 1) {")]),
    ("listed_road_is_free", "a listed road is built without paying",
     [("engine/rules.c", "\tif (d->listed) {\n\t\temit_road(d, seat, c->edge, 0, 0);",
       "\tif (d->listed) {\n\t\temit_road(d, seat, c->edge, 1, 0);")]),
    # ---- domestic trade (RULES.md 7) ----
    ("offers_capped_shared", "open offers share one cap, so counter-offers can block the active player",
     [("engine/game.c", "open += game->offers[i].id != 0 && game->offers[i].from == seat;", "open += game->offers[i].id != 0 + 0 * seat;"),
      ("engine/game.c", "return seat == game->turn_seat ? GAME_OFFERS_ACTIVE_SEAT : GAME_OFFERS_PER_OTHER_SEAT;",
       "(void)game;\n\t(void)seat;\n\treturn GAME_MAX_OFFERS;")]),
    ("inactive_seats_get_the_active_cap", "every seat may hold the active player's number of offers",
     [("engine/game.c", "return seat == game->turn_seat ? GAME_OFFERS_ACTIVE_SEAT : GAME_OFFERS_PER_OTHER_SEAT;",
       "(void)game;\n\t(void)seat;\n\treturn GAME_OFFERS_ACTIVE_SEAT;")]),
    ("offer_to_missing_seat", "an offer may name seats the game does not have",
     [("engine/rules.c", "uint8_t others = (uint8_t)(((1u << g->options.seats) - 1) & ~(1u << seat));",
       "uint8_t others = (uint8_t)(0xffu & ~(1u << seat));")]),
    ("inactive_players_trade", "an inactive seat may offer to another inactive seat",
     [("engine/rules.c", "\t\tif (to != active)\n\t\t\treturn ERROR_INACTIVE_PLAYERS_CANNOT_TRADE;\n", "")]),
    ("domestic_like_for_like", "an offer may have one resource on both sides",
     [("engine/rules.c", "\t\tif (c->give[r] && c->want[r])\n\t\t\treturn ERROR_SAME_RESOURCE;\n", "")]),
]

# Fastest first, so a caught mutant costs little; the property run last.
SUITE_ORDER = ["test_setup", "test_building", "test_production", "test_robber", "test_development", "test_trade",
               "test_turn", "test_winning", "test_common_mistakes", "test_legal", "test_longest_road", "test_view",
               "test_autoplay", "test_board", "test_bot", "test_rng", "test_properties"]


def tree_files():
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            check=True, stdout=subprocess.PIPE).stdout.decode().split("\0")
    return [f for f in listed if f and os.path.isfile(os.path.join(ROOT, f)) and not f.startswith("build/")]


def sync_copy():
    """Copy the tree into COPY, rewriting only files whose bytes differ (so make stays incremental)."""
    for name in tree_files():
        source = os.path.join(ROOT, name)
        target = os.path.join(COPY, name)
        with open(source, "rb") as f:
            data = f.read()
        if os.path.exists(target):
            with open(target, "rb") as f:
                if f.read() == data:
                    continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            f.write(data)
        os.chmod(target, os.stat(source).st_mode & 0o777)


def suites():
    present = sorted(f[:-2] for f in os.listdir(os.path.join(COPY, "tests", "engine")) if f.startswith("test_") and f.endswith(".c"))
    only = os.environ.get("MUTANT_SUITES", "").split()
    if only:
        present = [s for s in present if s in only]
    ordered = [s for s in SUITE_ORDER if s in present] + [s for s in present if s not in SUITE_ORDER]
    return ordered


def build(names):
    targets = ["build/tests/engine/" + s for s in names]
    result = subprocess.run(["make", "-s", "-j2", "SKIP_DEPS=1", "B=build"] + targets, cwd=COPY,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return result.returncode == 0, result.stdout.decode(errors="replace")


def run_suites(names, games):
    """The first suite that fails, or None when every one passes."""
    env = dict(os.environ, PROPERTY_GAMES=str(games))
    for name in names:
        try:
            result = subprocess.run([os.path.join(COPY, "build", "tests", "engine", name)], cwd=COPY, env=env,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
        except subprocess.TimeoutExpired:
            return name + " (timeout)"
        if result.returncode != 0:
            return name
    return None


def main():
    games = int(os.environ.get("MUTANT_PROPERTY_GAMES", "300"))
    wanted = os.environ.get("MUTANTS", "").split()
    chosen = [m for m in MUTANTS if not wanted or m[0] in wanted]
    unknown = set(wanted) - {m[0] for m in MUTANTS}
    if unknown:
        sys.exit("mutants: unknown mutant(s): " + " ".join(sorted(unknown)))

    # Every snippet must occur exactly once in the real tree's file: fail loudly on drift.
    stale = []
    for name, _, subs in chosen:
        for path, original, _ in subs:
            with open(os.path.join(ROOT, path)) as f:
                count = f.read().count(original)
            if count != 1:
                stale.append("%s: %s holds the original snippet %d times (expected once): %r" % (name, path, count, original))
    if stale:
        print("mutants: the source drifted from the mutant list:\n  " + "\n  ".join(stale))
        sys.exit(2)

    os.makedirs(COPY, exist_ok=True)
    sync_copy()
    names = suites()
    ok, output = build(names)
    if not ok:
        print(output)
        sys.exit("mutants: the unmutated copy does not build")
    failed = run_suites(names, games)
    if failed:
        sys.exit("mutants: the unmutated copy fails %s; fix the suites first" % failed)
    print("mutants: baseline passes %d engine suites (PROPERTY_GAMES=%d); %d mutants" % (len(names), games, len(chosen)))

    survivors, broken = [], []
    for index, (name, what, subs) in enumerate(chosen, 1):
        started = time.time()
        originals = {}
        for path, original, replacement in subs:
            target = os.path.join(COPY, path)
            if path not in originals:
                with open(target) as f:
                    originals[path] = f.read()
            with open(target) as f:
                text = f.read()
            with open(target, "w") as f:
                f.write(text.replace(original, replacement, 1))
        try:
            ok, output = build(names)
            if not ok:
                broken.append(name)
                verdict = "DOES NOT COMPILE\n" + output
            else:
                caught_by = run_suites(names, games)
                if caught_by:
                    verdict = "caught by " + caught_by
                else:
                    survivors.append(name)
                    verdict = "SURVIVES"
        finally:
            for path, text in originals.items():
                with open(os.path.join(COPY, path), "w") as f:
                    f.write(text)
        print("[%2d/%d] %-36s %-70s %s (%.0f s)" % (index, len(chosen), name, what, verdict, time.time() - started),
              flush=True)

    print("mutants: %d run, %d caught, %d survive%s" % (len(chosen), len(chosen) - len(survivors) - len(broken),
                                                      len(survivors), ", %d do not compile" % len(broken) if broken else ""))
    if survivors:
        print("surviving (no suite notices): " + " ".join(survivors))
    if broken:
        print("not compiling (fix the list): " + " ".join(broken))
    sys.exit(1 if survivors or broken else 0)


if __name__ == "__main__":
    main()
