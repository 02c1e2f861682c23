// The page of `contack serve`: table setup, play, and stepping through records. The server is the authority:
// every move goes to it with the version of the game the page has seen, and its answer (the new state, or a
// refusal with a reason) is what the page shows.

import { drawContack, drawContactix, tileIcon } from "./board.js";

const $ = (id) => document.getElementById(id);
let options = null;
let game = null;          // the latest answer of the server for the open game
let selected = null;      // the tile the person picked
let botTimer = null;
let busy = false;
let paused = false;       // the person stopped the bots (to look at the table); they wait until resumed

// -- talking to the server -----------------------------------------------------------------------------------
async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data = null;
  try { data = await response.json(); } catch (e) { data = { error: `the server answered ${response.status}` }; }
  if (!response.ok) throw Object.assign(new Error(data.error || `error ${response.status}`), { status: response.status });
  return data;
}

function show(mode) {
  document.body.dataset.mode = mode;
  if (mode !== "play") stopBots();
  if (mode !== "replay") stopAutoplay();
}

function message(text, isError = false) {
  const m = $("message");
  m.textContent = text || "";
  m.classList.toggle("error", isError);
}

// -- setup ---------------------------------------------------------------------------------------------------
function seatCount() {
  const g = $("game").value;
  if (g === "contack") return Math.max(2, Math.min(7, parseInt($("players").value, 10) || 2));
  return g === "contactix" ? 2 : 1;
}

function seatChoices(g) {
  const list = [["person", "person (you)"]];
  for (const spec of options.bots[g]) list.push([spec, spec]);
  const size = parseInt($("board-size").value, 10);
  const swap = $("swap").checked;
  for (const m of options.models) {
    if (m.game !== g) continue;
    if (g === "contactix" && (m.board_size !== size || m.swap !== swap)) continue;  // it plays only its own rules
    const about = g === "contack" ? `trained for ${m.players} players` : g === "contactix" ? `${m.board_size}x${m.board_size}` : "trained";
    const search = m.kind === "az" ? ", with its search" : "";
    list.push([`${m.kind}:${m.name}`, `${m.name} (${about}${search})`]);
  }
  list.push(["other", "another spec (e.g. mcts:500)…"]);
  return list;
}

function renderSeats() {
  const g = $("game").value;
  document.body.dataset.game = g;
  const box = $("seats");
  const before = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren();
  const n = seatCount();
  for (let i = 0; i < n; i++) {
    const label = document.createElement("label");
    label.textContent = g === "contactix" ? (i === 0 ? "Black (moves first) " : "White ") : `Seat ${i} `;
    const sel = document.createElement("select");
    sel.id = `seat-${i}`;
    for (const [value, text] of seatChoices(g)) {
      const o = document.createElement("option");
      o.value = value; o.textContent = text;
      sel.appendChild(o);
    }
    const fallback = i === 0 ? "person" : (g === "contactix" ? "two_distance" : "greedy");
    const want = before[i] ?? fallback;
    sel.value = [...sel.options].some((o) => o.value === want) ? want : fallback;
    // Any spec the server accepts can be typed in; the server checks it when the game starts.
    const other = document.createElement("input");
    other.id = `seat-${i}-spec`;
    other.placeholder = "agent spec";
    other.hidden = sel.value !== "other";
    sel.addEventListener("change", () => { other.hidden = sel.value !== "other"; if (!other.hidden) other.focus(); });
    label.appendChild(sel);
    label.appendChild(other);
    box.appendChild(label);
  }
}

async function startGame(event) {
  event.preventDefault();
  const g = $("game").value;
  const seats = [];
  for (let i = 0; i < seatCount(); i++) {
    const choice = $(`seat-${i}`).value;
    seats.push(choice === "other" ? $(`seat-${i}-spec`).value.trim() : choice);
  }
  const body = { game: g, seats };
  if (g === "contack") {
    body.hands = parseInt($("hands").value, 10);
    body.enclosed_end = $("enclosed-end").value;
  }
  if (g === "contactix") {
    body.board_size = parseInt($("board-size").value, 10);
    body.swap = $("swap").checked;
  }
  if ($("seed").value !== "") body.seed = parseInt($("seed").value, 10);
  $("setup-error").textContent = "";
  try {
    const data = await api("POST", "/api/games", body);
    selected = null;
    paused = false;
    $("pause").textContent = "Pause the bots";
    message("");
    show("play");
    update(data);
  } catch (e) {
    $("setup-error").textContent = e.message;
  }
}

// -- playing -------------------------------------------------------------------------------------------------
function pace() { return parseInt($("pace").value, 10) || 0; }

function stopBots() {
  if (botTimer) clearTimeout(botTimer);
  botTimer = null;
}

function update(data) {
  const seen = game && game.id === data.id ? game.log.length : 0;
  game = data;
  game.fresh = data.log.length - seen;  // entries the page has not shown yet
  const ended = data.log.slice(seen).filter((e) => e.text.startsWith("The hand ends"));
  if (ended.length) message(ended[ended.length - 1].text);
  const s = data.state;
  if (selected !== null && !s.legal.some((m) => m.tile === selected)) selected = null;
  if (s.forced_tile !== null && s.forced_tile !== undefined && data.person_to_move) selected = s.forced_tile;
  document.body.dataset.version = String(data.version);
  document.body.dataset.turn = s.done ? "over" : (data.person_to_move ? "person" : "bot");
  renderGame();
  stopBots();
  if (!s.done && !data.person_to_move && !paused) botTimer = setTimeout(botMove, pace());
}

function togglePause() {
  paused = !paused;
  $("pause").textContent = paused ? "Resume the bots" : "Pause the bots";
  if (!paused && game) update(game);
  else stopBots();
}

async function botMove() {
  botTimer = null;
  if (!game || busy) return;
  busy = true;
  try {
    update(await api("POST", `/api/games/${game.id}/bot`, { version: game.version }));
  } catch (e) {
    message(e.message, true);
    if (e.status === 409) await reload();
  } finally {
    busy = false;
  }
}

async function reload() {
  try { update(await api("GET", `/api/games/${game.id}`)); } catch (e) { message(e.message, true); }
}

async function send(move) {
  if (!game || busy) return;
  busy = true;
  try {
    const data = await api("POST", `/api/games/${game.id}/move`, { version: game.version, ...move });
    selected = null;
    message("");
    update(data);
  } catch (e) {
    // A refusal changes nothing on the server: say why, and keep the table as it is.
    message(`Refused: ${e.message}`, true);
    if (e.status === 409) await reload();
  } finally {
    busy = false;
  }
}

function onCell(x, y) {
  if (!game.person_to_move) { message("Wait: it is a bot's turn.", true); return; }
  if (selected === null) { message("First choose a tile from your hand, then a highlighted cell.", true); return; }
  send({ tile: selected, x, y });
}

function onHole(r, c) {
  if (!game.person_to_move) { message("Wait: it is the bot's turn.", true); return; }
  const s = game.state;
  if (s.can_swap && s.swap_cell && s.swap_cell[0] === r && s.swap_cell[1] === c) send({ swap: true });
  else send({ cell: [r, c] });
}

function pickTile(tile) {
  const forced = game.state.forced_tile !== null && game.state.forced_tile !== undefined;
  selected = selected === tile && !forced ? null : tile;  // a second click puts a free choice back
  const pts = game.state.legal.filter((m) => m.tile === tile).map((m) => m.points);
  if (selected !== null) message(pts.length ? `Place it on a highlighted cell (scores ${[...new Set(pts)].join(" or ")}).` : "That tile has no legal place now.");
  else message("");
  renderGame();
}

function drawOpts() { return { tiles: options.tiles, colours: options.colours }; }

function tileButton(tile, playable, onClick, chosen) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "hand-tile" + (playable ? " playable" : "") + (chosen ? " selected" : "");
  b.dataset.tile = String(tile);
  b.title = options.names[tile];
  b.appendChild(tileIcon(tile, drawOpts()));
  b.appendChild(tileName(tile));
  if (onClick) b.addEventListener("click", onClick); else b.disabled = true;
  return b;
}

// A tile's name with each number in its colour, as the PNG renders' panel writes it.
function tileName(tile) {
  const span = document.createElement("span");
  span.className = "tile-name";
  span.dataset.tile = String(tile);
  options.tiles[tile].forEach((v, c) => {
    if (c) span.append("-");
    const n = document.createElement("b");
    n.style.color = options.colours.ink[c];
    n.textContent = String(v).padStart(2, "0");
    span.appendChild(n);
  });
  return span;
}

function statusText(data, names) {
  const s = data.state;
  if (s.done) {
    if (s.game === "contack") {
      const w = s.winners.map((i) => names[i]);
      return w.length === 1 ? `Game over: ${w[0]} wins with ${s.scores[s.winners[0]]}.` : `Game over: ${w.join(" and ")} share the win.`;
    }
    if (s.game === "contactix") return `Game over: ${names[s.winner]} joined the sides.`;
    return s.won ? `Won: all 36 tiles placed, ${s.scores[0]} points.` : `Lost: no tile can be placed; ${s.scores[0]} points.`;
  }
  if (s.hand_over) return "The hand is over.";
  const who = names[s.to_move];
  if (s.game === "contactix") return `${who} to move` + (s.can_swap ? " (may swap)" : "") + ".";
  if (data.person_to_move) {
    if (s.forced_tile !== null && s.forced_tile !== undefined) return `${who}: place the drawn tile ${options.names[s.forced_tile]}.`;
    return `${who}: choose a tile, then a highlighted cell.`;
  }
  return `${who} to move` + (s.forced_tile !== null && s.forced_tile !== undefined ? ` (must place ${options.names[s.forced_tile]})` : "") + ".";
}

function infoLine(s) {
  if (s.game === "contack") return `Hand ${s.hand} of ${s.hands} · pile ${s.pile} · ${s.figure.length} on the table`;
  if (s.game === "solitaire1") return `Pile ${s.pile} · discards ${s.discard.length} · score ${s.scores[0]} · ${s.figure.length}/36 placed`;
  if (s.game === "solitaire2") return `Score ${s.scores[0]} · ${s.figure.length}/36 placed`;
  return `${s.size}x${s.size} · ${s.moves.length} moves` + (s.swap ? " · swap rule on" : "") +
    " · black joins the two black sides, white the two white sides";
}

// The seats (scores, hands) for a live game (interactive) or a replay frame (not).
function renderSeatsView(box, s, names, live) {
  box.replaceChildren();
  const mine = live && game.person_to_move;
  const playable = new Set((s.legal || []).map((m) => m.tile));
  const seatBox = (i, title) => {
    const d = document.createElement("div");
    d.className = "seat" + (s.to_move === i && !s.done ? " to-move" : "") + (s.winners.includes(i) && s.done ? " winner" : "");
    d.dataset.seat = String(i);
    const h = document.createElement("div");
    h.className = "seat-name";
    h.textContent = title;
    d.appendChild(h);
    box.appendChild(d);
    return d;
  };
  if (s.game === "contack") {
    s.held.forEach((tiles, i) => {
      const d = seatBox(i, `${names[i]} · ${s.scores[i]}`);
      const row = document.createElement("div");
      row.className = "hand";
      const active = mine && s.to_move === i;
      if (active) d.classList.add("mine");  // the hand being played is drawn large, the others small
      for (const t of tiles) {
        if (!active) { row.appendChild(tileName(t)); continue; }
        const canPick = playable.has(t) && (s.forced_tile === null || s.forced_tile === t);
        row.appendChild(tileButton(t, canPick, () => pickTile(t), selected === t));
      }
      if (!tiles.length) row.textContent = "(no tiles)";
      d.appendChild(row);
    });
  } else if (s.game === "solitaire1") {
    const d = seatBox(0, `${names[0]} · ${s.scores[0]}`);
    const row = document.createElement("div");
    row.className = "hand";
    if (s.forced_tile !== null) {
      const label = document.createElement("span");
      label.textContent = `to place (from the ${s.source}): `;
      row.appendChild(label);
      row.appendChild(tileButton(s.forced_tile, mine, mine ? () => pickTile(s.forced_tile) : null, mine && selected === s.forced_tile));
    }
    if (s.discard.length) {
      const label = document.createElement("span");
      label.textContent = " discard top: ";
      row.appendChild(label);
      row.appendChild(tileButton(s.discard[s.discard.length - 1], false, null, false));
    }
    d.appendChild(row);
  } else if (s.game === "solitaire2") {
    const d = seatBox(0, `${names[0]} · ${s.scores[0]}`);
    const row = document.createElement("div");
    row.className = "hand stacks";
    s.stacks.forEach((st, k) => {
      const cell = document.createElement("div");
      cell.className = "stack";
      const cap = document.createElement("small");
      cap.textContent = `stack ${k} (${st.height})`;
      cell.appendChild(cap);
      if (st.top !== null) {
        const canPick = mine && playable.has(st.top);
        cell.appendChild(tileButton(st.top, canPick, mine ? () => pickTile(st.top) : null, mine && selected === st.top));
      }
      row.appendChild(cell);
    });
    d.appendChild(row);
  } else {
    names.forEach((name, i) => seatBox(i, name));
  }
}

function renderGame() {
  const data = game;
  const s = data.state;
  const names = data.seats.map((x) => x.name);
  $("status").textContent = statusText(data, names);
  $("info").textContent = infoLine(s) + (data.seed !== null && data.seed !== undefined ? ` · seed ${data.seed}` : "");
  if (s.game === "contactix") drawContactix($("board"), s, { colours: options.colours, onHole });
  else drawContack($("board"), s, { ...drawOpts(), selected, onCell });
  renderSeatsView($("seats-view"), s, names, true);
  $("swap-button").hidden = !(s.game === "contactix" && s.can_swap && data.person_to_move);
  $("pause").hidden = s.done || !data.seats.some((seat) => !seat.person);
  const dl = $("download");
  dl.hidden = !s.done;
  dl.href = `/api/games/${data.id}/record`;
  const log = $("log");
  log.replaceChildren();
  const shown = data.log.slice(-60);
  shown.forEach((entry, k) => {
    const li = document.createElement("li");
    li.textContent = entry.text;
    if (/The hand ends/.test(entry.text)) li.classList.add("end");
    if (k >= shown.length - data.fresh) li.classList.add("new");
    log.appendChild(li);
  });
  log.scrollTop = log.scrollHeight;
}

// -- records -------------------------------------------------------------------------------------------------
let replay = null;       // {fileId, records, index, data: {names, frames}, frame}
let autoTimer = null;

function stopAutoplay() {
  if (autoTimer) clearInterval(autoTimer);
  autoTimer = null;
  const b = $("auto");
  if (b) { b.classList.remove("on"); b.textContent = "Play"; }
}

async function openFile() {
  const file = $("file").files[0];
  if (!file) return;
  $("replay-error").textContent = "";
  if (file.size > options.limits.upload_bytes) {
    $("replay-error").textContent = `The file is ${file.size} bytes; the server opens at most ${options.limits.upload_bytes}.`;
    return;
  }
  try {
    const response = await fetch("/api/records", { method: "POST", headers: { "Content-Type": "application/json" }, body: file });
    const data = await response.json();
    if (!response.ok) throw new Error(data.error || `error ${response.status}`);
    const list = $("record-list");
    list.replaceChildren();
    for (const r of data.records) {
      const o = document.createElement("option");
      o.value = String(r.index);
      o.textContent = `#${r.index + 1}: ${r.title}, ${r.agents.join(" v ")} · ${r.result}` + (r.seed !== null && r.seed !== undefined ? ` · seed ${r.seed}` : "");
      list.appendChild(o);
    }
    list.hidden = data.records.length < 2;
    replay = { fileId: data.id, records: data.records };
    await openRecord(0);
  } catch (e) {
    $("replay-error").textContent = e.message;
    $("replay-body").hidden = true;
  }
}

async function openRecord(index) {
  stopAutoplay();
  try {
    const data = await api("GET", `/api/records/${replay.fileId}/${index}`);
    replay.index = index;
    replay.data = data;
    $("replay-error").textContent = "";
    $("replay-body").hidden = false;
    const slider = $("slider");
    slider.max = String(data.frames.length - 1);
    goTo(0);
  } catch (e) {
    $("replay-error").textContent = e.message;
    $("replay-body").hidden = true;
  }
}

function goTo(k) {
  const frames = replay.data.frames;
  k = Math.max(0, Math.min(frames.length - 1, k));
  replay.frame = k;
  const f = frames[k];
  const s = f.state;
  const names = replay.data.names;
  $("slider").value = String(k);
  $("frame-caption").textContent = `Frame ${k + 1} of ${frames.length}: ${f.caption}`;
  document.body.dataset.frame = String(k);
  const status = s.done ? statusText({ state: s, person_to_move: false }, names) : "";
  $("replay-info").textContent = infoLine(s) + (status ? ` · ${status}` : "");
  if (s.game === "contactix") drawContactix($("replay-board"), s, { colours: options.colours });
  else drawContack($("replay-board"), { ...s, legal: s.legal }, { ...drawOpts(), selected: null });
  renderSeatsView($("replay-seats"), s, names, false);
  const ev = $("replay-events");
  ev.replaceChildren();
  for (const text of f.events) {
    const li = document.createElement("li");
    li.textContent = text;
    if (/The hand ends/.test(text)) li.className = "end";
    ev.appendChild(li);
  }
}

function toggleAutoplay() {
  if (autoTimer) { stopAutoplay(); return; }
  if (replay.frame >= replay.data.frames.length - 1) goTo(0);
  $("auto").classList.add("on");
  $("auto").textContent = "Pause";
  autoTimer = setInterval(() => {
    if (replay.frame >= replay.data.frames.length - 1) stopAutoplay();
    else goTo(replay.frame + 1);
  }, 700);
}

// -- start ---------------------------------------------------------------------------------------------------
async function main() {
  options = await api("GET", "/api/options");
  document.documentElement.style.setProperty("--felt", options.colours.felt);
  document.documentElement.style.setProperty("--panel", options.colours.panel);
  document.documentElement.style.setProperty("--ink", options.colours.panel_ink);
  for (const id of ["game", "players", "board-size", "swap"]) $(id).addEventListener("change", renderSeats);
  $("players").addEventListener("input", renderSeats);
  renderSeats();
  $("setup-form").addEventListener("submit", startGame);
  $("nav-setup").addEventListener("click", () => show("setup"));
  $("nav-open").addEventListener("click", () => show("replay"));
  $("swap-button").addEventListener("click", () => send({ swap: true }));
  $("pause").addEventListener("click", togglePause);
  $("file").addEventListener("change", openFile);
  $("record-list").addEventListener("change", (e) => openRecord(parseInt(e.target.value, 10)));
  $("first").addEventListener("click", () => { stopAutoplay(); goTo(0); });
  $("prev").addEventListener("click", () => { stopAutoplay(); goTo(replay.frame - 1); });
  $("next").addEventListener("click", () => { stopAutoplay(); goTo(replay.frame + 1); });
  $("last").addEventListener("click", () => { stopAutoplay(); goTo(replay.data.frames.length - 1); });
  $("auto").addEventListener("click", toggleAutoplay);
  $("slider").addEventListener("input", (e) => { stopAutoplay(); goTo(parseInt(e.target.value, 10)); });
  document.addEventListener("keydown", (e) => {
    if (document.body.dataset.mode !== "replay" || !replay || !replay.data) return;
    if (["INPUT", "SELECT"].includes(e.target.tagName)) return;  // the slider and the list move by themselves
    if (e.key === "ArrowRight") goTo(replay.frame + 1);
    if (e.key === "ArrowLeft") goTo(replay.frame - 1);
  });
  document.body.dataset.ready = "true";
}

main().catch((e) => { document.body.textContent = `The page could not start: ${e.message}`; });
