"""The WD asset: round trip, and refusal of corrupt, truncated or wrong-version files."""

import struct

import pytest

from fifteen import AssetError, Shape
from fifteen.dbfile import read_asset, write_asset
from fifteen.walking import WalkingTable


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
