"""Pinned node counts: every inner loop must search exactly the same tree.

IDA* is deterministic, so the number of nodes expanded in each iteration is a fingerprint of
the bound's values, the duplicate-path pruning, the order of the successors and the goal
test.  These counts were recorded before the inner loops were generated from one template
(commit 4129afe) and must never change unless the search itself is meant to change; any
refactoring of the loops, the move tables or the bounds keeps them.  They fail when linear
conflict is zeroed or when duplicate pruning is reduced to undoing the previous move
(``PRUNE_DEPTH = 2``) — checked by breaking each once.

Counts are written ``bound:nodes`` per iteration, in order.  Korf's instances are the
published ones (data/korf100.tsv); the small-board sets are fixed positions; the 4x4
pattern databases are the built assets (``make db``), the small-board ones are built here by
the real builders (dbbuild.pattern, dbbuild.pack78), as tests/test_pdb.py and
tests/test_pdb78.py do.
"""

from __future__ import annotations

import pytest

from fifteen import Board, Shape, solve
from fifteen.search.moves import move_tables
from support.positions import KORF, OWN_MIRROR_3X3, OWN_MIRROR_4X4, SET_2X4, SET_3X3

KORF_OPTIMAL = {"1": 57, "9": 46}
SETS = {"3x3": SET_3X3, "2x4": SET_2X4, "3x3 own mirror": OWN_MIRROR_3X3}


def iterations(result) -> str:
    return " ".join(f"{it.bound}:{it.nodes}" for it in result.iterations)


def set_counts(shape: Shape, positions, run) -> tuple[str, ...]:
    """``length=iterations`` per position; each solution is replayed."""
    out = []
    for tiles in positions:
        result = run(shape, list(tiles))
        assert Board(shape, tuple(tiles)).solves(result.tiles)
        out.append(f"{result.length}={iterations(result)}")
    return tuple(out)


def pdb_runner(db, reflect: bool, **more):
    from fifteen.bounds.pdb_loop import pdb_searcher
    from fifteen.search.ida import ida_star

    factory = pdb_searcher(db, reflect=reflect, **more)
    return lambda shape, tiles: ida_star(shape, tiles, factory)


def pdb78_runner(db, reflect: bool):
    from fifteen.bounds.pdb78_loop import pdb78_searcher
    from fifteen.search.ida import ida_star

    factory = pdb78_searcher(db, reflect=reflect)
    return lambda shape, tiles: ida_star(shape, tiles, factory)


def named_runner(bound: str):
    return lambda shape, tiles: solve(Board(shape, tuple(tiles)), bound).result


# ----------------------------------------------------------------- pinned values
KORF_COUNTS: dict[tuple[str, str], tuple[int, str]] = {
    ("md", "9"): (599783, "32:2 34:25 36:242 38:1993 40:12750 42:70527 44:355092 46:159152"),
    ("lc", "9"): (38178, "36:2 38:138 40:757 42:4320 44:24260 46:8701"),
    ("id", "9"): (438872, "32:2 34:10 36:134 38:994 40:7473 42:44242 44:242824 46:143193"),
    ("wd", "9"): (146311, "34:2 36:21 38:400 40:2707 42:16672 44:89497 46:37012"),
    ("wdid", "9"): (90358, "34:2 36:17 38:214 40:1527 42:9679 44:54385 46:24534"),
    ("wdid", "1"): (1275082, "47:75 49:770 51:6214 53:48233 55:344295 57:875495"),
    ("pdb555", "9"): (26890, "36:2 38:19 40:189 42:1148 44:6309 46:19223"),
    ("pdb555", "1"): (658810, "45:33 47:225 49:1339 51:8960 53:54456 55:322378 57:271419"),
    ("pdb663", "9"): (4856, "38:10 40:103 42:534 44:3119 46:1090"),
    ("pdb663", "1"): (168325, "47:29 49:241 51:1709 53:12047 55:81346 57:72953"),
    ("pdb663 plain", "9"): (9142, "38:11 40:161 42:956 44:5701 46:2313"),
    ("pdb771", "9"): (1374, "40:9 42:145 44:920 46:300"),
    ("pdb771", "1"): (9707, "51:32 53:326 55:2115 57:7234"),
}
#: The PDB loops with more lookups (bench/lookups.md): BPMX, the dual lookups, both.
MORE_LOOKUPS = {"bpmx": {"bpmx": True}, "dual": {"dual": True}, "dual bpmx": {"dual": True, "bpmx": True}}
MORE_LOOKUPS_COUNTS: dict[tuple[str, str, str], tuple[int, str]] = {
    ("pdb663", "bpmx", "9"): (4818, "38:10 40:103 42:534 44:3083 46:1088"),
    ("pdb663", "bpmx", "1"): (167168, "47:29 49:241 51:1703 53:11985 55:80711 57:72499"),
    ("pdb663", "dual", "9"): (4247, "38:7 40:91 42:477 44:2697 46:975"),
    ("pdb663", "dual", "1"): (139204, "47:28 49:229 51:1493 53:10092 55:65573 57:61789"),
    ("pdb663", "dual bpmx", "9"): (4223, "38:7 40:91 42:477 44:2675 46:973"),
    ("pdb663", "dual bpmx", "1"): (138566, "47:28 49:229 51:1487 53:10045 55:65247 57:61530"),
    ("pdb555", "bpmx", "9"): (26681, "36:2 38:19 40:189 42:1141 44:6280 46:19050"),
    ("pdb555", "dual", "9"): (21852, "36:2 38:19 40:180 42:1049 44:5401 46:15201"),
    ("pdb555", "dual bpmx", "9"): (21715, "36:2 38:19 40:180 42:1044 44:5377 46:15093"),
}
OWN_MIRROR_4X4_COUNTS: list[tuple[int, str]] = [
    (82253, "36:1 38:2 40:20 42:106 44:593 46:2604 48:12492 50:60069 52:6366"),
    (51421, "22:1 24:12 26:33 28:166 30:545 32:2116 34:7516 36:26827 38:14205"),
    (1939, "38:45 40:258 42:1096 44:540"),
]
SMALL_COUNTS: dict[tuple[str, str], tuple[str, ...]] = {
    ("3x3", "md"): (
        "14=14:14",
        "15=13:18 15:21",
        "16=12:5 14:22 16:34",
        "18=12:4 14:23 16:70 18:161",
        "22=12:1 14:7 16:35 18:118 20:318 22:220",
        "23=11:10 13:32 15:75 17:192 19:464 21:1122 23:2070",
        "23=15:3 17:26 19:119 21:421 23:759",
        "31=21:3 23:42 25:242 27:1653 29:7147 31:623",
    ),
    ("3x3", "lc"): (
        "14=14:14",
        "15=13:10 15:21",
        "16=14:5 16:29",
        "18=12:3 14:11 16:30 18:103",
        "22=14:3 16:20 18:72 20:216 22:141",
        "23=11:5 13:13 15:42 17:117 19:300 21:719 23:1337",
        "23=15:3 17:15 19:70 21:231 23:445",
        "31=23:14 25:151 27:982 29:3895 31:298",
    ),
    ("3x3", "id"): (
        "14=14:17",
        "15=13:18 15:31",
        "16=12:5 14:25 16:33",
        "18=12:3 14:18 16:57 18:157",
        "22=12:1 14:15 16:58 18:166 20:426 22:285",
        "23=9:5 11:16 13:44 15:103 17:238 19:516 21:1222 23:2277",
        "23=13:1 15:11 17:65 19:195 21:586 23:974",
        "31=23:19 25:251 27:1525 29:6735 31:1100",
    ),
    ("3x3", "wd"): (
        "14=14:14",
        "15=13:3 15:17",
        "16=12:2 14:14 16:23",
        "18=12:3 14:11 16:47 18:123",
        "22=16:8 18:35 20:132 22:121",
        "23=11:4 13:15 15:42 17:101 19:272 21:656 23:1190",
        "23=17:10 19:45 21:160 23:306",
        "31=25:31 27:320 29:1941 31:230",
    ),
    ("3x3", "wdid"): (
        "14=14:14",
        "15=13:3 15:17",
        "16=12:2 14:11 16:23",
        "18=12:3 14:10 16:27 18:93",
        "22=16:8 18:35 20:125 22:105",
        "23=11:4 13:13 15:38 17:89 19:227 21:533 23:958",
        "23=17:10 19:44 21:148 23:267",
        "31=25:31 27:295 29:1533 31:223",
    ),
    ("3x3", "pdb"): (
        "14=14:14",
        "15=15:15",
        "16=14:4 16:16",
        "18=16:6 18:35",
        "22=16:1 18:4 20:45 22:46",
        "23=15:1 17:39 19:91 21:233 23:486",
        "23=19:7 21:26 23:118",
        "31=27:48 29:502 31:40",
    ),
    ("3x3", "pdb dual"): (
        "14=14:14",
        "15=15:15",
        "16=14:4 16:16",
        "18=16:6 18:27",
        "22=16:1 18:4 20:31 22:40",
        "23=17:31 19:68 21:173 23:412",
        "23=19:7 21:26 23:107",
        "31=27:34 29:382 31:37",
    ),
    ("3x3", "pdb dual bpmx"): (
        "14=14:14",
        "15=15:15",
        "16=14:4 16:16",
        "18=16:6 18:27",
        "22=16:1 18:4 20:31 22:39",
        "23=17:31 19:68 21:169 23:406",
        "23=19:7 21:26 23:107",
        "31=27:34 29:382 31:37",
    ),
    ("3x3", "pdb78"): (
        "14=14:14",
        "15=15:15",
        "16=14:4 16:16",
        "18=18:19",
        "22=16:1 18:3 20:43 22:39",
        "23=17:7 19:37 21:121 23:225",
        "23=19:2 21:16 23:69",
        "31=29:72 31:40",
    ),
    ("3x3", "pdb plain"): (
        "14=14:14",
        "15=15:15",
        "16=12:4 14:9 16:29",
        "18=16:11 18:43",
        "22=16:1 18:21 20:93 22:71",
        "23=13:7 15:36 17:84 19:179 21:411 23:787",
        "23=19:7 21:27 23:162",
        "31=27:91 29:769 31:50",
    ),
    ("3x3", "pdb78 plain"): (
        "14=14:14",
        "15=15:15",
        "16=12:3 14:9 16:27",
        "18=18:19",
        "22=16:1 18:19 20:89 22:59",
        "23=15:1 17:35 19:80 21:198 23:381",
        "23=19:7 21:23 23:103",
        "31=29:125 31:50",
    ),
    ("2x4", "md"): (
        "12=10:1 12:14",
        "14=10:8 12:25 14:62",
        "18=12:2 14:14 16:52 18:100",
        "18=8:8 10:21 12:51 14:88 16:163 18:169",
        "19=11:1 13:14 15:38 17:67 19:95",
        "28=12:1 14:8 16:18 18:42 20:99 22:214 24:480 26:1110 28:1132",
    ),
    ("2x4", "lc"): (
        "12=10:1 12:14",
        "14=10:7 12:17 14:43",
        "18=14:2 16:21 18:53",
        "18=8:6 10:13 12:31 14:52 16:104 18:119",
        "19=13:7 15:17 17:35 19:62",
        "28=18:2 20:21 22:73 24:233 26:541 28:630",
    ),
    ("2x4", "id"): (
        "12=10:1 12:12",
        "14=10:10 12:21 14:52",
        "18=12:2 14:9 16:35 18:81",
        "18=12:23 14:42 16:108 18:110",
        "19=15:10 17:29 19:75",
        "28=20:11 22:57 24:214 26:576 28:663",
    ),
    ("2x4", "wd"): (
        "12=10:1 12:12",
        "14=12:6 14:41",
        "18=16:10 18:44",
        "18=8:5 10:17 12:33 14:55 16:97 18:98",
        "19=15:2 17:31 19:55",
        "28=18:1 20:7 22:42 24:98 26:267 28:362",
    ),
    ("2x4", "wdid"): (
        "12=10:1 12:12",
        "14=12:4 14:34",
        "18=16:10 18:41",
        "18=12:19 14:35 16:71 18:76",
        "19=17:10 19:46",
        "28=20:1 22:10 24:53 26:196 28:288",
    ),
    ("2x4", "pdb plain"): (
        "12=12:12",
        "14=14:16",
        "18=16:2 18:21",
        "18=14:1 16:16 18:32",
        "19=19:20",
        "28=22:2 24:18 26:40 28:123",
    ),
    ("2x4", "pdb78 plain"): (
        "12=12:12",
        "14=14:16",
        "18=16:2 18:21",
        "18=14:1 16:16 18:32",
        "19=19:20",
        "28=22:2 24:18 26:40 28:123",
    ),
    ("3x3 own mirror", "md"): (
        "16=4:1 6:3 8:9 10:18 12:34 14:74 16:31",
        "24=16:49 18:112 20:271 22:718 24:284",
        "24=14:5 16:30 18:99 20:281 22:772 24:124",
        "26=16:1 18:5 20:43 22:191 24:540 26:1041",
        "20=10:7 12:20 14:55 16:131 18:295 20:190",
        "26=12:1 14:3 16:35 18:91 20:234 22:613 24:1559 26:2624",
        "28=16:1 18:26 20:150 22:375 24:985 26:2802 28:1254",
    ),
    ("3x3 own mirror", "lc"): (
        "16=4:1 6:2 8:4 10:11 12:21 14:53 16:27",
        "24=16:19 18:42 20:130 22:356 24:191",
        "24=14:5 16:17 18:59 20:160 22:423 24:92",
        "26=16:1 18:2 20:13 22:57 24:232 26:390",
        "20=14:19 16:63 18:154 20:119",
        "26=16:1 18:3 20:84 22:224 24:706 26:1131",
        "28=16:1 18:3 20:40 22:152 24:485 26:1477 28:662",
    ),
    ("3x3 own mirror", "id"): (
        "16=6:1 8:3 10:11 12:26 14:63 16:21",
        "24=12:5 14:20 16:52 18:121 20:284 22:720 24:332",
        "24=12:2 14:13 16:34 18:98 20:240 22:673 24:91",
        "26=20:1 22:21 24:198 26:443",
        "20=8:1 10:7 12:24 14:59 16:129 18:272 20:240",
        "26=12:1 14:3 16:18 18:67 20:192 22:506 24:1317 26:2473",
        "28=16:1 18:8 20:41 22:228 24:679 26:2048 28:1182",
    ),
    ("3x3 own mirror", "wd"): (
        "16=4:1 6:3 8:8 10:16 12:30 14:59 16:26",
        "24=16:13 18:55 20:114 22:321 24:98",
        "24=14:2 16:17 18:67 20:169 22:441 24:89",
        "26=16:1 18:2 20:11 22:50 24:227 26:543",
        "20=10:7 12:20 14:55 16:117 18:235 20:141",
        "26=20:41 22:170 24:545 26:1032",
        "28=20:1 22:27 24:215 26:871 28:486",
    ),
    ("3x3 own mirror", "wdid"): (
        "16=6:1 8:3 10:10 12:24 14:50 16:20",
        "24=16:13 18:49 20:101 22:271 24:92",
        "24=14:2 16:13 18:48 20:115 22:289 24:63",
        "26=20:1 22:14 24:102 26:245",
        "20=10:5 12:15 14:34 16:86 18:181 20:127",
        "26=20:41 22:144 24:420 26:828",
        "28=20:1 22:19 24:189 26:686 28:375",
    ),
    ("3x3 own mirror", "pdb"): (
        "16=16:16",
        "24=20:13 22:37 24:43",
        "24=14:2 16:8 18:15 20:37 22:107 24:112",
        "26=22:1 24:2 26:49",
        "20=16:1 18:7 20:24",
        "26=16:1 18:2 20:9 22:29 24:138 26:33",
        "28=16:1 18:1 20:8 22:32 24:122 26:373 28:56",
    ),
    ("3x3 own mirror", "pdb dual"): (
        "16=16:16",
        "24=20:13 22:37 24:43",
        "24=16:5 18:11 20:31 22:82 24:91",
        "26=22:1 24:2 26:48",
        "20=16:1 18:6 20:24",
        "26=16:1 18:2 20:8 22:26 24:100 26:29",
        "28=18:1 20:7 22:31 24:113 26:307 28:54",
    ),
    ("3x3 own mirror", "pdb dual bpmx"): (
        "16=16:16",
        "24=20:13 22:37 24:43",
        "24=16:5 18:11 20:31 22:82 24:86",
        "26=22:1 24:2 26:48",
        "20=16:1 18:6 20:24",
        "26=16:1 18:2 20:8 22:26 24:100 26:29",
        "28=18:1 20:7 22:31 24:111 26:306 28:54",
    ),
    ("3x3 own mirror", "pdb78"): (
        "16=16:16",
        "24=20:9 22:25 24:31",
        "24=16:2 18:7 20:16 22:49 24:25",
        "26=22:1 24:2 26:49",
        "20=16:1 18:7 20:24",
        "26=18:1 20:4 22:12 24:62 26:153",
        "28=18:1 20:1 22:7 24:33 26:187 28:73",
    ),
    ("3x3 own mirror", "pdb plain"): (
        "16=16:16",
        "24=20:25 22:110 24:46",
        "24=14:2 16:8 18:18 20:42 22:135 24:34",
        "26=22:1 24:2 26:49",
        "20=16:4 18:53 20:52",
        "26=16:1 18:6 20:13 22:61 24:239 26:398",
        "28=16:1 18:1 20:44 22:119 24:300 26:743 28:293",
    ),
    ("3x3 own mirror", "pdb78 plain"): (
        "16=16:16",
        "24=20:15 22:52 24:31",
        "24=16:2 18:8 20:18 22:51 24:26",
        "26=22:1 24:2 26:49",
        "20=16:4 18:43 20:45",
        "26=18:1 20:8 22:30 24:103 26:227",
        "28=18:1 20:1 22:11 24:69 26:293 28:114",
    ),
}
AUTOMATON = {  # (shape, mirror-closed): (states, forbidden sequences)
    ("4x4", False): (3716, 948),
    ("4x4", True): (3692, 934),
    ("3x3", False): (330, 100),
    ("3x3", True): (320, 90),
    ("2x4", False): (322, 72),
    ("3x4", False): (1342, 354),
}


# ----------------------------------------------------------------- tests
@pytest.mark.parametrize("bound,instance", [key for key in KORF_COUNTS if key[0] != "pdb663 plain"])
def test_korf_node_counts(real_pdbs, bound, instance):
    nodes, per_iteration = KORF_COUNTS[bound, instance]
    board = Board(Shape(4, 4), KORF[instance])
    sol = solve(board, bound)
    assert sol.length == KORF_OPTIMAL[instance] and board.solves(sol.tiles)
    assert (sol.result.nodes, iterations(sol.result)) == (nodes, per_iteration)


@pytest.mark.parametrize("bound,variant,instance", sorted(MORE_LOOKUPS_COUNTS))
def test_more_lookups_node_counts(real_pdbs, bound, variant, instance):
    """BPMX, the dual lookups and both: fewer nodes than the default loop, every solution optimal."""
    result = pdb_runner(real_pdbs[bound], True, **MORE_LOOKUPS[variant])(Shape(4, 4), list(KORF[instance]))
    assert Board(Shape(4, 4), KORF[instance]).solves(result.tiles) and result.length == KORF_OPTIMAL[instance]
    assert (result.nodes, iterations(result)) == MORE_LOOKUPS_COUNTS[bound, variant, instance]


@pytest.mark.parametrize("variant", ["dual", "dual bpmx"])
@pytest.mark.parametrize("name", ["3x3", "3x3 own mirror"])
def test_small_board_more_lookups_node_counts(small_pdbs, name, variant):
    got = set_counts(Shape(3, 3), SETS[name], pdb_runner(small_pdbs["3x3"], True, **MORE_LOOKUPS[variant]))
    assert got == SMALL_COUNTS[name, f"pdb {variant}"]


def test_plain_pdb_loop_on_4x4(real_pdbs):
    """The 6-6-3 database without its reflected lookup (the plain loop) on Korf #9."""
    result = pdb_runner(real_pdbs["pdb663"], reflect=False)(Shape(4, 4), list(KORF["9"]))
    assert (result.length, result.nodes, iterations(result)) == (46,) + KORF_COUNTS["pdb663 plain", "9"]


def test_own_mirror_4x4_node_counts(real_pdbs):
    got = []
    for tiles in OWN_MIRROR_4X4:
        result = solve(Board(Shape(4, 4), tiles), "pdb663").result
        got.append((result.nodes, iterations(result)))
    assert got == OWN_MIRROR_4X4_COUNTS


@pytest.mark.parametrize("bound", ["md", "lc", "id", "wd", "wdid"])
@pytest.mark.parametrize("name", list(SETS))
def test_small_board_node_counts(name, bound):
    shape = Shape.parse(name.split()[0])
    assert set_counts(shape, SETS[name], named_runner(bound)) == SMALL_COUNTS[name, bound]


# The reflected lookup needs a square board: the 2x4 set has the plain loop only.
WITH_REFLECT = [(name, reflect) for name in SETS for reflect in (True, False) if reflect is False or not name.startswith("2x4")]


@pytest.mark.parametrize("name,reflect", WITH_REFLECT)
def test_small_board_pdb_node_counts(small_pdbs, name, reflect):
    shape = Shape.parse(name.split()[0])
    got = set_counts(shape, SETS[name], pdb_runner(small_pdbs[str(shape)], reflect))
    assert got == SMALL_COUNTS[name, "pdb" if reflect else "pdb plain"]


@pytest.mark.parametrize("name,reflect", WITH_REFLECT)
def test_small_board_pdb78_node_counts(small_packs, name, reflect):
    shape = Shape.parse(name.split()[0])
    got = set_counts(shape, SETS[name], pdb78_runner(small_packs[str(shape)], reflect))
    assert got == SMALL_COUNTS[name, "pdb78" if reflect else "pdb78 plain"]


@pytest.mark.parametrize("shape,mirror_closed", sorted(AUTOMATON))
def test_automaton_size(shape, mirror_closed):
    """States and forbidden sequences of the duplicate-pruning automaton (3,716 states on 4x4)."""
    tables = move_tables(Shape.parse(shape), mirror_closed)
    assert (tables.states, tables.forbidden) == AUTOMATON[shape, mirror_closed]
