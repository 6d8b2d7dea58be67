"""Can the 7-8 pack be stored in 2 bits per entry?  (bench/pdb78.md, "A compact pack")

A 2-bit form keeps each entry mod 3 and recovers the child's entry from the parent's, which is
exact only where an entry changes by -1, 0 or +1 along every move of a group tile.  This
counts, over the real tables (the raw BFS entries that ``make pack`` keeps in
``~/.cache/fifteen-db/raw/``), how the entries change along the moves and how many
placements have a move that changes their entry by 2 or more (they would need their exact
entry elsewhere: the fourth 2-bit code plus a side table), and the memory and xz sizes of the
forms.  Needs numba (in requirements-dev.txt)::

    PYTHONPATH=py .venv/bin/python bench/pack_compact.py [--xz] [--raw DIR]
"""

from __future__ import annotations

import argparse
import lzma
import math
import time
from pathlib import Path

import numpy as np

from dbbuild import pack78
from dbbuild.cache import default_cache_dir
from fifteen.bounds.pdb78 import PARTITIONS

MB = 1e6


def entropy_bits(entries: np.ndarray) -> float:
    """Bits per entry of the entries' zero-order entropy: no code that stores each entry by
    itself (even an ideal one, without random access) takes less on average."""
    counts = np.bincount(entries).astype(np.float64)
    p = counts[counts > 0] / entries.size
    return float(-(p * np.log2(p)).sum())


def two_bit_codes(entries: np.ndarray, marks: np.ndarray) -> bytes:
    """The entries mod 3, 3 where marked, four per byte (entry x in bits 2*(x & 3))."""
    codes = np.where(marks == 1, 3, entries % 3).astype(np.uint8)
    codes = np.concatenate([codes, np.zeros((-codes.size) % 4, np.uint8)])
    return (codes[0::4] | (codes[1::4] << 2) | (codes[2::4] << 4) | (codes[3::4] << 6)).astype(np.uint8).tobytes()


def nibbles(entries: np.ndarray) -> bytes:
    e = np.concatenate([entries, np.zeros(entries.size & 1, np.uint8)])
    return (e[0::2] | (e[1::2] << 4)).astype(np.uint8).tobytes()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--raw", type=Path, default=default_cache_dir() / "raw", help="the raw cache of make pack")
    ap.add_argument("--xz", action="store_true", help="also xz -9 both forms of each table (minutes per table)")
    args = ap.parse_args()
    total = {"entries": 0, "steep": 0, "nibbles": 0, "two_bit": 0, "side": 0, "entropy": 0.0}
    for tiles in PARTITIONS["78"]:
        base = pack78.raw_cache_base(args.raw, 4, 4, tiles)
        if not base.with_suffix(".u8").exists():
            print(f"tiles {tiles[0]}-{tiles[-1]}: no raw entries in {args.raw} (make pack keeps them): the totals leave them out")
            continue
        entries = np.fromfile(base.with_suffix(".u8"), dtype=np.uint8)
        t0 = time.process_time()
        hist, marks = pack78.entry_changes(4, 4, tiles, entries)
        steep = int(marks.sum())
        print(f"tiles {tiles[0]}-{tiles[-1]}: {entries.size:,} placements, {time.process_time() - t0:.0f} s CPU")
        print(f"  moves by change of the entry -3..3 (clipped): {', '.join(f'{c:,}' for c in hist)}")
        print(f"  placements with a change of 2 or more: {steep:,} ({steep / entries.size:.3%})")
        bits = entropy_bits(entries)
        total["entropy"] += bits * entries.size / 8
        print(f"  zero-order entropy: {bits:.4f} bits per entry ({bits * entries.size / 8 / MB:.1f} MB)")
        two_bit = two_bit_codes(entries, marks)
        nib = nibbles(entries)
        total["entries"] += entries.size
        total["steep"] += steep
        total["nibbles"] += len(nib)
        total["two_bit"] += len(two_bit)
        total["side"] += (steep + 1) // 2
        if args.xz:
            for name, data in (("nibbles", nib), ("2-bit codes", two_bit), ("exact entries of the marked", entries[marks == 1].tobytes())):
                t0 = time.process_time()
                size = len(lzma.compress(data, preset=9))
                print(f"  xz -9 of the {name}: {len(data):,} -> {size:,} B ({time.process_time() - t0:.0f} s CPU)")
    # A directory for the side table: the count of marked placements before every 1,024th entry.
    directory = 4 * (total["entries"] // 1024 + 1)
    print(f"memory, nibbles: {total['nibbles'] / MB:.1f} MB")
    print(f"memory, any code storing each entry by itself: at least {math.ceil(total['entropy'] / MB * 10) / 10:.1f} MB (entropy)")
    print(
        f"memory, 2 bits + exact entries of the {total['steep']:,} marked as nibbles + directory: "
        f"{total['two_bit'] / MB:.1f} + {total['side'] / MB:.1f} + {directory / MB:.1f} = "
        f"{(total['two_bit'] + total['side'] + directory) / MB:.1f} MB"
    )


if __name__ == "__main__":
    main()
