"""What the page's worker takes from fifteen.api instead of repeating it in JS:
the bound labels (``info``) and the container header's size (``container_size``)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fifteen import api, bounds
from fifteen.db import container


def _info() -> dict:
    reply = json.loads(api.call("info"))
    assert reply["ok"], reply
    return reply["result"]


def test_info_labels_every_bound_it_offers():
    info = _info()
    labels = info["labels"]
    assert labels["auto"] == "Strongest available"
    assert {b.name: b.label for b in bounds.bound_infos()}.items() <= labels.items()
    offered = {name for names in info["bounds"].values() for name in names}
    assert offered <= labels.keys(), offered - labels.keys()
    assert "7-8" in labels["pdb78"]  # the page's solution line names the pack's bound by this label


def test_container_size_from_the_header():
    data = container.write_asset({"kind": "wd", "rows": 2, "cols": 2}, bytes(range(200)), compress=False)
    head = data[: api.CONTAINER_HEADER_BYTES]
    assert json.loads(api.container_size("t.f15", head)) == {"ok": True, "result": len(data)}


@pytest.mark.parametrize(
    "head, match",
    [
        (b"FIFTEEN\x1a", "shorter than the header"),
        (b"NOTFIFTN" + bytes(16), "bad magic"),
        (b"FIFTEEN\x1a\x09\x00" + bytes(14), "format version 9"),
    ],
)
def test_container_size_refuses_what_is_not_a_container(head, match):
    reply = json.loads(api.container_size("t.f15", head))
    assert reply["ok"] is False and reply["error"]["type"] == "asset"
    assert reply["error"]["message"].startswith("t.f15: ") and match in reply["error"]["message"]


def test_the_worker_import_leaves_out_the_command_line():
    """The page's worker imports fifteen.api at every fresh start: argparse, which only the
    command line uses, alone took ~0.1 s of the ~0.16 s import in Pyodide."""
    code = "import sys, fifteen.api; print(sorted(m for m in ('argparse', 'fifteen.cli', 'fifteen.cli.lab') if m in sys.modules))"
    src = str(Path(api.__file__).resolve().parent.parent)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": src})
    assert out.stdout.strip() == "[]", out.stdout
