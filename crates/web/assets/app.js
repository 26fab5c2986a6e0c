// dalkon's pages: what every page shares. The pages hold no game rules:
// they call the JSON API (docs/web.md) and draw what it answers.
"use strict";

const RETRIES = 5;          // tries of a request the server answered 503
const BACKOFF_MS = 250;     // the first wait, doubled after each 503

function sleep(ms) { return new Promise(r => setTimeout(r, ms)); }

// POST `body` as JSON to `path`; the answer's JSON. A 503 (the server is
// busy) is asked again after a short, growing wait; any other error shows
// the server's one line (its {"error": ...}) and throws.
async function api(path, body) {
  let wait = BACKOFF_MS;
  for (let attempt = 1; ; attempt++) {
    let res;
    try {
      res = await fetch(path, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    } catch (e) {
      showError("no answer from the server: " + e.message);
      throw e;
    }
    if (res.status === 503 && attempt < RETRIES) {
      await sleep(wait);
      wait *= 2;
      continue;
    }
    const text = await res.text();
    let json = null;
    try { json = JSON.parse(text); } catch (e) { /* not JSON */ }
    if (!res.ok) {
      const line = json && json.error ? json.error : text.trim() || res.statusText;
      showError(line);
      const err = new Error(line);
      err.status = res.status;
      throw err;
    }
    showError("");
    return json;
  }
}

function $(id) { return document.getElementById(id); }

function showError(line) {
  const e = $("error");
  if (e) e.textContent = line;
}

// Run `f` with the page marked busy; an error is already shown by `api`.
async function busy(f) {
  document.body.classList.add("busy");
  try { return await f(); } catch (e) { console.log(e); return null; }
  finally { document.body.classList.remove("busy"); }
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"]/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}

// Offer `text` as a file named `name` to save.
function download(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

// The text of the file chosen in the file input `input`, into `textarea`.
function readFileInto(input, textarea, then) {
  const f = input.files && input.files[0];
  if (!f) return;
  f.text().then(t => { textarea.value = t; if (then) then(t); });
}

// Two dice drawn as faces with pips.
const PIPS = {
  1: [[22, 22]], 2: [[8, 8], [36, 36]], 3: [[8, 8], [22, 22], [36, 36]],
  4: [[8, 8], [36, 8], [8, 36], [36, 36]],
};
function drawDice(el, dice) {
  el.innerHTML = "";
  if (!dice) return;
  for (const d of dice) {
    const die = document.createElement("div");
    die.className = "die";
    die.dataset.value = d;
    die.title = String(d);
    for (const [x, y] of PIPS[d] || []) {
      const p = document.createElement("div");
      p.className = "pip";
      p.style.left = x + "px";
      p.style.top = y + "px";
      die.appendChild(p);
    }
    el.appendChild(die);
  }
}

// A value graph: `points` [{x, y, mark}] with y in [lo, hi], clicking a
// point calls `pick(i)`; the point `at` is ringed.
function drawGraph(el, points, lo, hi, at, pick, yLabel) {
  const w = 640, h = 200, pad = 42;
  const n = Math.max(points.length - 1, 1);
  const X = i => pad + (w - 2 * pad) * i / n;
  const Y = v => h - pad - (h - 2 * pad) * (Math.max(lo, Math.min(hi, v)) - lo) / (hi - lo || 1);
  let s = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">`;
  s += `<line x1="${pad}" y1="${Y((lo + hi) / 2)}" x2="${w - pad}" y2="${Y((lo + hi) / 2)}" stroke="#bbb" stroke-dasharray="4 3"/>`;
  s += `<text x="${pad}" y="14" font-size="12">${escapeHtml(yLabel)}</text>`;
  s += `<text x="${pad - 6}" y="${Y(hi) + 4}" font-size="11" text-anchor="end">${hi}</text><text x="${pad - 6}" y="${Y(lo) + 4}" font-size="11" text-anchor="end">${lo}</text>`;
  s += `<polyline fill="none" stroke="#6b4f2a" stroke-width="2" points="${points.map((p, i) => X(i) + "," + Y(p.y)).join(" ")}"/>`;
  const colors = { inaccuracy: "#d4a000", mistake: "#e06000", blunder: "#b00020" };
  points.forEach((p, i) => {
    const c = colors[p.mark] || "#6b4f2a";
    const r = p.mark ? 6 : 3.5;
    s += `<circle class="point" data-i="${i}" cx="${X(i)}" cy="${Y(p.y)}" r="${r}" fill="${c}"><title>${escapeHtml(p.title || "")}</title></circle>`;
  });
  if (at != null && points[at]) {
    s += `<circle cx="${X(at)}" cy="${Y(points[at].y)}" r="10" fill="none" stroke="#1a7f37" stroke-width="3"/>`;
  }
  s += `<text x="${w / 2}" y="${h - 6}" font-size="11" text-anchor="middle">decision</text></svg>`;
  el.innerHTML = s;
  el.querySelectorAll("circle.point").forEach(c => c.addEventListener("click", () => pick(+c.dataset.i)));
}
