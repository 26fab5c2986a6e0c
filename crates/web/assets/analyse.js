// The analysis page: /api/{game}/analyse of the record, then each
// decision's position drawn by /api/{game}/state with the best move
// marked (Dakon: its hole ringed; Daldøs: its play drawn as arrows).
"use strict";

let report = null;  // the analysis
let game = null;    // "dakon" or "daldos"
let rules = null;   // the record's rules, as /api/{game}/state answers them
let at = 0;

// The game a record names in its `Game` tag.
function gameOf(text) {
  const m = /\[\s*Game\s+"([^"]*)"\s*\]/.exec(text);
  return m ? m[1] : null;
}

// A decision's value for the first side (South / A): the graph's scale.
function forFirst(d) {
  if (game === "dakon") return d.side === 0 ? d.best_value : -d.best_value;
  return d.side === "a" || d.side === "A" ? d.best_value : 1 - d.best_value;
}

async function analyse() {
  const text = $("record").value;
  game = gameOf(text);
  if (game !== "dakon" && game !== "daldos") {
    showError('record: no [Game "dakon"] or [Game "daldos"] tag');
    return;
  }
  $("status").textContent = "analysing…";
  const start = await busy(() => api(`/api/${game}/state`, { record: text }));
  if (!start) { $("status").textContent = ""; return; }
  rules = game === "dakon"
    ? { origin: start.origin, mikul: start.mikul, nembak: start.nembak }
    : { board: start.board, dal: start.dal, capture: start.capture, end: start.end };
  const r = await busy(() => api(`/api/${game}/analyse`, { record: text, time: +$("time").value }));
  if (!r) { $("status").textContent = ""; return; }
  report = r;
  $("status").textContent = `${r.decisions.length} decisions analysed` + (r.stopped ? " (stopped by the server's time limit)" : "");
  drawSummary();
  drawTable();
  step(0);
}

function drawSummary() {
  const s = report.summary;
  let h = `<table class="moves"><tr><th>side</th><th>decisions</th><th>mean loss</th><th>inaccuracies</th><th>mistakes</th><th>blunders</th>${game === "daldos" ? "<th>luck</th>" : ""}</tr>`;
  for (const side of Object.keys(s)) {
    const e = s[side];
    h += `<tr><td>${escapeHtml(side)}</td><td>${e.decisions}</td><td>${(+e.mean_loss).toFixed(3)}</td><td>${e.marks.inaccuracy}</td><td>${e.marks.mistake}</td><td>${e.marks.blunder}</td>${game === "daldos" ? `<td>${(+e.luck).toFixed(3)}</td>` : ""}</tr>`;
  }
  $("summary").innerHTML = h + "</table>";
}

function played(d) { return Array.isArray(d.played) ? d.played.join(" ") : String(d.played); }
function bests(d) { return (d.best || []).join(", "); }
function fmt(v) { return game === "dakon" ? (v > 0 ? "+" : "") + v : (+v).toFixed(3); }

function drawTable() {
  let h = `<table class="moves" id="decisions"><tr><th>ply</th><th>side</th>${game === "daldos" ? "<th>dice</th>" : ""}<th>played</th><th>best</th><th>best value</th><th>loss</th><th>mark</th></tr>`;
  report.decisions.forEach((d, i) => {
    h += `<tr data-i="${i}"><td>${d.ply}</td><td>${d.side}</td>${game === "daldos" ? `<td>${d.dice.join(",")}</td>` : ""}<td>${escapeHtml(played(d))}</td><td>${escapeHtml(bests(d))}</td><td>${fmt(d.best_value)}${d.exact ? "" : " (estimate)"}</td><td>${fmt(d.loss)}</td><td class="mark-${d.mark || ""}">${d.mark || (d.forced ? "forced" : "")}</td></tr>`;
  });
  $("table").innerHTML = h + "</table>";
  $("table").querySelectorAll("tr[data-i]").forEach(tr => tr.addEventListener("click", () => step(+tr.dataset.i)));
}

async function step(i) {
  if (!report || report.decisions.length === 0) return;
  at = Math.max(0, Math.min(report.decisions.length - 1, i));
  const d = report.decisions[at];
  const points = report.decisions.map(x => ({ y: forFirst(x), mark: x.mark, title: `ply ${x.ply}: ${played(x)}` }));
  const [lo, hi] = game === "dakon"
    ? (() => { const m = Math.max(1, ...points.map(p => Math.abs(p.y))); return [-m, m]; })()
    : [0, 1];
  drawGraph($("graph"), points, lo, hi, at, step,
    game === "dakon" ? "best value for South (final store difference)" : "A's win probability (best play)");
  $("at").textContent = `decision ${at + 1} of ${report.decisions.length}`;
  document.querySelectorAll("#decisions tr").forEach(tr => tr.classList.toggle("chosen", +tr.dataset.i === at));
  let body = Object.assign({ position: d.position }, rules);
  if (game === "dakon") Object.assign(body, { mark: d.best, "mark-value": d.best_value, "mark-exact": d.exact });
  else Object.assign(body, { dice: d.dice.join(","), mark: d.best[0] });
  const s = await busy(() => api(`/api/${game}/state`, body));
  if (!s) return;
  $("board").innerHTML = s.svg;
  $("decision").innerHTML =
    `<p><b>ply ${d.ply}</b>, side ${d.side}${game === "daldos" ? ", throw " + d.dice.join(",") : ""}</p>` +
    `<p>played <b>${escapeHtml(played(d))}</b>, value ${fmt(d.played_value)}</p>` +
    `<p>best <b>${escapeHtml(bests(d))}</b> (marked on the board), value ${fmt(d.best_value)} ${d.exact ? "(exact)" : "(estimate)"}</p>` +
    `<p>loss ${fmt(d.loss)}${d.mark ? ` — <span class="mark-${d.mark}">${d.mark}</span>` : ""}${d.forced ? " (forced)" : ""}</p>`;
}

$("analyse").addEventListener("click", analyse);
$("file").addEventListener("change", () => readFileInto($("file"), $("record")));
$("first").addEventListener("click", () => step(0));
$("prev").addEventListener("click", () => step(at - 1));
$("next").addEventListener("click", () => step(at + 1));
$("last").addEventListener("click", () => step(report ? report.decisions.length - 1 : 0));
document.addEventListener("keydown", e => {
  if (e.target.tagName === "TEXTAREA" || e.target.tagName === "INPUT") return;
  if (e.key === "ArrowLeft") step(at - 1);
  if (e.key === "ArrowRight") step(at + 1);
});
// A record handed over by a play page (?record=...) is analysed at once.
const given = new URLSearchParams(location.search).get("record");
if (given) { $("record").value = given; analyse(); }
