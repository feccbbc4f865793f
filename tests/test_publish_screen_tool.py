"""tools/publish_screen.sh, run as a process: it copies a screen's files into
its folder, and never overwrites a folder that another screen's cards hold."""
import subprocess

from cli_process import ROOT

SCRIPT = str(ROOT / "tools" / "publish_screen.sh")


def publish(folder, cards, study, log, edits="x.capture=1"):
    return subprocess.run(["sh", SCRIPT, str(folder), str(cards), str(study), str(log), edits],
                          capture_output=True, text=True, timeout=30)


def screen_files(tmp_path, cards_text):
    study = tmp_path / "study"
    study.mkdir(exist_ok=True)
    (study / "report.json").write_text('{"n": 1}')
    log = tmp_path / "log"
    log.write_text("head\n10/20 ETA 0:01\rdone\n")
    cards = tmp_path / "cards.toml"
    cards.write_text(cards_text)
    return cards, study, log


def test_a_screen_is_published_and_republished_with_the_same_cards(tmp_path):
    cards, study, log = screen_files(tmp_path, 'name = "s"\n')
    folder = tmp_path / "pub" / "s-2p"
    for _ in range(2):
        done = publish(folder, cards, study, log)
        assert done.returncode == 0, done.stderr
    assert (folder / "cards.toml").read_text() == 'name = "s"\n'
    assert (folder / "edits.txt").read_text() == "x.capture=1\n"
    assert (folder / "report.json").read_text() == '{"n": 1}'
    assert (folder / "summary.txt").read_text() == "head\ndone\n"


def test_a_folder_of_another_screen_is_left_intact(tmp_path):
    cards, study, log = screen_files(tmp_path, 'name = "old"\n')
    folder = tmp_path / "pub" / "b2-3p"
    assert publish(folder, cards, study, log).returncode == 0
    cards.write_text('name = "new"\n')
    (study / "report.json").write_text('{"n": 2}')
    done = publish(folder, cards, study, log)
    assert done.returncode == 1
    assert "holds another screen's cards" in done.stderr
    assert (folder / "cards.toml").read_text() == 'name = "old"\n'
    assert (folder / "report.json").read_text() == '{"n": 1}'
