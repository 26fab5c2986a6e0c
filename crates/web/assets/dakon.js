// The Dakon play page: the game is its record, kept here; every move,
// the engine's answer and the hint come from the server
// (/api/dakon/state, /api/dakon/engine, /api/dakon/hint).
"use strict";

let game = null;       // the last /api/dakon/state answer
let history = [];      // records before each move a human played (undo)
let thinking = false;  // an engine move is being asked

function sideOf(i) { return i === 0 ? $("south").value : $("north").value; }
function budget() { return { "max-nodes": +$("strength").value }; }

function show(state) {
  game = state;
  $("record").value = state.record;
  $("board").innerHTML = state.svg;
  $("hintbox").innerHTML = "";
  const status = $("status");
  if (state.over) {
    status.textContent = "Game over: " + state.verdict + " (final stores South " + state.score[0] + ", North " + state.score[1] + ")";
    status.className = "over";
  } else {
    const who = sideOf(state.side) === "engine" ? " (engine)" : " (you: click a ringed hole)";
    status.textContent = state.side_name + " to move" + who;
    status.className = "";
  }
  $("events").textContent = state.events.length ? "last move: " + state.events.join("; ") : "";
  if (!state.over && sideOf(state.side) === "human") {
    state.legal_holes.forEach((name, i) => {
      const c = document.querySelector(`#board circle.hole[data-hole="${name}"]`);
      if (!c) return;
      c.classList.add("legal");
      c.addEventListener("click", () => human(state.legal[i]));
    });
  }
}

async function start(body) {
  history = [];
  $("why").textContent = "";
  const state = await busy(() => api("/api/dakon/state", body));
  if (!state) return;
  // A loaded record brings its own rules.
  for (const k of ["origin", "mikul", "nembak"]) $(k).value = state[k];
  show(state);
  engineTurns();
}

function newGame() {
  start({
    holes: +$("holes").value, seeds: +$("seeds").value,
    origin: $("origin").value, mikul: $("mikul").value, nembak: $("nembak").value,
  });
}

async function human(hole) {
  if (thinking || !game) return;
  const before = game.record;
  const state = await busy(() => api("/api/dakon/state", { record: before, play: hole }));
  if (!state) return;
  history.push(before);
  $("why").textContent = "";
  show(state);
  engineTurns();
}

// The engine plays while it is its turn.
async function engineTurns() {
  if (thinking) return;
  thinking = true;
  try {
    while (game && !game.over && sideOf(game.side) === "engine") {
      $("status").textContent = game.side_name + " (engine) is thinking…";
      const state = await busy(() => api("/api/dakon/engine", Object.assign({ record: game.record }, budget())));
      if (!state) break;
      show(state);
      if (state.engine) $("why").textContent = "engine played " + state.engine.move + ": " + state.engine.why;
    }
  } finally { thinking = false; }
}

async function hint() {
  if (!game || game.over) return;
  const h = await busy(() => api("/api/dakon/hint", Object.assign({ record: game.record }, budget())));
  if (!h) return;
  let s = `<table class="moves" id="hinttable"><caption>hint (${escapeHtml(h.label)})</caption><tr><th>move</th><th>value</th></tr>`;
  for (const m of h.ranked) {
    const best = h.best_moves.includes(m.move) ? "best" : "";
    s += `<tr class="${best}" data-move="${m.move}"><td>${m.move}</td><td>${escapeHtml(m.value)}</td></tr>`;
  }
  s += `</table><pre>${escapeHtml(h.text)}</pre>`;
  $("hintbox").innerHTML = s;
  for (const m of h.best_moves) {
    const name = game.legal_holes[game.legal.indexOf(m)];
    const c = document.querySelector(`#board circle.hole[data-hole="${name}"]`);
    if (c) c.classList.add("chosen");
  }
}

async function undo() {
  if (thinking || history.length === 0) return;
  const record = history.pop();
  const state = await busy(() => api("/api/dakon/state", { record }));
  if (state) { $("why").textContent = "undone"; show(state); }
}

function save() {
  if (game) download("dakon-game.txt", game.record);
}

function load() {
  start({ record: $("record").value });
}

$("new").addEventListener("click", newGame);
$("to-analyse").addEventListener("click", () => {
  if (game) location.href = "/analyse?record=" + encodeURIComponent(game.record);
});
$("hint").addEventListener("click", hint);
$("undo").addEventListener("click", undo);
$("save").addEventListener("click", save);
$("load").addEventListener("click", load);
$("file").addEventListener("change", () => readFileInto($("file"), $("record"), load));
$("south").addEventListener("change", engineTurns);
$("north").addEventListener("change", engineTurns);
newGame();
