"""Paths the user names for writing: only a regular file or a new path is
written or replaced; a device, a fifo, a directory or a symlink to one is
refused with one error line, and left as it was."""
import os
import stat

import pytest

from coexist_ai.cards import default_card_set
from coexist_ai.paths import PathError, open_locked_for_append
from coexist_ai.play import gamefile
from coexist_ai.records import read_records
from cli_process import assert_clear_error, assert_ok, cli


def char_device(path):
    """A character device at `path`: a copy of /dev/null where this user
    may make device nodes, else a symlink to /dev/null itself (which is
    refused the same way and which a bug could only replace the link of)."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        os.symlink("/dev/null", path)
    return "a character device"


def fifo(path):
    os.mkfifo(path)
    return "a fifo"


def link_to_null(path):
    os.symlink("/dev/null", path)
    return "a character device"


def link_to_fifo(path):
    os.mkfifo(str(path) + ".fifo")
    os.symlink(str(path) + ".fifo", path)
    return "a fifo"


def dangling_link(path):
    os.symlink(str(path) + ".nothing", path)
    return "a symlink to nothing"


MAKERS = [char_device, fifo, link_to_null, link_to_fifo, dangling_link]


def identity(path):
    """What is at `path`, without following a symlink."""
    st = os.lstat(path)
    return st.st_mode, st.st_ino, st.st_rdev


@pytest.mark.parametrize("make", MAKERS, ids=lambda m: m.__name__)
def test_play_save_refuses_what_is_not_a_regular_file(tmp_path, make):
    path = tmp_path / "target"
    kind = make(path)
    before = identity(path)
    proc = cli("play", "--vs", "random", "--seed", 1, "--save", path, timeout=60)
    assert_clear_error(proc, str(path), kind, "regular file or a new path")
    assert identity(path) == before


@pytest.mark.parametrize("make", MAKERS, ids=lambda m: m.__name__)
def test_records_out_refuses_what_is_not_a_regular_file(tmp_path, make):
    path = tmp_path / "target"
    kind = make(path)
    before = identity(path)
    proc = cli("duel", "random", "random", "--games", 2, "--jobs", 1, "--quiet",
               "--out", path, timeout=60)
    assert_clear_error(proc, str(path), kind)
    assert identity(path) == before


def test_play_save_to_a_directory_is_refused(tmp_path):
    assert_clear_error(cli("play", "--vs", "random", "--save", tmp_path), str(tmp_path))


def test_a_save_through_a_symlink_writes_its_target(tmp_path):
    target, link = tmp_path / "real.jsonl", tmp_path / "link.jsonl"
    target.write_bytes(b"")
    os.symlink(target, link)
    proc = cli("play", "--vs", "random", "--seed", 1, "--save", link, timeout=60)
    assert_ok(proc)
    assert os.path.islink(link) and os.readlink(link) == str(target)
    (record,) = read_records(str(target))
    assert record["end"] == "unfinished"


def test_a_save_never_replaces_the_file_a_run_is_writing(tmp_path):
    out = tmp_path / "duel.jsonl"
    record, _ = gamefile.new_record(default_card_set(), ["human", "random"], [None, 1], 3,
                                    ["you", "random"])
    held = open_locked_for_append(str(out))      # as a running duel holds it
    try:
        with pytest.raises(gamefile.GameFileError, match="a running duel or tournament"):
            gamefile.save_game(str(out), [], 0, record)
        with pytest.raises(PathError, match="being written by another run"):
            open_locked_for_append(str(out))
        # refused before the game starts, not at its first save
        assert_clear_error(cli("play", "--vs", "random", "--save", out),
                           "a running duel or tournament is writing it")
    finally:
        held.close()
    gamefile.save_game(str(out), [], 0, record)   # once the run is over
    assert read_records(str(out)) == [record]


@pytest.mark.parametrize("make", [char_device, fifo], ids=lambda m: m.__name__)
def test_records_are_never_read_from_what_is_not_a_regular_file(tmp_path, make):
    """`tournament ratings /dev/zero` would read forever; a fifo would
    wait forever for a writer."""
    path = tmp_path / "source"
    kind = make(path)
    proc = cli("tournament", "ratings", path, timeout=60)
    assert_clear_error(proc, str(path), kind)
    assert_clear_error(cli("replay", path, "--to-end", timeout=60), str(path), kind)


@pytest.mark.parametrize("make", [char_device, fifo, link_to_null], ids=lambda m: m.__name__)
def test_export_and_report_never_overwrite_what_is_not_a_regular_file(tmp_path, make):
    records = tmp_path / "duel.jsonl"
    assert_ok(cli("duel", "random", "greedy", "--games", 2, "--jobs", 1, "--quiet",
                  "--out", records))
    path = tmp_path / "target"
    kind = make(path)
    before = identity(path)
    for args in (("export", records, "--format", "csv", "--out", path),
                 ("report", records, "--out", path)):
        assert_clear_error(cli("tournament", *args, timeout=60), str(path), kind)
        assert identity(path) == before
