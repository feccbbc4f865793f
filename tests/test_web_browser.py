"""The web game in a real browser (headless Chromium from the system's
packages, driven by Playwright): a person plays a whole game by clicking,
asks for a hint, takes a move back, reloads the page mid-game and goes on;
the board's parts are where a screenshot shows them; the game is saved in
the terminal game's record format."""
import io
import json
import re

from PIL import Image
from web_page import Browser, Player
from web_server import WebServer

# the parts of the board a person must see, each drawn and on screen
BOARD_PARTS = ["#status", "#round", "#whose-turn", "#draw-pile", "#mission-cards",
               "#supply", "#seat-0", "#seat-1", "#seat-0 .track", "#seat-1 .track",
               "#seat-0 .pool", "#seat-0 .spaces", "#seat-1 .score", "#decision",
               "#actions", "#log", "#legal-moves"]


def check_screenshot(page):
    """Every part has a box inside the screenshot, and the screenshot shows
    something there (not one flat colour)."""
    shot = Image.open(io.BytesIO(page.screenshot(full_page=True))).convert("RGB")
    for selector in BOARD_PARTS:
        node = page.locator(selector).first
        assert node.is_visible(), selector
        box = node.bounding_box()
        assert box and box["width"] >= 8 and box["height"] >= 8, (selector, box)
        left, top = int(box["x"]), int(box["y"])
        right, bottom = int(box["x"] + box["width"]), int(box["y"] + box["height"])
        assert 0 <= left < right <= shot.width and 0 <= top < bottom <= shot.height, (
            selector, box, shot.size)
        colours = shot.crop((left, top, right, bottom)).getcolors(maxcolors=1 << 16)
        assert colours is None or len(colours) > 1, f"{selector} is blank in the screenshot"


def test_a_whole_game_by_clicks_with_hint_undo_and_reload(tmp_path):
    save = tmp_path / "game.jsonl"
    with WebServer("--vs", "greedy", "--seed", "5", "--pace", "0", "--save", save.name,
                   "--hint-bot", "ismcts:iterations=300", cwd=tmp_path) as server, \
            Browser() as browser:
        page = browser.page(server.url)
        person = Player(page, seat=0, seed=5)
        decisions = 0
        hinted = undone = reloaded = shot = explained = False
        while person.wait_turn():
            decisions += 1
            legal = person.legal()
            assert legal, "the page lists no legal move at the person's decision"
            if decisions == 3 and not hinted:
                page.click("#hint-button")
                page.wait_for_selector("#hint-text", timeout=60_000)
                hint = page.text_content("#hint-text")
                assert "Hint:" in hint and any(m in hint for m in legal), hint
                hinted = True
            if decisions == 6 and not shot:
                check_screenshot(page)
                shot = True
            if not explained and person.phase() == "choose" and person.own_animals():
                person.animal(person.own_animals()[0])     # not legal: the page says why
                page.wait_for_function("document.getElementById('message').textContent")
                assert "Conservation Center" in page.text_content("#message")
                explained = True
            move = person.choose(legal)
            person.play(move)
            if decisions == 8 and not undone:
                moves = int(person.state("moves"))
                person.wait_turn()
                page.click("#undo-button")
                page.wait_for_function(f"Number(document.body.dataset.moves) < {moves}")
                assert move in page.text_content("#message"), "the undo says what it took back"
                person.played.pop()
                undone = True
            if decisions == 12 and not reloaded:
                moves = person.state("moves")
                page.reload()
                page.wait_for_selector("body[data-version]")
                assert person.state("moves") == moves, "the reloaded page shows the same game"
                reloaded = True
        assert hinted and undone and reloaded and shot and explained
        page.wait_for_selector("#final:not([hidden])")
        verdict = page.text_content("#verdict")
        assert verdict.startswith(("You win", "You finish", "A shared")), verdict
        rows = page.locator("#final table tr").count()
        assert rows == 3, "a header and one row a seat"
        log = page.locator("#log-turns > li b").all_text_contents()
        bots = [t for t in log if t.startswith("seat 1")]
        assert bots and all(re.fullmatch(r"seat 1 \(greedy\) \(\d+\.\d s\): ", t)
                            for t in bots), "a bot's turn says how long it took"
        assert "seat 0 (you): " in log, "the person's own turns are not timed"
        assert not page.errors, page.errors
    record = json.loads(save.read_text().splitlines()[-1])
    assert record["end"] == "normal"
    assert [move for seat, move in record["moves"] if seat == 0] == person.played, (
        "each click made exactly the move it was meant to")


def test_watch_a_bot_game_then_step_through_it(tmp_path):
    with WebServer("--watch", "--vs", "greedy", "--vs", "random", "--seed", "2",
                   "--pace", "0", "--save", "watched.jsonl", cwd=tmp_path) as server, \
            Browser() as browser:
        page = browser.page(server.url)
        assert page.get_attribute("body", "data-mode") == "watch"
        page.wait_for_selector("#final:not([hidden])", timeout=120_000)
        total = int(page.get_attribute("body", "data-moves"))
        page.click("#replay-button")
        page.wait_for_selector("body[data-mode='replay']")
        assert page.get_attribute("body", "data-moves") == "0"
        page.click("#replay-bar [data-step='next']")
        page.wait_for_selector("body[data-moves='1']")
        page.keyboard.press("ArrowRight")
        page.wait_for_selector("body[data-moves='2']")
        page.click("#replay-bar [data-step='end']")
        page.wait_for_selector(f"body[data-moves='{total}']")
        page.wait_for_selector("#final:not([hidden])")
        page.set_input_files("#record-file", str(tmp_path / "watched.jsonl"))
        page.wait_for_function("document.getElementById('replay-label').textContent"
                               ".startsWith('watched.jsonl game 1 of 1')")
        assert page.get_attribute("body", "data-moves") == "0"
        assert not page.errors, page.errors


def test_a_new_game_from_the_form(tmp_path):
    with WebServer("--vs", "random", "--seed", "1", "--pace", "0", cwd=tmp_path) as server, \
            Browser() as browser:
        page = browser.page(server.url)
        page.click("#new-button")
        page.select_option("#new-form [name=players]", "3")
        page.select_option("#new-form [name=seat]", "2")
        page.fill("#new-form [name=vs]", "nosuchbot")
        page.click("#new-start")
        page.wait_for_function("document.getElementById('new-error').textContent")
        assert "unknown bot 'nosuchbot'" in page.text_content("#new-error")
        page.fill("#new-form [name=vs]", "greedy\nrandom")
        page.fill("#new-form [name=seed]", "9")
        page.click("#new-start")
        page.wait_for_selector("#seat-2")
        assert "seat 2 (you)" in page.text_content("#seat-2 h2")
        assert "seat 0 (greedy)" in page.text_content("#seat-0 h2")
        assert "deal seed 9" in page.text_content("#status")
        # a state poll can draw the new game before /api/new answers and closes the dialog
        page.wait_for_selector("#new-game", state="hidden")
        assert not page.errors, page.errors


def test_a_level_picked_by_name_shows_its_elo_and_plays(tmp_path):
    from coexist_ai.bots.levels import level
    beginner = level("beginner")
    with WebServer("--vs", "random", "--seed", "1", "--pace", "0", cwd=tmp_path) as server, \
            Browser() as browser:
        page = browser.page(server.url)
        page.click("#new-button")
        page.wait_for_selector("#new-level option[value='preset:beginner']", state="attached")
        shown = page.text_content("#new-level option[value='preset:beginner']")
        assert f"beginner: Elo {beginner.elo_text()}" in shown
        page.select_option("#new-level", "preset:beginner")
        page.fill("#new-form [name=vs]", "greedy")
        page.click("#new-start")
        page.wait_for_function("document.getElementById('new-error').textContent")
        assert "a level or bot specs" in page.text_content("#new-error")
        page.fill("#new-form [name=vs]", "")
        page.click("#new-start")
        page.wait_for_function(
            "document.querySelector('#seat-1 h2')?.textContent.includes('preset:beginner')")
        # a state poll can draw the new game before /api/new answers and closes the dialog
        page.wait_for_selector("#new-game", state="hidden")
        assert not page.errors, page.errors
