"""A person at the web page, played by Playwright on the system's Chromium
(Debian's `chromium`; .ci/run installs it): no browser is downloaded.

`Player` makes moves the way a person does, by clicking the things they act
on (a Mission card to house it, a pool token then an animal to assign it,
a token on an animal then another animal to move it...), and waits for the
page to draw the result.
"""
import random
import shutil

from playwright.sync_api import sync_playwright

BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def system_chromium():
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    raise AssertionError("no Chromium on PATH: apt-get install chromium "
                         "(.ci/run installs it when it is missing)")


class Browser:
    """One headless Chromium for a test."""

    def __enter__(self):
        self.playwright = sync_playwright().start()
        self.browser = self.playwright.chromium.launch(
            executable_path=system_chromium(), headless=True,
            args=["--no-sandbox", "--disable-gpu"])    # CI runs as root
        return self

    def page(self, url, width=1400, height=1000):
        page = self.browser.new_page(viewport={"width": width, "height": height})
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.goto(url)
        page.wait_for_selector("body[data-version]")
        return page

    def __exit__(self, *exc):
        self.browser.close()
        self.playwright.stop()


# how much the test player wants each kind of move (higher first): it
# plays to get on with the game, so that a whole game stays short
PREFERENCE = {"release": 9, "apply": 8, "assign": 7, "house": 6, "recruit": 5,
              "protect": 4, "center": 3, "discard": 3, "end": 2, "pass": 2,
              "skip": 1, "train": 1, "move": 0, "unassign": 0}


class Player:
    """Clicks moves into the page as a person would."""

    def __init__(self, page, seat, seed=0):
        self.page, self.seat = page, seat
        self.rng = random.Random(seed)
        self.played = []          # the moves this player's clicks made

    @property
    def you(self):
        return f"#seat-{self.seat}"

    def version(self):
        return int(self.page.get_attribute("body", "data-version"))

    def state(self, key):
        return self.page.get_attribute("body", f"data-{key}")

    def wait_turn(self, timeout=60_000):
        """Until it is this player's move or the game is over."""
        self.page.wait_for_function(
            "document.body.dataset.yourMove === 'true' || document.body.dataset.over === 'true'",
            timeout=timeout)
        return self.state("over") != "true"

    def phase(self):
        return self.state("phase")

    def own_animals(self):
        return self.page.eval_on_selector_all(f"{self.you} .board-animal",
                                              "els => els.map(e => e.dataset.card)")

    def legal(self):
        return self.page.eval_on_selector_all("#legal-moves li[data-move]",
                                              "els => els.map(e => e.dataset.move)")

    def choose(self, legal):
        best = max(PREFERENCE.get(m.split()[0], 0) for m in legal)
        return self.rng.choice([m for m in legal if PREFERENCE.get(m.split()[0], 0) == best])

    def play(self, move):
        """Make `move` by clicks on the board; wait until the page has it."""
        before = self.version()
        self.click_move(move)
        self.page.wait_for_function(f"Number(document.body.dataset.version) > {before}")
        self.played.append(move)

    def click_move(self, move):
        word, *args = move.split()
        p = self.page
        menu_of = None       # what a menu may share: the clicked animal or pool token
        if word == "house":
            p.click(f"#mission-cards [data-card='{args[0]}']")
        elif word == "recruit":
            p.click(f"#mission-cards [data-colour='{args[0]}'] >> nth=0")
        elif word == "assign":
            self.pick(args[0], "track" if args[0] == "S" else "pool")
            self.animal(args[1])
        elif word == "move":
            self.pick(args[0], args[1])
            self.animal(args[2])
        elif word == "unassign":
            self.pick(args[0], args[1])
            p.click(f"{self.you} [data-where='pool-area']", position={"x": 5, "y": 5})
        elif word in ("release", "protect") or (word == "discard" and args[0] not in "CFPHS"):
            self.animal(args[0])
            menu_of = lambda m: m.split()[1:] == [args[0]]
        elif word in ("discard", "train") and args:
            p.click(f"{self.you} [data-where='pool'][data-colour='{args[0]}']")
            menu_of = lambda m: m.split()[:2] in (["train", args[0]], ["discard", args[0]])
        else:
            p.click(f"#actions [data-move='{move}']")
        self.menu(move, menu_of)

    def pick(self, colour, where):
        if where == "track":
            self.page.click(f"{self.you} [data-where='track']")
        elif where == "pool":
            self.page.click(f"{self.you} [data-where='pool'][data-colour='{colour}']")
        else:
            self.page.click(f"{self.you} [data-where='on'][data-card='{where}'][data-colour='{colour}']")
        self.page.wait_for_selector(".selected")

    def animal(self, card):
        self.page.click(f"{self.you} .board-animal[data-card='{card}'] .name")

    def menu(self, move, belongs):
        """A click that several moves share opens a menu of just those
        moves (never for a click that means one move): pick the move."""
        items = self.page.eval_on_selector_all("#menu:not([hidden]) [data-move]",
                                               "els => els.map(e => e.dataset.move)")
        if not items:
            return
        assert belongs and all(belongs(m) for m in items), (
            f"clicking for {move!r} offered {items}")
        self.page.click(f"#menu [data-move='{move}']")
