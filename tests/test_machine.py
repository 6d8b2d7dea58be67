"""fifteen.machine: the free memory that --jobs and the wide numpy beams are sized by."""

from __future__ import annotations

import builtins
import os

import pytest

from fifteen import machine


def test_available_memory_is_linux_memavailable():
    with open("/proc/meminfo", encoding="ascii") as f:
        kib = {line.split(":")[0]: int(line.split()[1]) for line in f}
    assert kib["MemAvailable"] > 0
    # (the figure moves while the test runs: within 256 MB of the one read just before)
    assert abs(machine.available_memory() - kib["MemAvailable"] * 1024) < 256 << 20


def test_without_meminfo_the_free_pages_and_else_none(monkeypatch):
    real_open = builtins.open

    def no_meminfo(path, *args, **kwargs):
        if path == "/proc/meminfo":
            raise OSError("no /proc here")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", no_meminfo)
    pages = {"SC_AVPHYS_PAGES": 1000, "SC_PAGE_SIZE": 4096}
    monkeypatch.setattr(os, "sysconf", lambda name: pages[name])
    assert machine.available_memory() == 4_096_000

    def no_sysconf(name):
        raise ValueError(f"unknown {name}")

    monkeypatch.setattr(os, "sysconf", no_sysconf)
    assert machine.available_memory() is None


@pytest.mark.parametrize("text", ["MemTotal: 8 kB\n", "MemAvailable: lots kB\n"])
def test_a_meminfo_without_the_figure_falls_back_to_the_free_pages(monkeypatch, tmp_path, text):
    fake = tmp_path / "meminfo"
    fake.write_text(text, encoding="ascii")
    real_open = builtins.open
    monkeypatch.setattr(builtins, "open", lambda path, *a, **k: real_open(fake if path == "/proc/meminfo" else path, *a, **k))
    monkeypatch.setattr(os, "sysconf", lambda name: {"SC_AVPHYS_PAGES": 3, "SC_PAGE_SIZE": 4096}[name])
    assert machine.available_memory() == 12_288
