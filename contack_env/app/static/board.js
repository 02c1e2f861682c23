// Drawing the table as SVG, in the colours and geometry of the PNG renders (contack_env/render.py and
// contactix_render.py). A Contack cell (x, y) has its corners on lattice points (u, v), drawn at
// (u * S/2, -v * S * sqrt(3)/2): every tile is equilateral, and the picture scales with its viewBox.

const SVG = "http://www.w3.org/2000/svg";
const SQRT3 = Math.sqrt(3);
const S = 100;            // a tile's side in SVG units
const BAND = 0.22;        // edge band depth, as a fraction of the corner-to-centre distance
const NUMBER_SIZE = 0.165;

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

const isUp = (x, y) => ((x + y) % 2 + 2) % 2 === 0;
const point = (u, v) => [u * S / 2, -v * S * SQRT3 / 2];

// corners[s] is the corner opposite side s.
function corners(x, y) {
  if (isUp(x, y)) return { R: point(x - 1, y), L: point(x + 1, y), B: point(x, y + 1) };
  return { R: point(x - 1, y + 1), L: point(x + 1, y + 1), B: point(x, y) };
}

function centre(c) {
  return [(c.R[0] + c.L[0] + c.B[0]) / 3, (c.R[1] + c.L[1] + c.B[1]) / 3];
}

// Colour index (0 blue, 1 red, 2 gold) on each side: blue is always on B; an up cell shows red on R, gold on L.
function sideColour(x, y, side) {
  if (side === "B") return 0;
  const up = isUp(x, y);
  return (side === "R") === up ? 1 : 2;
}

const pts = (list) => list.map((p) => `${p[0].toFixed(2)},${p[1].toFixed(2)}`).join(" ");
const SIDE_ENDS = { L: ["R", "B"], R: ["L", "B"], B: ["R", "L"] };

function drawTile(g, x, y, tile, opts) {
  const { tiles, colours } = opts;
  const size = opts.numberSize || NUMBER_SIZE;
  const c = corners(x, y);
  const m = centre(c);
  el("polygon", { points: pts([c.R, c.L, c.B]), fill: colours.face }, g);
  const inner = {};
  for (const k of ["R", "L", "B"]) inner[k] = [c[k][0] + (m[0] - c[k][0]) * BAND, c[k][1] + (m[1] - c[k][1]) * BAND];
  const inradius = S / (2 * SQRT3);
  for (const [side, [a, b]] of Object.entries(SIDE_ENDS)) {
    const colour = sideColour(x, y, side);
    el("polygon", { points: pts([c[a], c[b], inner[b], inner[a]]), fill: colours.edge[colour] }, g);
  }
  el("polygon", { points: pts([c.R, c.L, c.B]), fill: "none", stroke: colours.outline, "stroke-width": 1.4, "stroke-linejoin": "round" }, g);
  for (const [side, [a, b]] of Object.entries(SIDE_ENDS)) {
    const colour = sideColour(x, y, side);
    const mx = (c[a][0] + c[b][0]) / 2, my = (c[a][1] + c[b][1]) / 2;
    const nx = (m[0] - mx) / inradius, ny = (m[1] - my) / inradius;
    const depth = BAND * inradius + 0.015 * S + (Math.abs(nx) * 0.45 + Math.abs(ny) * 0.36) * size * S;
    const t = el("text", {
      x: (mx + nx * depth).toFixed(2), y: (my + ny * depth).toFixed(2), "font-size": size * S,
      "text-anchor": "middle", "dominant-baseline": "central", fill: colours.ink[colour], "font-weight": "600",
    }, g);
    t.textContent = String(tiles[tile][colour]);
  }
}

// The bounds, in SVG units, of a set of cells (with a margin).
function viewBox(cells) {
  if (!cells.length) cells = [[0, 0]];
  const xs = cells.map((c) => c[0]), ys = cells.map((c) => c[1]);
  const [x0, y0] = point(Math.min(...xs) - 1, Math.max(...ys) + 1);
  const [x1, y1] = point(Math.max(...xs) + 1, Math.min(...ys));
  const pad = S * 0.3;
  const w = Math.max(x1 - x0, 3 * S), h = Math.max(y1 - y0, 2 * S);
  const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
  return `${(cx - w / 2 - pad).toFixed(1)} ${(cy - h / 2 - pad).toFixed(1)} ${(w + 2 * pad).toFixed(1)} ${(h + 2 * pad).toFixed(1)}`;
}

// Draw a Contack (or solitaire) figure. opts: {tiles, colours, selected (tile id or null), onCell(x, y)}.
// Every frontier cell is outlined faintly and clickable; the cells where the selected tile may go are highlighted
// with the points the placement would score.
export function drawContack(svg, state, opts) {
  svg.replaceChildren();
  const colours = opts.colours;
  const cells = state.figure.map((p) => [p.x, p.y]).concat(state.frontier);
  svg.setAttribute("viewBox", viewBox(cells));
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  el("rect", { x: -1e5, y: -1e5, width: 2e5, height: 2e5, fill: colours.felt }, svg);
  const targets = new Map();
  if (opts.selected !== null && opts.selected !== undefined) {
    for (const m of state.legal) if (m.tile === opts.selected) targets.set(`${m.x},${m.y}`, m.points);
  }
  const anyTarget = new Set(state.legal.map((m) => `${m.x},${m.y}`));
  for (const [x, y] of state.frontier) {
    const c = corners(x, y);
    const m = centre(c);
    const key = `${x},${y}`;
    const inset = [c.R, c.L, c.B].map((p) => [p[0] + (m[0] - p[0]) * 0.12, p[1] + (m[1] - p[1]) * 0.12]);
    const g = el("g", { class: "cell", "data-x": x, "data-y": y }, svg);
    const legal = targets.has(key);
    if (legal) g.classList.add("legal");
    if (anyTarget.has(key)) g.classList.add("candidate");
    el("polygon", {
      points: pts(inset),
      fill: legal ? colours.target : "rgba(255,255,255,0.02)",
      "fill-opacity": legal ? 0.55 : 1,
      stroke: legal ? colours.highlight : colours.target,
      "stroke-width": legal ? 3 : (anyTarget.has(key) ? 2 : 0.8),
      "stroke-dasharray": anyTarget.has(key) || legal ? "" : "4 4",
    }, g);
    if (legal) {
      const t = el("text", {
        x: m[0].toFixed(1), y: m[1].toFixed(1), "font-size": 0.2 * S, "text-anchor": "middle",
        "dominant-baseline": "central", fill: colours.highlight, "font-weight": "700", class: "points",
      }, g);
      t.textContent = `+${targets.get(key)}`;
    } else if (anyTarget.has(key)) {
      el("circle", { cx: m[0], cy: m[1], r: 0.035 * S, fill: colours.target }, g);
    }
    if (opts.onCell) g.addEventListener("click", () => opts.onCell(x, y));
  }
  for (const p of state.figure) {
    const g = el("g", { class: "tile", "data-tile": p.tile, "data-x": p.x, "data-y": p.y }, svg);
    drawTile(g, p.x, p.y, p.tile, opts);
  }
  if (state.last) {
    const c = corners(state.last[0], state.last[1]);
    el("polygon", { points: pts([c.R, c.L, c.B]), fill: "none", stroke: colours.highlight, "stroke-width": 5, "stroke-linejoin": "round", class: "last" }, svg);
  }
}

// One tile as a small picture for a hand (up cell, blue on the base).
export function tileIcon(tile, opts) {
  const svg = el("svg", { viewBox: `${-S / 2 - 3} ${-S * SQRT3 / 2 - 3} ${S + 6} ${S * SQRT3 / 2 + 6}`, class: "tile-icon" });
  // Bigger numbers than on the table: a hand's tiles are drawn small.
  drawTile(el("g", {}, svg), 0, 0, tile, { ...opts, numberSize: 0.2 });
  return svg;
}

// CON-TAC-TIX: hole (r, c) at ((c - r) * sx, (r + c) * sqrt(3) * sx), the diamond standing on a corner; the side
// bands and proportions of contactix_render.py. opts: {colours, onHole(r, c)}.
export function drawContactix(svg, state, opts) {
  svg.replaceChildren();
  const k = opts.colours.contactix;
  const n = state.size, sx = 10, sy = SQRT3 * sx, radius = 2 * sx / SQRT3;
  const ym = (n - 1) * sy;
  const diamond = (d) => {
    d *= sx;
    return {
      top: [0, -2 * d], bottom: [0, 2 * (n - 1) * sy + 2 * d],
      left: [-(n - 1) * sx - 2 * d / SQRT3, ym], right: [(n - 1) * sx + 2 * d / SQRT3, ym],
    };
  };
  const inner = diamond(1.35), outer = diamond(2.25);
  const w = outer.right[0] - outer.left[0] + 2 * sx, h = outer.bottom[1] - outer.top[1] + 2 * sx;
  svg.setAttribute("viewBox", `${outer.left[0] - sx} ${outer.top[1] - sx} ${w} ${h}`);
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  el("rect", { x: -1e4, y: -1e4, width: 2e4, height: 2e4, fill: k.board }, svg);
  for (const [a, b, colour] of [["top", "right", 0], ["left", "bottom", 0], ["top", "left", 1], ["right", "bottom", 1]]) {
    el("polygon", { points: pts([inner[a], inner[b], outer[b], outer[a]]), fill: k.side[colour], stroke: k.peg_line, "stroke-width": 0.6 }, svg);
  }
  const at = (r, c) => [(c - r) * sx, (r + c) * sy];
  const hex = (cx, cy) => pts([0, 1, 2, 3, 4, 5].map((i) => {
    const a = (90 + 60 * i) * Math.PI / 180;
    return [cx + radius * Math.cos(a), cy + radius * Math.sin(a)];
  }));
  const chain = new Set(state.chain.map(([r, c]) => r * n + c));
  for (let i = 0; i < n * n; i++) {
    const r = Math.floor(i / n), c = i % n;
    const [x, y] = at(r, c);
    const v = state.board[i];
    const g = el("g", { class: "hole" + (v === 0 ? " empty" : ""), "data-r": r, "data-c": c }, svg);
    el("polygon", { points: hex(x, y), fill: k.hole_face, stroke: k.hole_line, "stroke-width": 0.8 }, g);
    if (v === 0) el("circle", { cx: x, cy: y, r: radius * 0.2, fill: k.hole }, g);
    else el("circle", { cx: x, cy: y, r: radius * 0.6, fill: v === 1 ? k.black : k.white, stroke: k.peg_line, "stroke-width": 0.8, class: "peg" }, g);
    if (chain.has(i)) el("circle", { cx: x, cy: y, r: radius * 0.72, fill: "none", stroke: k.chain, "stroke-width": 2 }, g);
    if (opts.onHole) g.addEventListener("click", () => opts.onHole(r, c));
  }
  if (state.chain.length > 1) {
    el("polyline", { points: pts(state.chain.map(([r, c]) => at(r, c))), fill: "none", stroke: k.chain, "stroke-width": 3, "stroke-linejoin": "round", "pointer-events": "none" }, svg);
  }
  if (state.last && state.winner === null) {
    const [x, y] = at(state.last[0], state.last[1]);
    el("circle", { cx: x, cy: y, r: radius * 0.18, fill: k.last, "pointer-events": "none", class: "last" }, svg);
  }
  for (let i = 0; i < n; i++) {
    for (const [x, y] of [at(i, -1.75), at(-1.75, i)]) {
      const t = el("text", { x, y, "font-size": sx * 1.05, "text-anchor": "middle", "dominant-baseline": "central", fill: k.ink, "pointer-events": "none" }, svg);
      t.textContent = String(i);
    }
  }
}
