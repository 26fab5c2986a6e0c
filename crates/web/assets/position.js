// The position page: a position typed in, its picture (/api/{game}/state),
// its value and best moves (/api/dakon/best, /api/daldos/best) and, for
// Daldøs, the capture odds of every piece (/api/daldos/odds).
"use strict";

const EXAMPLES = { dakon: "4,4,4,4,4/4,4,4,4,4/0,0 0", daldos: "AA.a/..a../.b.B b" };

function gameNow() { return document.querySelector('input[name="game"]:checked').value; }

function switchGame() {
  const g = gameNow();
  $("dakon-rules").hidden = g !== "dakon";
  $("daldos-rules").hidden = g !== "daldos";
  $("position").value = EXAMPLES[g];
  $("picture").innerHTML = $("moves").innerHTML = $("odds").innerHTML = $("status").textContent = "";
}

async function go() {
  const g = gameNow();
  const position = $("position").value.trim();
  $("moves").innerHTML = $("odds").innerHTML = "";
  if (g === "dakon") {
    const rules = { origin: $("origin").value, mikul: $("mikul").value, nembak: $("nembak").value };
    const s = await busy(() => api("/api/dakon/state", Object.assign({ position }, rules)));
    if (!s) return;
    $("picture").innerHTML = s.svg;
    if (s.over) { $("status").textContent = "game over: " + s.verdict; return; }
    $("status").textContent = "searching…";
    const b = await busy(() => api("/api/dakon/best", Object.assign({ position, "every-move": true }, rules)));
    if (!b) { $("status").textContent = ""; return; }
    const m = await busy(() => api("/api/dakon/state", Object.assign({ position, mark: b.best_moves, "mark-value": b.value, "mark-exact": b.exact }, rules)));
    if (m) $("picture").innerHTML = m.svg;
    $("status").textContent = `value ${b.value > 0 ? "+" : ""}${b.value} for ${s.side_name} (final store difference), ` +
      (b.exact ? "exact" : `NOT exact: proved between ${b.lower} and ${b.upper}`) + `; best move${b.best_moves.length > 1 ? "s" : ""} ${b.best_moves.join(", ")}` +
      ` (${b.nodes} nodes, ${b.seconds.toFixed(2)} s)`;
    let h = `<table class="moves" id="movetable"><tr><th>move</th><th>value</th></tr>`;
    for (const mv of b.moves) {
      const v = mv.value != null ? (mv.value > 0 ? "+" : "") + mv.value : `${mv.lower} .. ${mv.upper} (bounds)`;
      h += `<tr class="${b.best_moves.includes(mv.move) ? "best" : ""}"><td>${mv.move}</td><td>${v}</td></tr>`;
    }
    $("moves").innerHTML = h + "</table>";
  } else {
    const rules = { dal: $("dal").value, capture: $("capture").value, end: $("end").value };
    const dice = $("dice").value.trim();
    const base = Object.assign({ position }, rules, dice ? { dice } : {});
    const s = await busy(() => api("/api/daldos/state", base));
    if (!s) return;
    $("picture").innerHTML = s.svg;
    if (s.over) { $("status").textContent = "game over: player " + s.winner + " has won"; return; }
    $("status").textContent = "searching…";
    const b = await busy(() => api("/api/daldos/best", Object.assign({ top: "all" }, base)));
    if (b) {
      if (dice && b.best) {
        const m = await busy(() => api("/api/daldos/state", Object.assign({ mark: b.best }, base)));
        if (m) $("picture").innerHTML = m.svg;
      }
      $("status").textContent = `player ${s.side}'s win probability ${b.value.toFixed(4)} (${b.exact ? "exact" : "estimate"}, depth ${b.depth}${b.complete ? "" : ", not complete"}; solved tables: ${b.tables} layers)` +
        (b.best ? `; best play ${b.best}` : "");
      let h = "";
      if (b.plays && b.plays.length) {
        h = `<table class="moves" id="movetable"><tr><th>play</th><th>value</th><th></th></tr>`;
        for (const p of b.plays) {
          h += `<tr class="${p.play === b.best ? "best" : ""}"><td>${escapeHtml(p.play)}</td><td>${p.value.toFixed(4)}</td><td>${p.upper_bound ? "upper bound" : p.exact ? "exact" : "estimate"}</td></tr>`;
        }
        h += "</table>";
      } else if (b.throws) {
        h = `<table class="moves" id="movetable"><tr><th>throw</th><th>best play</th><th>value</th></tr>`;
        for (const t of b.throws) {
          h += `<tr><td>${escapeHtml(t.dice || t.throw || "")}</td><td>${escapeHtml(t.best || t.play || "")}</td><td>${t.value != null ? (+t.value).toFixed(4) : ""}</td></tr>`;
        }
        h += "</table>";
      }
      $("moves").innerHTML = h;
    }
    const o = await busy(() => api("/api/daldos/odds", Object.assign({ position }, rules)));
    if (o) {
      let h = `<table class="moves" id="oddstable"><caption>capture odds: player ${escapeHtml(o.side)} to throw takes the piece on…</caption><tr><th>piece</th><th>probability</th><th>fraction</th><th></th></tr>`;
      for (const t of o.targets) {
        h += `<tr><td>${escapeHtml(t.hole)}</td><td>${t.probability.toFixed(4)}</td><td>${escapeHtml(t.fraction)}</td><td>${t.exact ? "exact" : "bounded ±" + t.bound.toExponential(1)}</td></tr>`;
      }
      h += `<tr class="best"><td>any</td><td>${o.any.toFixed(4)}</td><td>${escapeHtml(o.any_fraction)}</td><td>${o.exact ? "exact" : "bounded"}</td></tr>`;
      $("odds").innerHTML = h + "</table>";
    }
  }
}

document.querySelectorAll('input[name="game"]').forEach(r => r.addEventListener("change", switchGame));
$("go").addEventListener("click", go);
$("position").addEventListener("keydown", e => { if (e.key === "Enter") go(); });
const given = new URLSearchParams(location.search);
if (given.get("game") === "daldos") { document.querySelector('input[value="daldos"]').checked = true; switchGame(); }
if (given.get("position")) { $("position").value = given.get("position"); go(); }
