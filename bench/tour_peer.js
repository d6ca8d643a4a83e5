// The peer of the tour benchmark: the seed's hint engine written plainly in JavaScript.
//
// What it does (seeds/004, spec § 4, without hamle's exact search):
// - the visited set is a bitset of four 32-bit words (cells 0-31, 32-63, 64-95, 96-99),
//   each cell's jumps are precomputed once, in hamle's jump order;
// - candidates are the legal moves; each is valued by flat Monte Carlo: apply it, then
//   finish the game with warnsdorffPick (least onward degree, ties broken by
//   candidates[randomInt(0, n)]) and average placedCount (the seed's evaluateMove);
// - the rollouts of a candidate use mulberry32(FNV-1a of the position after it: the 13
//   little-endian bytes of the visited set, then the current cell), as in hamle;
// - hint mode 120 simulations per candidate, quick mode 30; early termination: after the
//   first 30, a candidate whose mean is more than 2 cells below the leader's is dropped;
// - the best mean wins; ties go to the smaller onward degree, then the smaller cell.
//
// Usage: node bench/tour_peer.js INPUT.json
// INPUT: {"positions": [[cell, ...], ...], "modes": ["hint", "quick"], "warmup": N}
// Each position is the path of filled cells (start first). For each mode the first N
// positions are run once untimed (JIT warm-up), then every position is timed with
// process.hrtime.bigint (building the state from the path included). Output (stdout,
// JSON): per mode the median, 95th percentile and mean in ms, and the chosen moves.
"use strict";

const fs = require("fs");

const SIDE = 10;
const CELLS = 100;
const JUMPS = [[-3, 0], [3, 0], [0, -3], [0, 3], [-2, -2], [-2, 2], [2, -2], [2, 2]];
const SIMULATIONS = { hint: 120, quick: 30 };
const FIRST_ROUND = 30;
const MARGIN = 2;

const TARGETS = [];
for (let cell = 0; cell < CELLS; cell++) {
  const r = Math.floor(cell / SIDE);
  const c = cell % SIDE;
  const list = [];
  for (const [dr, dc] of JUMPS) {
    if (r + dr >= 0 && r + dr < SIDE && c + dc >= 0 && c + dc < SIDE) {
      list.push((r + dr) * SIDE + c + dc);
    }
  }
  TARGETS.push(Int32Array.from(list));
}

function mulberry32(seed) {
  return function () {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomInt(low, high, rng) {
  return low + Math.floor(rng() * (high - low));
}

function newState(path) {
  const state = { bits: new Uint32Array(4), current: path[0], placedCount: 0 };
  for (const cell of path) applyMove(state, cell);
  return state;
}

function cloneState(state) {
  return { bits: state.bits.slice(), current: state.current, placedCount: state.placedCount };
}

function isVisited(state, cell) {
  return (state.bits[cell >>> 5] >>> (cell & 31)) & 1;
}

function applyMove(state, cell) {
  state.bits[cell >>> 5] |= 1 << (cell & 31);
  state.current = cell;
  state.placedCount++;
}

function getValidMoves(state) {
  const out = [];
  const targets = TARGETS[state.current];
  for (let k = 0; k < targets.length; k++) {
    if (!isVisited(state, targets[k])) out.push(targets[k]);
  }
  return out;
}

function hasValidMoves(state) {
  const targets = TARGETS[state.current];
  for (let k = 0; k < targets.length; k++) {
    if (!isVisited(state, targets[k])) return true;
  }
  return false;
}

function countValidMovesAfter(state, move) {
  // `move` is not visited yet; the current cell, visited, is not counted.
  let n = 0;
  const targets = TARGETS[move];
  for (let k = 0; k < targets.length; k++) {
    if (!isVisited(state, targets[k])) n++;
  }
  return n;
}

function warnsdorffPick(state, rng) {
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
  return candidates[randomInt(0, candidates.length, rng)];
}

function positionSeed(state) {
  let h = 0x811c9dc5;
  for (let i = 0; i < 13; i++) {
    h = Math.imul(h ^ ((state.bits[i >>> 2] >>> ((i & 3) * 8)) & 0xff), 0x01000193);
  }
  return Math.imul(h ^ state.current, 0x01000193) >>> 0;
}

// The seed's evaluateMove, run `simulations` times from `after` (the position after the
// candidate move) with the candidate's own stream; returns the sum of final scores.
function evaluateMove(after, simulations, rng) {
  let totalScore = 0;
  for (let i = 0; i < simulations; i++) {
    const sim = cloneState(after);
    while (hasValidMoves(sim)) {
      const next = warnsdorffPick(sim, rng);
      applyMove(sim, next);
    }
    totalScore += sim.placedCount;
  }
  return totalScore;
}

function hint(state, mode) {
  const n = SIMULATIONS[mode];
  const first = Math.min(FIRST_ROUND, n);
  const moves = getValidMoves(state);
  const rows = [];
  let leader = -1;
  for (const move of moves) {
    const after = cloneState(state);
    applyMove(after, move);
    const rng = mulberry32(positionSeed(after));
    const total = evaluateMove(after, first, rng);
    rows.push({ move, after, rng, total, runs: first, degree: getValidMoves(after).length });
    if (total > leader) leader = total;
  }
  if (n > first) {
    for (const row of rows) {
      if (row.total >= leader - MARGIN * first) {
        row.total += evaluateMove(row.after, n - first, row.rng);
        row.runs = n;
      }
    }
  }
  let best = null;
  for (const row of rows) {
    row.mean = row.total / row.runs;
    if (
      best === null ||
      row.mean > best.mean ||
      (row.mean === best.mean &&
        (row.degree < best.degree || (row.degree === best.degree && row.move < best.move)))
    ) {
      best = row;
    }
  }
  return { move: best.move, value: best.mean };
}

function percentile(sorted, q) {
  const index = q * (sorted.length - 1);
  const lo = Math.floor(index);
  const hi = Math.ceil(index);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (index - lo);
}

function main() {
  const input = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
  const positions = input.positions;
  const out = { node: process.version, positions: positions.length, modes: {} };
  for (const mode of input.modes) {
    for (let i = 0; i < Math.min(input.warmup || 0, positions.length); i++) {
      hint(newState(positions[i]), mode);
    }
    const ms = new Array(positions.length);
    const moves = new Array(positions.length);
    for (let i = 0; i < positions.length; i++) {
      const start = process.hrtime.bigint();
      const answer = hint(newState(positions[i]), mode);
      const end = process.hrtime.bigint();
      ms[i] = Number(end - start) / 1e6;
      moves[i] = answer.move;
    }
    const sorted = ms.slice().sort((a, b) => a - b);
    out.modes[mode] = {
      median_ms: percentile(sorted, 0.5),
      p95_ms: percentile(sorted, 0.95),
      mean_ms: ms.reduce((a, b) => a + b, 0) / ms.length,
      moves,
    };
  }
  process.stdout.write(JSON.stringify(out) + "\n");
}

main();
