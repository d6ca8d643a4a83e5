// The seed's JavaScript (seeds/004_e194c3425099ebc6.txt), run by Node.js for the tests.
// mulberry32, warnsdorffPick, evaluateMove and the daily puzzle formula are copied from the
// seed; the helpers they call (getValidMoves, applyMove, ...) are written plainly from
// specs/tour.md, with the jump order of hamle.tour.board.JUMPS.
//
// Reads a JSON list of requests on standard input, writes a JSON list of answers:
//   {"op": "stream", "seed": s, "n": n}        -> n values of rng() * 2^32
//   {"op": "daily", "dates": [[y, m, d], ...]}  -> start cells
//   {"op": "rollouts", "path": [cells], "n": n} -> {seed, total}: evaluateMove's sum of
//       final counts of n Warnsdorff games from the position, rng = mulberry32(its seed)
"use strict";

// --- from the seed, verbatim -----------------------------------------------------------
function mulberry32(seed) {
  return function() {
    seed = (seed + 0x6D2B79F5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let rng = null;

function randomInt(min, max) {
  return min + Math.floor(rng() * (max - min));
}

function warnsdorffPick(state) {
  const moves = getValidMoves(state);
  let minDegree = Infinity;
  let candidates = [];
  for (const m of moves) {
    const deg = countValidMovesAfter(state, m);
    if (deg < minDegree) {
      minDegree = deg;
      candidates = [m];
    } else if (deg === minDegree) {
      candidates.push(m);
    }
  }
  return candidates[randomInt(0, candidates.length)];
}

// The seed's evaluateMove, with the position already after the candidate move (the
// Python engine seeds each candidate's stream with that position) and the sum returned.
function evaluatePosition(currentState, SIMULATIONS) {
  let totalScore = 0;
  for (let i = 0; i < SIMULATIONS; i++) {
    const sim = cloneState(currentState);
    while (hasValidMoves(sim)) {
      const next = warnsdorffPick(sim);
      applyMove(sim, next);
    }
    totalScore += sim.placedCount;
  }
  return totalScore;
}

function dailyStart(today) {
  const seed = today.getFullYear() * 10000
    + (today.getMonth() + 1) * 100
    + today.getDate();
  const rng = mulberry32(seed);
  const startCell = Math.floor(rng() * 100);
  return startCell;
}

// --- plain helpers from the spec -------------------------------------------------------
// up, down, left, right, up-left, up-right, down-left, down-right (row step, column step)
const JUMPS = [[-3, 0], [3, 0], [0, -3], [0, 3], [-2, -2], [-2, 2], [2, -2], [2, 2]];
const TARGETS = [];
for (let cell = 0; cell < 100; cell++) {
  const r = Math.floor(cell / 10), c = cell % 10, out = [];
  for (const [dr, dc] of JUMPS) {
    if (r + dr >= 0 && r + dr < 10 && c + dc >= 0 && c + dc < 10) out.push((r + dr) * 10 + c + dc);
  }
  TARGETS.push(out);
}

function isVisited(state, cell) {
  return ((state.words[cell >>> 5] >>> (cell & 31)) & 1) === 1;
}

function markVisited(state, cell) {
  state.words[cell >>> 5] |= (1 << (cell & 31));
}

function getValidMoves(state) {
  return TARGETS[state.current].filter((t) => !isVisited(state, t));
}

function hasValidMoves(state) {
  return getValidMoves(state).length > 0;
}

function applyMove(state, cell) {
  markVisited(state, cell);
  state.current = cell;
  state.placedCount += 1;
}

function countValidMovesAfter(state, m) {
  const sim = cloneState(state);
  applyMove(sim, m);
  return getValidMoves(sim).length;
}

function cloneState(state) {
  return { words: Uint32Array.from(state.words), current: state.current, placedCount: state.placedCount };
}

function stateFromPath(path) {
  const state = { words: new Uint32Array(4), current: path[0], placedCount: 1 };
  markVisited(state, path[0]);
  for (const cell of path.slice(1)) applyMove(state, cell);
  return state;
}

// FNV-1a over the 13 little-endian bytes of the visited set, then the current cell.
function positionSeed(state) {
  const bytes = [];
  for (let i = 0; i < 13; i++) {
    let b = 0;
    for (let k = 0; k < 8; k++) {
      const cell = 8 * i + k;
      if (cell < 100 && isVisited(state, cell)) b |= 1 << k;
    }
    bytes.push(b);
  }
  bytes.push(state.current);
  let h = 0x811c9dc5;
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

function answer(request) {
  switch (request.op) {
    case "stream": {
      const r = mulberry32(request.seed);
      const out = [];
      for (let i = 0; i < request.n; i++) out.push(r() * 4294967296);
      return out;
    }
    case "daily":
      return request.dates.map(([y, m, d]) => dailyStart(new Date(y, m - 1, d, 12)));
    case "rollouts": {
      const state = stateFromPath(request.path);
      const seed = positionSeed(state);
      rng = mulberry32(seed);
      return { seed, total: evaluatePosition(state, request.n) };
    }
    default:
      throw new Error("unknown op " + request.op);
  }
}

const input = require("fs").readFileSync(0, "utf8");
process.stdout.write(JSON.stringify(JSON.parse(input).map(answer)));
