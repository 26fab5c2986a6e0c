// The Daldøs play page: the game is its record (with the seed of its
// dice), kept here; the throw, its legal plays and where the game stands
// come from /api/daldos/state, the engine's play and the hint from
// /api/daldos/best.
"use strict";

let game = null;       // the last /api/daldos/state answer
let history = [];      // records before each play a human chose (undo)
let thinking = false;
let chosenHole = null; // a hole clicked: only the plays from it are shown

function sideOf(s) { return s === "a" || s === "A" ? $("a").value : $("b").value; }
function rules() {
  return { board: game.board, dal: game.dal, capture: game.capture, end: game.end };
}

function show(state) {
  game = state;
  chosenHole = null;
  $("record").value = state.record;
  $("board").innerHTML = state.svg;
  $("hintbox").innerHTML = "";
  drawDice($("dice"), state.dice);
  const status = $("status");
  if (state.over) {
    status.textContent = "Game over after " + state.throws + " throws: " +
      (state.winner ? "player " + state.winner + " wins" : "the turn cap was reached");
    status.className = "over";
  } else {
    const human = sideOf(state.side) === "human";
    status.textContent = "Throw " + (state.throws + 1) + ": player " + state.side + " threw " +
      state.dice.join(",") + (human ? " — choose a play (or click a ringed piece)" : " (engine)");
    status.className = "";
  }
  drawPlays();
}

function drawPlays() {
  const box = $("plays");
  box.innerHTML = "";
  if (!game || game.over || sideOf(game.side) !== "human") return;
  game.plays.forEach((p, i) => {
    const b = document.createElement("button");
    b.className = "play";
    b.dataset.play = p.play;
    b.dataset.index = i;
    b.textContent = p.play;
    if (chosenHole && !p.from.includes(chosenHole)) b.classList.add("hidden");
    b.addEventListener("click", () => human(p.play));
    box.appendChild(b);
  });
  const froms = new Set(game.plays.flatMap(p => p.from));
  document.querySelectorAll("#board circle.hole").forEach(c => {
    const name = c.dataset.hole;
    if (!froms.has(name)) return;
    c.classList.add("from");
    if (name === chosenHole) c.classList.add("chosen");
    c.addEventListener("click", () => pickHole(name));
  });
}

// A piece clicked: the play if only one moves it, else only its plays shown.
function pickHole(name) {
  const mine = game.plays.filter(p => p.from.includes(name));
  if (mine.length === 1) { human(mine[0].play); return; }
  chosenHole = chosenHole === name ? null : name;
  $("board").innerHTML = game.svg;
  drawPlays();
}

async function start(body) {
  history = [];
  $("why").textContent = "";
  const state = await busy(() => api("/api/daldos/state", body));
  if (!state) return;
  // A loaded record brings its own rules and seed.
  $("board-name").value = state.board === "danish" ? "danish" : "norwegian";
  for (const k of ["dal", "capture", "end"]) $(k).value = state[k];
  if (state.seed != null) $("seed").value = state.seed;
  show(state);
  engineTurns();
}

function newGame() {
  let seed = $("seed").value.trim();
  seed = seed === "" ? Math.floor(Math.random() * 2 ** 32) : +seed;
  $("seed").value = seed;
  start({ board: $("board-name").value, dal: $("dal").value, capture: $("capture").value, end: $("end").value, seed });
}

async function human(play) {
  if (thinking || !game) return;
  const before = game.record;
  const state = await busy(() => api("/api/daldos/state", { record: before, play }));
  if (!state) return;
  history.push(before);
  $("why").textContent = "you played " + state.last;
  show(state);
  engineTurns();
}

// The engine's depth: the one chosen, or none (the server's default).
function engineDepth() {
  const d = $("depth").value;
  return d === "" ? {} : { depth: +d };
}

async function engineTurns() {
  if (thinking) return;
  thinking = true;
  try {
    while (game && !game.over && sideOf(game.side) === "engine") {
      const best = await busy(() => api("/api/daldos/best", Object.assign(
        { position: game.position, dice: game.dice.join(",") }, engineDepth(), rules())));
      if (!best) break;
      const state = await busy(() => api("/api/daldos/state", { record: game.record, play: best.best }));
      if (!state) break;
      $("why").textContent = "engine (player " + game.side + ") played " + state.last +
        ", win probability " + best.value.toFixed(3) + " (" + (best.exact ? "exact" : "estimate") + ", depth " + best.depth + ")";
      show(state);
    }
  } finally { thinking = false; }
}

// The hint of `daldos game`, from the server (/api/daldos/hint): its
// depth and node budget are the game's, every play valued.
async function hint() {
  if (!game || game.over) return;
  const h = await busy(() => api("/api/daldos/hint", Object.assign(
    { position: game.position, dice: game.dice.join(",") }, rules())));
  if (!h) return;
  let s = `<table class="moves" id="hinttable"><caption>hint: ${escapeHtml(game.side)}'s win probability after each play, depth ${h.depth}</caption><tr><th>play</th><th>value</th><th></th></tr>`;
  for (const p of h.plays) {
    const best = p.play === h.best ? "best" : "";
    const label = p.upper_bound ? "upper bound" : p.exact ? "exact" : "estimate";
    s += `<tr class="${best}" data-play="${escapeHtml(p.play)}"><td>${escapeHtml(p.play)}</td><td>${p.value.toFixed(4)}</td><td>${label}</td></tr>`;
  }
  $("hintbox").innerHTML = s + "</table>";
  $("hintbox").querySelectorAll("tr[data-play]").forEach(tr =>
    tr.addEventListener("click", () => { if (sideOf(game.side) === "human") human(tr.dataset.play); }));
}

async function undo() {
  if (thinking || history.length === 0) return;
  const record = history.pop();
  const state = await busy(() => api("/api/daldos/state", { record }));
  if (state) { $("why").textContent = "undone"; show(state); }
}

function save() { if (game) download("daldos-game.txt", game.record); }
function load() { start({ record: $("record").value }); }

$("new").addEventListener("click", newGame);
$("to-analyse").addEventListener("click", () => {
  if (game) location.href = "/analyse?record=" + encodeURIComponent(game.record);
});
$("hint").addEventListener("click", hint);
$("undo").addEventListener("click", undo);
$("save").addEventListener("click", save);
$("load").addEventListener("click", load);
$("file").addEventListener("change", () => readFileInto($("file"), $("record"), load));
$("a").addEventListener("change", engineTurns);
$("b").addEventListener("change", engineTurns);
newGame();
