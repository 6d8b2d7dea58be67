"""The WD asset: round trip, and refusal of corrupt, truncated or wrong-version files."""

import hashlib
import struct

import pytest

from fifteen import AssetError, Shape
from fifteen.bounds.walking import NO_LINK, WalkingTable
from fifteen.db.container import read_asset, write_asset


@pytest.fixture(scope="module")
def asset():
    return WalkingTable.build(Shape(3, 4)).to_bytes()


def test_round_trip(asset):
    built = WalkingTable.build(Shape(3, 4))
    loaded = WalkingTable.from_bytes(asset)
    assert loaded.keys == built.keys and loaded.values == built.values and loaded.links == built.links


def test_4x4_asset_round_trip():
    built = WalkingTable.build(Shape(4, 4))
    loaded = WalkingTable.from_bytes(built.to_bytes(), shape=Shape(4, 4))
    assert len(loaded) == 24964 and loaded.maximum == 35 and loaded.links == built.links


def test_corrupt_byte_refused(asset):
    bad = bytearray(asset)
    bad[len(bad) // 2] ^= 0x40
    with pytest.raises(AssetError, match="checksum mismatch"):
        WalkingTable.from_bytes(bytes(bad), "wd-3x4.f15")


def test_truncated_refused(asset):
    with pytest.raises(AssetError, match="truncated"):
        WalkingTable.from_bytes(asset[:-10], "wd-3x4.f15")
    with pytest.raises(AssetError, match="truncated"):
        WalkingTable.from_bytes(asset[:10], "wd-3x4.f15")


def test_wrong_version_refused(asset):
    bad = bytearray(asset)
    struct.pack_into("<H", bad, 8, 99)
    with pytest.raises(AssetError, match="format version 99 is not supported"):
        WalkingTable.from_bytes(bytes(bad))


def test_wrong_kind_and_shape_refused(asset):
    other = write_asset({"kind": "pdb", "rows": 3, "cols": 4}, b"x")
    with pytest.raises(AssetError, match="expected 'wd'"):
        WalkingTable.from_bytes(other)
    with pytest.raises(AssetError, match="expected 4x4"):
        WalkingTable.from_bytes(asset, shape=Shape(4, 4))


def test_inconsistent_payload_refused():
    data = write_asset({"kind": "wd", "rows": 3, "cols": 4, "states": 5, "link_bytes": 2, "max": 1}, b"\0" * 7)
    with pytest.raises(AssetError, match="payload is 7 bytes"):
        WalkingTable.from_bytes(data)


def test_container_round_trip_uncompressed():
    data = write_asset({"kind": "x", "rows": 1}, b"abc", compress=False)
    a = read_asset(data)
    assert a.payload == b"abc" and a.kind == "x"


def test_asset_meta_and_payload_pinned():
    """The container's metadata and payload of two WD tables (2-byte links), pinned."""
    for shape, states, maximum, digest in (
        (Shape(3, 3), 105, 14, "a9eb5fa1df701b08c17bf8f2b250867d74009f1b8564af502c0c65dbbe56bbf5"),
        (Shape(3, 4), 255, 18, "4d81352ca88b1ffa4a6b200f4b7c0e367657bae079f424ddd009296f5234c683"),
    ):
        table = WalkingTable.build(shape)
        asset = read_asset(table.to_bytes())
        rows = shape.rows
        assert asset.meta == {"kind": "wd", "rows": shape.rows, "cols": shape.cols, "states": states, "max": maximum, "link_bytes": 2}
        assert len(asset.payload) == states * (rows * rows + 1 + 2 * rows * 2)
        assert hashlib.sha256(bytes(asset.payload)).hexdigest() == digest


def test_four_byte_links_round_trip():
    """Tables of 65,535 states or more store 4-byte links (no supported shape needs them yet)."""
    n = 0xFFFF
    keys = [i.to_bytes(4, "little") for i in range(n)]
    links = [(i + 1) % n if i % 3 else NO_LINK for i in range(n * 4)]
    table = WalkingTable(Shape(2, 2), keys, bytes([0] + [1] * (n - 1)), links)
    data = table.to_bytes()
    assert read_asset(data).meta["link_bytes"] == 4
    loaded = WalkingTable.from_bytes(data)
    assert loaded.links == links and loaded.keys == keys and len(loaded) == n
    smaller = WalkingTable(Shape(2, 2), keys[:-1], bytes([0] + [1] * (n - 2)), [x if x != n - 1 else 0 for x in links[:-4]])
    assert read_asset(smaller.to_bytes()).meta["link_bytes"] == 2
    # 2-byte links of more than 32,767 states: read unsigned, the all-ones "no link" mapped
    assert WalkingTable.from_bytes(smaller.to_bytes()).links == smaller.links


@pytest.mark.parametrize("bad", [4, 0xFFFE])
def test_links_out_of_range_refused(bad):
    """A link past the last table, or one that a signed reading makes a negative index other than
    NO_LINK (0xFFFE: -2, which would wrap round a Python list), is refused."""
    table = WalkingTable.build(Shape(2, 2))
    assert len(table) == 4 and NO_LINK in table.links
    assert WalkingTable.from_bytes(table.to_bytes()).links == table.links
    links = list(table.links)
    links[links.index(NO_LINK)] = bad
    damaged = WalkingTable(Shape(2, 2), table.keys, table.values, links).to_bytes()
    with pytest.raises(AssetError, match="WD asset: inconsistent WD tables"):
        WalkingTable.from_bytes(damaged)


def test_bad_link_size_and_metadata_refused():
    data = write_asset({"kind": "wd", "rows": 3, "cols": 3, "states": 1, "link_bytes": 3, "max": 0}, b"")
    with pytest.raises(AssetError, match="WD asset: link size 3 is not 2 or 4"):
        WalkingTable.from_bytes(data)
    data = write_asset({"kind": "wd", "rows": 3, "cols": 3, "link_bytes": 2}, b"")
    with pytest.raises(AssetError, match=r"wd-x: bad WD metadata \('states'\)"):
        WalkingTable.from_bytes(data, "wd-x")
    # the right size, but the tables do not hang together (duplicate keys)
    data = write_asset({"kind": "wd", "rows": 2, "cols": 2, "states": 2, "link_bytes": 2, "max": 1}, bytes(2 * 4 + 2 + 2 * 4 * 2))
    with pytest.raises(AssetError, match="WD asset: inconsistent WD tables"):
        WalkingTable.from_bytes(data)


def test_which_shapes_have_wd_tables():
    """Every supported shape, and the WD tables each shape's boards read (both readings)."""
    from fifteen.bounds.walking import asset_file, supported_shapes, table_users

    assert [str(s) for s in supported_shapes()] == [f"{r}x{c}" for r in range(2, 11) for c in range(2, 11)]
    users = {str(table): [str(b) for b in boards] for table, boards in table_users().items()}
    pairs = {"2x3": "3x2", "2x4": "4x2", "2x5": "5x2", "3x4": "4x3"}
    expected = {"2x2": ["2x2"], "3x3": ["3x3"], "4x4": ["4x4"]}
    for a, b in pairs.items():
        expected[a] = expected[b] = [a, b]
    assert users == expected
    assert asset_file(Shape(3, 4)) == "wd-3x4.f15"
