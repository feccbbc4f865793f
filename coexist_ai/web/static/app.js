// The Coexist web page: draws the game the server sends (a seat's
// observation, never the draw pile's order) and turns clicks into moves.
// Plain JavaScript, no build step, nothing fetched but this server's API.
"use strict";

const COLOURS = ["C", "F", "P", "H", "S"];
const COLOUR_NAMES = {C: "Congener", F: "Water/Food", P: "Protection", H: "Habitat", S: "Survival"};
let game = null;          // the last snapshot drawn
let selection = null;     // a token picked up: {colour, from: "pool" | "track" | card id}
let pollAbort = null;

// -- small DOM helpers -------------------------------------------------------
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "onclick") node.addEventListener("click", value);
    else if (key.startsWith("data-") || key === "title" || key === "type") node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children.flat(Infinity)) {
    if (child !== null && child !== undefined && child !== false)
      node.append(child instanceof Node ? child : String(child));
  }
  return node;
}
const $ = (id) => document.getElementById(id);
function tok(colour, text, extra) {
  return el("span", {class: `tok ${colour} ${extra || ""}`, title: COLOUR_NAMES[colour]}, text);
}
function tokens(counts, extra) {
  return COLOURS.filter((c) => counts[c]).map((c) => tok(c, `${c}${counts[c]}`, extra));
}

// -- talking to the server ---------------------------------------------------
async function api(path, body) {
  const options = body === undefined ? {} :
    {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `${response.status}`);
  return data;
}

async function poll() {
  // long poll: the server answers when the game changes (or after 20 s)
  for (;;) {
    pollAbort = new AbortController();
    try {
      const after = game ? `?after=${game.version}` : "";
      const response = await fetch(`/api/game${after}`, {signal: pollAbort.signal});
      const data = await response.json();
      if (response.ok) draw(data);
      else if (response.status === 404) openNewGame();
      else say(data.error);
      if (!response.ok) await sleep(1000);
    } catch (e) {
      if (e.name !== "AbortError") { say("lost the server; retrying"); await sleep(1000); }
    }
  }
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function send(path, body) {
  say("");
  try {
    const data = await api(path, body);
    if (data.board) { draw(data); if (pollAbort) pollAbort.abort(); }
    return data;
  } catch (e) { say(e.message); return null; }
}

function say(text) { $("message").textContent = text || ""; }

async function play(move) {
  selection = null;
  closeMenu();
  await send("/api/move", {move, version: game.version});
}

// -- drawing -------------------------------------------------------------------
function draw(data) {
  const before = game;
  // a long poll answered just before a move's own answer may come after it
  if (before && data.game === before.game && data.version < before.version) return;
  game = data;
  const b = data.board;
  drawStatus(data, b);
  drawMission(b);
  drawSeats(data, b);
  drawDecision(data, b);
  drawTurns(data);
  drawFinal(data);
  drawReplayBar(data);
  flashChanges(before, data);
  document.documentElement.style.setProperty("--header-height", `${$("top").offsetHeight}px`);
  // for scripts that drive the page (the tests): what is drawn now
  Object.assign(document.body.dataset, {version: data.version, moves: data.moves_made,
    yourMove: data.your_move, mode: data.mode, over: data.board.over, phase: data.board.phase});
}

function seatLabel(data, seat) {
  return seat === data.you ? `seat ${seat} (you)` : `seat ${seat} (${data.names[seat]})`;
}

function drawStatus(data, b) {
  const who = b.over ? "game over" :
    `${seatLabel(data, b.current)} ${data.thinking !== null ? "is thinking" : "to play"}`;
  const mode = {play: "", watch: "watching a bot game · ", replay: "replay · "}[data.mode];
  $("status").replaceChildren(
    mode, el("b", {id: "round"}, b.over ? `${b.round} rounds played` : `Round ${b.round}`), " · ",
    el("span", {id: "whose-turn", class: data.thinking !== null ? "thinking" : ""}, who), " · ",
    el("span", {id: "draw-pile"}, `draw pile ${b.draw_pile} cards`), " · ",
    `discard pile ${b.discard_pile}`, " · ", `card set ${b.card_set}`,
    data.seed !== null && data.seed !== undefined ? ` · deal seed ${data.seed}` : "");
  const banner = $("end-banner");
  banner.hidden = !b.end_triggered || b.over;
  banner.textContent = `The end is triggered: the game ends after seat ${b.last_seat}'s turn ` +
    `(${seatLabel(data, b.last_seat)}).`;
  $("hint-button").disabled = !data.your_move;
  $("undo-button").disabled = !data.can_undo;
  $("replay-button").disabled = data.moves_made === 0 && data.mode !== "replay";
}

function animalCard(card, extra) {
  const node = el("div", {class: `card ${card.fauna} ${extra.class || ""}`, "data-card": card.id,
                          title: `${card.name} (${card.id})`},
    el("div", {class: "name"}, card.name),
    el("div", {class: "values"}, el("span", {}, `${card.fauna}`),
       el("span", {title: "capture value"}, `capture ${card.capture}`),
       el("span", {title: "conservation value"}, `cons. ${card.conservation}`)),
    el("div", {class: "row"}, "needs ", tokens(card.needs, "need")),
    el("div", {class: "row"}, "protect gives ", Object.keys(card.protect).length ?
       tokens(card.protect) : "nothing"),
    card.effect ? el("div", {class: "effect"}, card.effect) : null);
  return node;
}

function drawMission(b) {
  $("mission-cards").replaceChildren(...b.mission.map((card) => {
    if (!card.animal) {
      return el("div", {class: `card caretaker ${card.fauna} clickable mission-card`,
                        "data-card": card.id, "data-colour": card.colour,
                        onclick: () => clicked({type: "mission", card})},
        "caretaker card", tok(card.colour, card.colour), COLOUR_NAMES[card.colour]);
    }
    const node = animalCard(card, {class: "clickable mission-card"});
    node.addEventListener("click", () => clicked({type: "mission", card}));
    return node;
  }));
  if (!b.mission.length) $("mission-cards").textContent = "(empty until the refill)";
  const s = b.supply;
  $("supply").replaceChildren("Supply: ", ...COLOURS.map((c) => tok(c, `${c} ${s[c]}`)),
    ` · draw pile ${b.draw_pile} cards (order hidden)`);
}

function drawSeats(data, b) {
  $("seats").replaceChildren(...b.seats.map((seat) => drawSeat(data, b, seat)));
}

function drawSeat(data, b, seat) {
  const p = seat.seat;
  const own = p === data.you && data.your_move;
  const sc = seat.score;
  const track = el("span", {class: "track clickable" + (own && isSelected("S", "track") ? " selected" : ""),
                            "data-seat": p, "data-where": "track",
                            title: "Reputation track: a red space holds a Survival token",
                            onclick: () => clicked({type: "track", seat: p})},
    seat.track_spaces.map((s) => el("span", {class: s.covered ? "covered" : ""},
      s.covered ? "S" : (s.points ? s.points : "^"))));
  const pool = el("div", {class: "pool" + (own && selection && selection.from !== "pool" ? " target" : ""),
                          "data-seat": p, "data-where": "pool-area",
                          onclick: (e) => { if (e.target === e.currentTarget) clicked({type: "pool-area", seat: p}); }},
    "pool: ", COLOURS.filter((c) => seat.pool[c]).map((c) =>
      el("span", {class: `tok ${c} clickable` + (isSelected(c, "pool") && own ? " selected" : ""),
                  "data-seat": p, "data-where": "pool", "data-colour": c, title: COLOUR_NAMES[c],
                  onclick: () => clicked({type: "pool", seat: p, colour: c})}, `${c}${seat.pool[c]}`)),
    Object.keys(seat.pool).length ? null : el("span", {class: "facts"}, "empty"));
  const board = el("div", {class: "board"}, seat.board.map((a) => boardAnimal(p, a, own)));
  return el("section", {class: `panel seat ${seat.fauna}` + (b.current === p ? " to-play" : ""),
                        id: `seat-${p}`, "data-seat": p},
    el("div", {class: "seat-head"},
      el("h2", {}, seatLabel(data, p), " · ", `${seat.fauna} specialty`),
      el("span", {class: "score", title: "score if the game ended now"}, `${sc.total} points`)),
    el("div", {class: "facts"}, `${seat.specialty}. So far: released ${sc.conservation} + ` +
       `reputation ${sc.reputation} + ${seat.fauna} ${sc.specialty}.`),
    el("div", {class: "rep"}, track, `${seat.track}/8 Survival · capture limit `,
       el("b", {}, seat.capture_limit), ` · ${seat.points_visible} points still visible`),
    el("div", {class: "center-head"}, el("b", {}, "Conservation Center "),
       el("span", {class: "spaces"}, `${seat.spaces_used}/${seat.capacity} spaces used`)),
    pool, board.childElementCount ? board : el("div", {class: "facts"}, "no animals"),
    el("div", {class: "facts"}, `released ${seat.released.length} of ${seat.release_goal}: ` +
       (seat.released.map((c) => c.name).join(", ") || "none")),
    seat.protected.length ? el("div", {class: "facts"}, "protected: " +
       seat.protected.map((c) => c.name).join(", ")) : null,
    seat.effects.length ? el("div", {class: "facts"}, "effects: " + seat.effects.join("; ")) : null);
}

function isSelected(colour, from) {
  return selection && selection.colour === colour && selection.from === from;
}

function boardAnimal(p, a, own) {
  const node = animalCard(a, {class: "clickable board-animal" + (a.complete ? " complete" : "")});
  node.dataset.seat = p;
  node.addEventListener("click", (e) => {
    if (!e.target.closest(".on-token")) clicked({type: "animal", seat: p, card: a});
  });
  const on = COLOURS.filter((c) => a.on[c]).map((c) =>
    el("span", {class: `tok ${c} on-token clickable` + (own && isSelected(c, a.id) ? " selected" : ""),
                "data-seat": p, "data-where": "on", "data-card": a.id, "data-colour": c,
                title: `${COLOUR_NAMES[c]} on ${a.name}` + (a.movable[c] ? ` (${a.movable[c]} may move)` : ""),
                onclick: () => clicked({type: "on", seat: p, colour: c, card: a})}, `${c}${a.on[c]}`));
  node.append(el("div", {class: "row"}, "carries ", on.length ? on : "nothing"),
    el("div", {class: "row still"}, a.complete ? el("b", {}, "ready to release") :
       ["still needs ", tokens(a.still_needs, "need")]));
  return node;
}

function drawDecision(data, b) {
  $("decision").hidden = b.over && data.mode !== "replay";
  $("decision").querySelector("h2").textContent =
    data.mode === "replay" ? "Replay" : data.your_move ? "Your move" :
    b.over ? "Game over" : `${seatLabel(data, b.current)}'s move`;
  $("decision-text").textContent = data.mode === "replay" ? replayText(data) : b.decision;
  // moves that act on no card: buttons (recruit and discard are clicks on
  // the Mission card and the pool token)
  const simple = data.legal.filter((m) => !m.cards.length &&
    m.word !== "recruit" && m.word !== "discard");
  $("actions").replaceChildren(...simple.map((m) =>
    el("button", {type: "button", "data-move": m.move, title: m.text,
                  onclick: () => play(m.move)}, buttonText(m))));
  $("selection").textContent = selection && data.your_move ?
    `Holding ${selection.colour} from ${selection.from === "pool" ? "your pool" :
      selection.from === "track" ? "your track" : selection.from}: click where it goes ` +
    "(an animal, or your pool to take it back); click it again to put it down." : "";
  $("legal-moves").replaceChildren(...data.legal.map((m) =>
    el("li", {"data-move": m.move, title: m.move, onclick: () => play(m.move)},
       m.text, el("code", {}, ` ${m.move}`))));
  $("legal").hidden = !data.your_move;
  if (!data.your_move) $("hint").replaceChildren();
}

function buttonText(m) {
  if (m.word === "train" && m.colours.length) return `train ${m.colours[0]} → ${m.colours[1]}`;
  return {center: "Conservation Center", train: "Training", end: "End", pass: "Pass",
          apply: "Apply", skip: "Skip"}[m.word] || m.move;
}

function replayText(data) {
  if (data.next) return `Move ${data.moves_made} of ${data.last}. Next: ` +
    `${seatLabel(data, data.next[0])} plays ${data.next[1]}.`;
  return `Move ${data.moves_made} of ${data.last}: the end of the record.`;
}

function drawTurns(data) {
  const turns = data.turns;
  const current = turns.length && !data.board.over &&
    turns[turns.length - 1].seat === data.board.current ? turns[turns.length - 1] : null;
  $("this-turn").querySelector("h2").textContent = current ?
    `This turn: ${seatLabel(data, current.seat)}` : "This turn";
  $("this-turn").hidden = !current;
  $("turn-moves").replaceChildren(...(current ? current.moves : []).map((m) =>
    el("li", {title: m.move, "data-move": m.move}, m.text)));
  // a bot's turn says how long it took: what the person waited for it
  const took = (t) => t.seat !== data.you && t.seconds !== null && t.seconds !== undefined ?
    ` (${t.seconds.toFixed(1)} s)` : "";
  $("log-turns").replaceChildren(...turns.slice().reverse().map((t) =>
    el("li", {}, el("b", {}, `${seatLabel(data, t.seat)}${took(t)}: `),
       t.moves.map((m) => m.text).join("; "))));
}

function drawFinal(data) {
  const box = $("final");
  box.hidden = !data.final;
  if (!data.final) return;
  const f = data.final;
  box.replaceChildren(el("h2", {}, "Final score"),
    el("p", {class: "verdict", id: "verdict"}, f.verdict),
    el("table", {}, el("tr", {}, [["place", ""], ["seat", ""], ["rel.", "released animals"],
                                   ["rep.", "reputation"], ["spec.", "specialty"], ["total", ""],
                                   ["S", "Survival tokens on the track (fewer wins a tie)"]]
      .map(([h, title]) => el("th", {title: title || h}, h))),
       f.rows.map((r) => el("tr", {}, el("td", {}, r.place), el("td", {}, seatLabel(data, r.seat) +
         ` · ${r.fauna}` + (r.forfeit ? ` · forfeit (${r.forfeit})` : "")),
         el("td", {}, r.conservation), el("td", {}, r.reputation), el("td", {}, r.specialty),
         el("td", {}, el("b", {}, r.total)), el("td", {}, r.track)))),
    f.notes.map((n) => el("p", {class: "tie-break"}, n)),
    el("p", {class: "facts"}, `After ${f.rounds} rounds. Saved: ${data.save_path || "-"}.`));
}

function drawReplayBar(data) {
  const bar = $("replay-bar");
  bar.hidden = data.mode !== "replay";
  if (data.mode !== "replay") return;
  const slider = $("replay-slider");
  slider.max = data.last;
  slider.value = data.moves_made;
  $("replay-label").textContent = `${data.label}: move ${data.moves_made} of ${data.last}`;
}

function flashChanges(before, data) {
  // the cards the newest moves name light up, so a bot's moves can be followed
  if (!before || data.moves_made <= before.moves_made) return;
  const fresh = data.turns.flatMap((t) => t.moves).slice(before.moves_made);
  for (const m of fresh) {
    for (const word of m.move.split(" ").slice(1)) {
      document.querySelectorAll(`[data-card="${CSS.escape(word)}"]`).forEach((n) => n.classList.add("flash"));
    }
  }
}

// -- clicks into moves -----------------------------------------------------------
function clicked(target) {
  if (!game || !game.your_move) {
    if (game && game.mode === "play" && !game.board.over) say("Wait: it is not your move yet.");
    return;
  }
  closeMenu();
  target = retarget(target);
  if (pickUp(target)) return;
  const options = movesFor(target);
  if (options.length === 1) return play(options[0].move);
  if (options.length > 1) return openMenu(target, options);
  const intended = intendedMove(target);
  selection = null;
  draw(game);
  if (intended) return send("/api/move", {move: intended, version: game.version});
  say(target.type === "pool" || target.type === "track" ?
    `No legal move uses that ${target.type === "track" ? "Survival token" : target.colour} now.` :
    "Nothing to do with that here: see the legal moves.");
}

function holdingFromAnimal() {
  return selection && selection.from !== "pool" && selection.from !== "track";
}

function retarget(target) {
  // with a token in hand, a click on a pool token means the pool, and a
  // click on a token another animal carries means that animal
  if (target.type === "pool" && holdingFromAnimal()) return {type: "pool-area", seat: target.seat};
  if (target.type === "on" && selection && selection.from !== target.card.id)
    return {type: "animal", seat: target.seat, card: target.card};
  return target;
}

function pickUp(target) {
  // a token picked up waits for the place it goes; a second click puts it down
  if (target.seat !== game.you || !["pool", "track", "on"].includes(target.type)) return false;
  const from = target.type === "pool" ? "pool" : target.type === "track" ? "track" : target.card.id;
  const colour = target.type === "track" ? "S" : target.colour;
  if (isSelected(colour, from)) { selection = null; draw(game); return true; }
  if (movesFor(target).length || !usesToken(colour, from)) return false;
  selection = {colour, from};
  draw(game);
  return true;
}

function usesToken(colour, from) {
  return game.legal.some((m) => m.colours[0] === colour && (
    (from === "pool" || from === "track") ? m.word === "assign" :
    (m.word === "move" || m.word === "unassign") && m.cards[0] === from));
}

function movesFor(target) {
  const L = game.legal;
  const s = selection;
  switch (target.type) {
    case "mission":
      return L.filter((m) => target.card.animal ? m.word === "house" && m.cards[0] === target.card.id :
        m.word === "recruit" && m.colours[0] === target.card.colour);
    case "pool":      // discard a pool caretaker, or train it
      return L.filter((m) => (m.word === "discard" || m.word === "train") &&
                        m.colours[0] === target.colour);
    case "pool-area":
      return holdingFromAnimal() ? L.filter((m) => m.word === "unassign" &&
        m.colours[0] === s.colour && m.cards[0] === s.from) : [];
    case "animal": {
      const id = target.card.id;
      if (s && !holdingFromAnimal())
        return L.filter((m) => m.word === "assign" && m.colours[0] === s.colour && m.cards[0] === id);
      if (s) return L.filter((m) => m.word === "move" && m.colours[0] === s.colour &&
                              m.cards[0] === s.from && m.cards[1] === id);
      return L.filter((m) => m.cards.length === 1 && m.cards[0] === id && !m.colours.length);
    }
  }
  return [];
}

function intendedMove(target) {
  // what the click means when it is not legal: the server then says why
  const s = selection;
  if (target.type === "mission")
    return target.card.animal ? `house ${target.card.id}` : `recruit ${target.card.colour}`;
  if (target.type === "animal" && target.seat === game.you) {
    if (s && !holdingFromAnimal()) return `assign ${s.colour} ${target.card.id}`;
    if (s) return `move ${s.colour} ${s.from} ${target.card.id}`;
    return `release ${target.card.id}`;
  }
  if (target.type === "pool-area" && holdingFromAnimal()) return `unassign ${s.colour} ${s.from}`;
  return null;
}

function openMenu(target, options) {
  const menu = $("menu");
  menu.replaceChildren(...options.map((m) =>
    el("button", {type: "button", "data-move": m.move, onclick: () => play(m.move)}, m.text)),
    el("button", {type: "button", onclick: closeMenu}, "cancel"));
  const anchor = document.querySelector(`[data-card="${CSS.escape(target.card ? target.card.id : "")}"]`);
  const box = anchor ? anchor.getBoundingClientRect() : {left: 100, bottom: 100};
  menu.style.left = `${box.left + window.scrollX}px`;
  menu.style.top = `${box.bottom + window.scrollY}px`;
  menu.hidden = false;
}
function closeMenu() { $("menu").hidden = true; }

// -- the tools ---------------------------------------------------------------------
async function hint() {
  $("hint").replaceChildren(el("span", {class: "thinking"}, "the AI is thinking"));
  const h = await send("/api/hint", {});
  if (!h) { $("hint").replaceChildren(); return; }
  const value = h.value === null || h.value === undefined ? "" :
    ` Expected result ${h.value.toFixed(2)} (1 = first place, 0 = last), ` +
    `${h.iterations} iterations in ${h.seconds} s.`;
  $("hint").replaceChildren(
    el("p", {id: "hint-text"}, el("b", {}, "Hint: "), h.only ? `the only move: ${h.text}` : h.text,
       el("code", {}, ` ${h.move}`), value,
       el("button", {type: "button", "data-move": h.move, onclick: () => play(h.move)}, "play it")),
    h.line.length > 1 ? el("p", {class: "facts"}, "Expected line: " +
      h.line.map((m) => m.text).join(" → ")) : null);
}

async function undo() {
  const data = await send("/api/undo", {});
  if (data && data.undone) say(`Undone: ${data.undone.join(", ")}`);
}

function openNewGame() {
  const dialog = $("new-game");
  if (!dialog.open) dialog.showModal();
}

// the difficulty levels, weakest first, each with its Elo (GET /api/levels)
async function loadLevels() {
  const response = await fetch("/api/levels");
  if (!response.ok) return;
  const select = $("new-level");
  for (const level of (await response.json()).levels) {
    const option = document.createElement("option");
    option.value = level.spec;
    option.textContent = `${level.name}: Elo ${level.elo} (${level.description})`;
    select.append(option);
  }
}

async function startNewGame(event) {
  event.preventDefault();
  const form = new FormData($("new-form"));
  let vs = String(form.get("vs") || "").split("\n").map((s) => s.trim()).filter(Boolean);
  if (form.get("level")) {
    if (vs.length) {
      $("new-error").textContent = "a level or bot specs: clear one of them";
      return;
    }
    vs = [form.get("level")];
  }
  const body = {players: Number(form.get("players")), seat: Number(form.get("seat")),
                vs, watch: form.get("watch") === "on"};
  if (form.get("seed")) body.seed = Number(form.get("seed"));
  if (form.get("fauna")) body.fauna = form.get("fauna");
  try {
    const data = await api("/api/new", body);
    $("new-game").close();
    $("new-error").textContent = "";
    selection = null;
    draw(data);
    if (pollAbort) pollAbort.abort();
  } catch (e) { $("new-error").textContent = e.message; }
}

function replayStep(how) {
  if (!game || game.mode !== "replay") return;
  const k = {start: 0, back: game.moves_made - 1, next: game.moves_made + 1, end: game.last}[how];
  send("/api/replay", {step: Math.max(0, Math.min(game.last, k))});
}

async function openRecord(event) {
  const file = event.target.files[0];
  if (!file) return;
  const text = await file.text();
  await send("/api/replay", {text, name: file.name});
  event.target.value = "";
}

function keys(event) {
  if (event.target.closest("input, textarea, select, dialog")) return;
  if (game && game.mode === "replay") {
    const how = {ArrowLeft: "back", ArrowRight: "next", Home: "start", End: "end"}[event.key];
    if (how) { replayStep(how); event.preventDefault(); }
  }
  if (event.key === "Escape") { selection = null; closeMenu(); if (game) draw(game); }
}

document.addEventListener("DOMContentLoaded", () => {
  $("hint-button").addEventListener("click", hint);
  $("undo-button").addEventListener("click", undo);
  $("new-button").addEventListener("click", openNewGame);
  $("new-cancel").addEventListener("click", () => $("new-game").close());
  $("new-form").addEventListener("submit", startNewGame);
  $("replay-button").addEventListener("click", () => send("/api/replay", {current: true}));
  $("record-file").addEventListener("change", openRecord);
  document.querySelectorAll("#replay-bar [data-step]").forEach((b) =>
    b.addEventListener("click", () => replayStep(b.dataset.step)));
  $("replay-slider").addEventListener("change", (e) =>
    send("/api/replay", {step: Number(e.target.value)}));
  document.addEventListener("keydown", keys);
  loadLevels();
  poll();
});
