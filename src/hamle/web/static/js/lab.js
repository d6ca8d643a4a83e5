// The density lab: mark a board by hand, ask the engine for the density d of every
// unshot cell, and draw it as a heat map with the best cells, w and the focused cell's d.
// It can also count every layout of the ships afloat instead (exact mode).

import {
  addTexts,
  api,
  apiWhenFree,
  cellIndex,
  cellName,
  describeRules,
  focusBackTo,
  language,
  makeGrid,
  MARK_SYMBOLS,
  renderChrome,
  say,
  t,
} from "./common.js";

addTexts({
  en: {
    "lab.title": "Density lab",
    "lab.intro":
      "Mark misses, hits and sunk ships of a game in your head; the engine counts where the ships still afloat can lie and shows where the Hard level would fire next, and where the Expert would if you ask.",
    "lab.tools": "Marking tool",
    "lab.tool.miss": "Miss",
    "lab.tool.hit": "Hit",
    "lab.tool.sunk": "Sunk",
    "lab.tool.new-ship": "New sunk ship",
    "lab.tool.erase": "Erase",
    "lab.board": "Board to mark",
    "lab.help":
      "Click or tap a cell to mark it; on the keyboard, move with the arrow keys and press Enter or Space. Marking a cell again with the same tool removes the mark. A sunk cell joins the sunk ship beside it in line, up to the longest ship's length; New sunk ship (or Shift held with Sunk) starts a new one beside it, and the cells marked Sunk next continue it.",
    "lab.help.touch":
      "Tap a cell to mark it. Marking a cell again with the same tool removes the mark. A sunk cell joins the sunk ship beside it in line, up to the longest ship's length; New sunk ship starts a new one beside it, and the cells marked Sunk next continue it.",
    "lab.low": "Low",
    "lab.high": "High",
    "lab.best.legend": "Highest density",
    "lab.best": "Hard level's target",
    "lab.best.none": "no ship afloat",
    "lab.cell": "Cell",
    "lab.weight": "Weight of a hit",
    "lab.ships": "Ships afloat ({n} of {total})",
    "lab.ships.help":
      "Sunk cells in a straight line form one ship, which leaves the list by itself. Remove a ship here when it sank where you have not marked it.",
    "lab.cells": "{n} cells",
    "lab.cells.one": "1 cell",
    "lab.remove": "Remove",
    "lab.remove.label": "Remove {ship} from the ships afloat",
    "lab.restore": "Put back",
    "lab.restore.label": "Put {ship} back afloat",
    "lab.removed": "removed",
    "lab.on.board": "sunk at {cells}",
    "lab.on.cell": "sunk at {cells}",
    "lab.rules": "Rules",
    "lab.exact": "Exact counts: every layout of the ships afloat",
    "lab.exact.best": "Most likely cell",
    "lab.exact.legend": "Most likely",
    "lab.exact.total": "Layouts that fit",
    "lab.exact.cell": "{cell} · {count} of the layouts ({share})",
    "lab.exact.busy": "Counting every layout…",
    "lab.reset": "Reset the board",
    "lab.mark.miss": "miss",
    "lab.mark.hit": "hit",
    "lab.mark.sunk": "sunk",
    "lab.mark.water": "water (next to a sunk ship)",
    "lab.mark.none": "not marked",
    "lab.marked": "{cell}: {mark}",
    "lab.ship.Carrier": "Carrier",
    "lab.ship.Battleship": "Battleship",
    "lab.ship.Cruiser": "Cruiser",
    "lab.ship.Submarine": "Submarine",
    "lab.ship.Destroyer": "Destroyer",
    "lab.ship.Boat": "Boat",
    "lab.expert.ask": "Where would the Expert fire?",
    "lab.expert.legend": "Expert's target",
    "lab.expert.busy": "The Expert is playing the game out from its best cells…",
    "lab.expert.answer": "The Expert level fires {cell}.",
    "lab.expert.shots": "Shots to finish",
    "lab.expert.behind": "More than its choice",
    "lab.expert.cell.label": "{cell}: {shots} shots to finish on average",
    "lab.expert.how.opening": "Its opening: the shots it fires before its first hit, worked out once with far more playouts.",
    "lab.expert.how.exact": "With a hit open and ships that may not touch, the cell that most layouts fitting the marks cover.",
    "lab.expert.how.base": "The best cell of its ranked density; no other cell was worth playing out.",
    "lab.expert.how.density": "The Hard level's cell: too many layouts for its own density.",
    "lab.expert.how.endgame": "Every layout that fits the marks, {fleets} of them, played out to the end from each of its best cells.",
    "lab.expert.how.rollouts": "{fleets} fleets drawn from all that fit the marks, each played out to the end from each of its best cells; the fewest shots on average wins.",
  },
  tr: {
    "lab.title": "Yoğunluk laboratuvarı",
    "lab.intro":
      "Kafandaki oyunun ıskalarını, isabetlerini ve batan gemilerini işaretle; motor yüzen gemilerin hâlâ nerede durabileceğini sayar ve Zor seviyenin sıradaki atışını, istersen Uzmanınkini de gösterir.",
    "lab.tools": "İşaretleme aracı",
    "lab.tool.miss": "Iska",
    "lab.tool.hit": "İsabet",
    "lab.tool.sunk": "Battı",
    "lab.tool.new-ship": "Yeni batık gemi",
    "lab.tool.erase": "Sil",
    "lab.board": "İşaretleme tahtası",
    "lab.help":
      "İşaretlemek için bir kareye tıkla ya da dokun; klavyede ok tuşlarıyla gezinip Enter ya da Boşluk tuşuna bas. Bir kareyi aynı araçla yeniden işaretlersen işaret kalkar. Batık bir kare, yanında aynı hizadaki batık gemiye en uzun geminin boyuna kadar katılır; Yeni batık gemi (ya da Battı ile Shift'e basılı tutmak) yanında yeni bir gemi başlatır, sonra Battı ile işaretlenen kareler onu sürdürür.",
    "lab.help.touch":
      "İşaretlemek için bir kareye dokun. Bir kareyi aynı araçla yeniden işaretlersen işaret kalkar. Batık bir kare, yanında aynı hizadaki batık gemiye en uzun geminin boyuna kadar katılır; Yeni batık gemi yanında yeni bir gemi başlatır, sonra Battı ile işaretlenen kareler onu sürdürür.",
    "lab.low": "Düşük",
    "lab.high": "Yüksek",
    "lab.best.legend": "En yüksek yoğunluk",
    "lab.best": "Zor seviyenin hedefi",
    "lab.best.none": "su üstünde gemi yok",
    "lab.cell": "Kare",
    "lab.weight": "Bir isabetin ağırlığı",
    "lab.ships": "Yüzen gemiler ({total} gemiden {n})",
    "lab.ships.help":
      "Düz bir çizgideki “Battı” kareleri bir gemi olur ve gemi listeden kendiliğinden çıkar. İşaretlemediğin bir yerde batan gemiyi buradan kaldır.",
    "lab.cells": "{n} kare",
    "lab.cells.one": "1 kare",
    "lab.remove": "Kaldır",
    "lab.remove.label": "{ship} listeden kaldırılsın",
    "lab.restore": "Geri koy",
    "lab.restore.label": "{ship} listeye geri konsun",
    "lab.removed": "kaldırıldı",
    "lab.on.board": "{cells} karelerinde battı",
    "lab.on.cell": "{cells} karesinde battı",
    "lab.rules": "Kurallar",
    "lab.exact": "Kesin sayım: yüzen gemilerin her dizilişi",
    "lab.exact.best": "En olası kare",
    "lab.exact.legend": "En olası",
    "lab.exact.total": "Uyan dizilişler",
    "lab.exact.cell": "{cell} · dizilişlerin {count} tanesi ({share})",
    "lab.exact.busy": "Her diziliş sayılıyor…",
    "lab.reset": "Tahtayı sıfırla",
    "lab.mark.miss": "ıska",
    "lab.mark.hit": "isabet",
    "lab.mark.sunk": "battı",
    "lab.mark.water": "su (batan geminin yanında)",
    "lab.mark.none": "işaretsiz",
    "lab.marked": "{cell}: {mark}",
    "lab.ship.Carrier": "Uçak gemisi",
    "lab.ship.Battleship": "Zırhlı",
    "lab.ship.Cruiser": "Kruvazör",
    "lab.ship.Submarine": "Denizaltı",
    "lab.ship.Destroyer": "Muhrip",
    "lab.ship.Boat": "Bot",
    "lab.expert.ask": "Uzman nereye atardı?",
    "lab.expert.legend": "Uzmanın hedefi",
    "lab.expert.busy": "Uzman en iyi karelerinden oyunu sonuna kadar oynuyor…",
    "lab.expert.answer": "Uzman seviyesi {cell} karesine atar.",
    "lab.expert.shots": "Bitirmek için atış",
    "lab.expert.behind": "Seçtiğinden fazlası",
    "lab.expert.cell.label": "{cell}: bitirmek için ortalama {shots} atış",
    "lab.expert.how.opening": "Açılışı: ilk isabetten önceki atışları, bir kez çok daha fazla oyunla hesaplanmış.",
    "lab.expert.how.exact": "Açık bir isabet varken ve gemiler birbirine değemezken, işaretlere uyan dizilişlerin en çoğunun kapladığı kare.",
    "lab.expert.how.base": "Sıralı yoğunluğunun en iyi karesi; başka bir kareyi oynamaya değmedi.",
    "lab.expert.how.density": "Zor seviyenin karesi: kendi yoğunluğu için dizilişler çok fazla.",
    "lab.expert.how.endgame": "İşaretlere uyan her diziliş ({fleets} tane), en iyi karelerinin her birinden sonuna kadar oynandı.",
    "lab.expert.how.rollouts": "İşaretlere uyanlardan çekilen {fleets} filo, en iyi karelerinin her birinden sonuna kadar oynandı; ortalamada en az atış kazanır.",
  },
});

const STORE_KEY = "hamle.lab";
const SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹";

const board = document.getElementById("board");
const status = document.getElementById("status");
const rulesPicker = document.getElementById("rules");
const exactBox = document.getElementById("exact");

let presets = [];
let state = restore();
let tool = "miss";
let cells = [];
let focused = "A1";
let lastSunk = null;
const startedApart = new Set(); // the cells that started a sunk ship apart from its neighbour
let result = null;
let asked = 0;
let shown = null; // the status line: {text: () => string, kind}, re-run on a language switch
let advice = null; // the Expert's last answer: {marks: the request as JSON, answer}

function setStatus(text, kind = "info") {
  shown = { text, kind };
  say(status, text(), kind);
}

function emptyBoard(rules = "classic", exact = false) {
  return { rules, miss: [], hit: [], sunk: [], removed: [], exact };
}

// The saved board, or an empty one if nothing (or something malformed) was saved.
function restore() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE_KEY));
    const names = (list) => Array.isArray(list) && list.every((n) => /^[A-J](10|[1-9])$/.test(n));
    if (
      saved &&
      ["classic", "russian"].includes(saved.rules) &&
      names(saved.miss) &&
      names(saved.hit) &&
      Array.isArray(saved.sunk) &&
      saved.sunk.every((group) => names(group) && group.length > 0) &&
      Array.isArray(saved.removed) &&
      saved.removed.every(Number.isInteger)
    ) {
      return { ...saved, exact: saved.exact === true };
    }
  } catch {
    // fall through to an empty board
  }
  return emptyBoard();
}

function save() {
  localStorage.setItem(STORE_KEY, JSON.stringify(state));
}

function rules() {
  return presets.find((preset) => preset.name === state.rules);
}

function markOf(name) {
  if (state.miss.includes(name)) return "miss";
  if (state.hit.includes(name)) return "hit";
  if (state.sunk.some((group) => group.includes(name))) return "sunk";
  if (result && result.water.includes(name)) return "water";
  return null;
}

function position(name) {
  const index = cellIndex(name, rules().cols);
  return [Math.floor(index / rules().cols), index % rules().cols];
}

function touching(a, b) {
  const [ra, ca] = position(a);
  const [rb, cb] = position(b);
  return Math.abs(ra - rb) + Math.abs(ca - cb) === 1;
}

// True when the cells form one unbroken horizontal or vertical line.
function straight(names) {
  const spots = names.map(position);
  const rows = new Set(spots.map(([r]) => r));
  const cols = new Set(spots.map(([, c]) => c));
  const span = (values) => Math.max(...values) - Math.min(...values) + 1;
  return (
    (rows.size === 1 && span(cols) === names.length) ||
    (cols.size === 1 && span(rows) === names.length)
  );
}

function ordered(names) {
  return [...names].sort((a, b) => cellIndex(a, rules().cols) - cellIndex(b, rules().cols));
}

// Split cells into groups of orthogonally connected cells.
function connected(names) {
  const left = new Set(names);
  const groups = [];
  for (const start of names) {
    if (!left.has(start)) continue;
    left.delete(start);
    const group = [start];
    for (let i = 0; i < group.length; i++) {
      for (const other of [...left]) {
        if (touching(group[i], other)) {
          left.delete(other);
          group.push(other);
        }
      }
    }
    groups.push(ordered(group));
  }
  return groups;
}

// A sunk cell joins a neighbouring sunk ship when the ship stays a straight line no longer
// than the fleet's longest (bridging two ships in line merges them); otherwise, or with
// `apart` (New sunk ship, or Shift held), it starts a new ship: two ships may lie end to
// end. A ship so started is never bridged to the one beside it.
function addSunk(name, apart = false) {
  const longest = Math.max(...rules().fleet.map((ship) => ship.length));
  const joinable = apart
    ? []
    : state.sunk.filter(
        (group) =>
          group.some((other) => touching(other, name)) &&
          straight([...group, name]) &&
          group.length < longest,
      );
  if (joinable.length === 0) {
    state.sunk.push([name]);
    if (apart) startedApart.add(name);
  } else {
    const merged = [...joinable.flat(), name];
    const bridges = !joinable.some((group) => group.some((cell) => startedApart.has(cell)));
    if (joinable.length > 1 && straight(merged) && merged.length <= longest && bridges) {
      const at = state.sunk.indexOf(joinable[0]);
      state.sunk = state.sunk.filter((group) => !joinable.includes(group));
      state.sunk.splice(at, 0, ordered(merged));
    } else {
      const group = joinable.find((g) => g.includes(lastSunk)) || joinable[0];
      state.sunk[state.sunk.indexOf(group)] = ordered([...group, name]);
    }
  }
  lastSunk = name;
}

function unmark(name) {
  startedApart.delete(name);
  state.miss = state.miss.filter((n) => n !== name);
  state.hit = state.hit.filter((n) => n !== name);
  state.sunk = state.sunk.flatMap((group) =>
    group.includes(name) ? connected(group.filter((n) => n !== name)) : [group],
  );
}

function mark(index, event) {
  const name = cellName(index, rules().cols);
  focused = name; // (a tap may not focus the cell: iOS gives buttons no focus)
  const before = markOf(name);
  unmark(name);
  const newShip = tool === "new-ship";
  if (tool !== "erase" && before !== tool) {
    if (tool === "sunk" || newShip) addSunk(name, newShip || Boolean(event?.shiftKey));
    else state[tool].push(name);
  }
  if (newShip) chooseTool("sunk"); // (the next cells continue the ship it started)
  // (the focused cell's new label is not read out again: a screen reader hears it here)
  const now = markOf(name) || "none";
  document.getElementById("marked").textContent = t("lab.marked", { cell: name, mark: t(`lab.mark.${now}`) });
  update();
}

// Each ship of the fleet: afloat, removed by hand, or sunk on the board (the sunk
// groups take ships of their length, those not removed by hand first).
function fleetStatus() {
  const fleet = rules().fleet;
  const removed = new Set(state.removed);
  const waiting = {};
  for (const group of state.sunk) (waiting[group.length] ||= []).push(group);
  const status = fleet.map((ship, i) => ({ ship, state: removed.has(i) ? "removed" : "afloat" }));
  for (const pass of ["afloat", "removed"]) {
    for (const entry of status) {
      const queue = waiting[entry.ship.length];
      if (entry.state === pass && queue && queue.length) {
        entry.state = "board";
        entry.group = queue.shift();
      }
    }
  }
  return status;
}

function request() {
  const afloat = fleetStatus()
    .filter((entry) => entry.state === "afloat")
    .map((entry) => entry.ship.length);
  const { miss, hit, sunk } = state;
  return { rules: state.rules, miss, hit, sunk, afloat };
}

// The density map of the marks. A server whose exact counter is busy (409: these marks need
// it) is asked again, as countExactly does, until the marks change.
async function update() {
  save();
  const mine = ++asked;
  render();
  if (state.exact) return countExactly();
  const current = () => mine === asked && !state.exact;
  try {
    const body = request();
    const answer = await apiWhenFree("/api/battleship/density", { method: "POST", body }, current);
    if (!answer) return;
    result = answer;
    setStatus(() => "");
  } catch (error) {
    result = null;
    setStatus(() => error.message, "error");
  }
  render();
}

// Exact counts take seconds: one request at a time. Marks changed meanwhile are counted
// when it ends (the answer for older marks is dropped), and a busy server is asked again.
let counting = false;
let stale = false;

async function countExactly() {
  if (counting) {
    stale = true;
    return;
  }
  counting = true;
  try {
    while (state.exact) {
      stale = false;
      setStatus(() => t("lab.exact.busy"));
      let answer = null;
      let failure = null;
      try {
        answer = await api("/api/battleship/exact", { method: "POST", body: request() });
      } catch (error) {
        if (error.status === 409) {
          await new Promise((resolve) => setTimeout(resolve, 500));
          continue;
        }
        failure = error;
      }
      if (stale || !state.exact) continue;
      if (failure) {
        result = null;
        setStatus(() => failure.message, "error");
      } else {
        result = { ...answer, exact: true };
        setStatus(() => "");
      }
      render();
      return;
    }
  } finally {
    counting = false;
  }
}

// The Expert's next shot at the marks: up to a second of every core on the server, so only
// when asked. A busy server is asked again; an answer for marks changed meanwhile is dropped.
async function askExpert() {
  const body = request();
  const marks = JSON.stringify(body);
  const current = () => JSON.stringify(request()) === marks;
  const button = document.getElementById("ask-expert");
  const focusBack = focusBackTo(button);
  button.disabled = true; // one question at a time
  setStatus(() => t("lab.expert.busy"));
  try {
    const answer = await apiWhenFree("/api/battleship/hint", { method: "POST", body }, current);
    if (!answer) return;
    advice = { marks, answer };
    setStatus(() => "");
  } catch (error) {
    advice = null;
    setStatus(() => error.message, "error");
  } finally {
    button.disabled = false;
    focusBack();
  }
  render();
}

// The Expert's answer while the marks are those it was given.
function expertAnswer() {
  return advice && advice.marks === JSON.stringify(request()) ? advice.answer : null;
}

function renderExpert() {
  const answer = expertAnswer();
  const box = document.getElementById("expert");
  box.hidden = !answer;
  for (const item of document.querySelectorAll(".expert-legend")) item.hidden = !answer;
  if (!answer) return;
  const number = (x, digits) =>
    x.toLocaleString(language(), { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const fleets = answer.weighed.length ? number(answer.weighed[0].fleets, 0) : "";
  document.getElementById("expert-answer").textContent = t("lab.expert.answer", {
    cell: answer.cell,
  });
  document.getElementById("expert-how").textContent = t(`lab.expert.how.${answer.how}`, { fleets });
  const table = document.getElementById("expert-cells");
  table.hidden = !answer.weighed.length;
  const body = table.querySelector("tbody");
  body.innerHTML = "";
  for (const cell of answer.weighed) {
    const row = document.createElement("tr");
    const sign = cell.behind < 0 ? "−" : "+"; // (below 0 only where a race dropped the cell early)
    // (every layout played out: the means are exact, with no sampling error to give)
    const error = answer.how === "endgame" ? "" : ` ± ${number(cell.stderr, 3)}`;
    const behind = cell.cell === answer.cell ? "—" : `${sign}${number(Math.abs(cell.behind), 3)}${error}`;
    for (const text of [cell.cell, number(cell.shots, 3), behind]) {
      const item = document.createElement("td");
      item.textContent = text;
      row.append(item);
    }
    row.setAttribute("aria-label", t("lab.expert.cell.label", { cell: cell.cell, shots: number(cell.shots, 2) }));
    body.append(row);
  }
}

function shipName(ship) {
  const [base, number] = ship.name.split(" ");
  const name = t(`lab.ship.${base}`);
  return number ? `${name} ${number}` : name;
}

function listNames(names) {
  return new Intl.ListFormat(language(), { type: "conjunction" }).format(names);
}

// d written in base w, the way the seed reads it: 442 = 12 · 35 + 22.
function inBaseW(d, w) {
  let rest = BigInt(d);
  const base = BigInt(w);
  if (rest < base) return "";
  const digits = [];
  while (rest > 0n) {
    digits.push(rest % base);
    rest /= base;
  }
  const power = (k) => (k === 1 ? `${w}` : w + [...String(k)].map((c) => SUPERSCRIPT[c]).join(""));
  const terms = [];
  for (let k = digits.length - 1; k >= 0; k--) {
    if (digits[k] === 0n) continue;
    if (k === 0) terms.push(`${digits[k]}`);
    else terms.push(digits[k] === 1n ? power(k) : `${digits[k]} · ${power(k)}`);
  }
  return ` = ${terms.join(" + ")}`;
}

function percent(share) {
  return new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: 2 }).format(
    share,
  );
}

function grouped(digits) {
  return BigInt(digits).toLocaleString(language());
}

function describeCell(name) {
  const mark = markOf(name);
  if (mark) return `${name} · ${t(`lab.mark.${mark}`)}`;
  if (result && result.exact) {
    const count = result.counts[name];
    if (count === undefined) return `${name} · —`;
    const share = percent(result.probability[name]);
    return t("lab.exact.cell", { cell: name, count: grouped(count), share });
  }
  const d = result && result.density[name];
  if (d === undefined || d === null) return `${name} · d = —`;
  return `${name} · d = ${d}${inBaseW(d, result.w)}`;
}

function renderCells() {
  const best = new Set(result ? result.best : []);
  const expert = expertAnswer();
  const sunkIndex = {};
  state.sunk.forEach((group, i) => group.forEach((name) => (sunkIndex[name] = i)));
  for (const cell of cells) {
    const name = cell.dataset.cell;
    const mark = markOf(name);
    cell.className = "cell";
    cell.style.removeProperty("--heat");
    if (mark) cell.classList.add(mark);
    if (mark === "sunk" && sunkIndex[name] % 2 === 1) cell.classList.add("alt");
    cell.textContent = MARK_SYMBOLS[mark] || "";
    if (!mark && result) {
      const heat = result.heat[name] ?? 0;
      cell.classList.add("heat");
      cell.style.setProperty("--heat", heat);
      if (heat > 0.6) cell.classList.add("hot");
    }
    if (best.has(name)) cell.classList.add("best");
    if (expert && expert.cell === name) cell.classList.add("expert");
    cell.setAttribute("aria-label", describeCell(name));
  }
}

function renderFigures() {
  const best = document.getElementById("best");
  const exact = result && result.exact;
  best.previousElementSibling.textContent = t(exact ? "lab.exact.best" : "lab.best");
  document.getElementById("weight-label").textContent = t(exact ? "lab.exact.total" : "lab.weight");
  document.getElementById("best-legend").textContent = t(exact ? "lab.exact.legend" : "lab.best.legend");
  if (!result) best.textContent = "—";
  else if (!result.best.length) best.textContent = t("lab.best.none");
  else if (exact) {
    best.textContent = `${listNames(result.best)} · ${percent(result.probability[result.best[0]])}`;
  } else best.textContent = `${listNames(result.best)} · d = ${result.best_d}`;
  document.getElementById("focus").textContent = describeCell(focused);
  const weight = document.getElementById("weight");
  if (exact) weight.textContent = grouped(result.total);
  else weight.textContent = result ? `w = ${result.w}` : "w = —";
  exactBox.checked = state.exact;
}

function renderShips() {
  const list = document.getElementById("ships");
  const entries = fleetStatus();
  const afloat = entries.filter((entry) => entry.state === "afloat").length;
  document.getElementById("ships-heading").textContent = t("lab.ships", {
    n: afloat,
    total: entries.length,
  });
  // The list is drawn anew: a ship's button that had the focus hands it to its successor.
  const focusedShip = list.contains(document.activeElement) ? document.activeElement.dataset.ship : null;
  list.innerHTML = "";
  entries.forEach((entry, i) => {
    const item = document.createElement("li");
    item.className = entry.state === "afloat" ? "" : "gone";
    const name = document.createElement("span");
    name.className = "ship-name";
    name.textContent = shipName(entry.ship);
    const size = document.createElement("span");
    size.className = "muted";
    const length = entry.ship.length;
    size.textContent = length === 1 ? t("lab.cells.one") : t("lab.cells", { n: length });
    item.append(name, size);
    if (entry.state === "board") {
      const where = document.createElement("span");
      where.className = "muted";
      const group = entry.group;
      const span = group.length > 1 ? `${group[0]}–${group[group.length - 1]}` : group[0];
      where.textContent = t(group.length > 1 ? "lab.on.board" : "lab.on.cell", { cells: span });
      item.append(where);
    } else {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.ship = String(i);
      const afloatNow = entry.state === "afloat";
      button.textContent = t(afloatNow ? "lab.remove" : "lab.restore");
      button.setAttribute(
        "aria-label",
        t(afloatNow ? "lab.remove.label" : "lab.restore.label", { ship: shipName(entry.ship) }),
      );
      button.addEventListener("click", () => {
        state.removed = afloatNow
          ? [...state.removed, i].sort((a, b) => a - b)
          : state.removed.filter((index) => index !== i);
        update();
      });
      if (!afloatNow) {
        const note = document.createElement("span");
        note.className = "muted";
        note.textContent = t("lab.removed");
        item.append(note);
      }
      item.append(button);
    }
    list.append(item);
  });
  if (focusedShip) list.querySelector(`button[data-ship="${focusedShip}"]`)?.focus();
}

function render() {
  renderCells();
  renderFigures();
  renderShips();
  renderExpert();
}

function buildBoard() {
  const { rows, cols } = rules();
  cells = makeGrid(board, { rows, cols, label: "lab.board", onCell: mark });
  for (const cell of cells) {
    cell.addEventListener("focus", () => {
      focused = cell.dataset.cell;
      renderFigures();
    });
  }
}

function chooseTool(name) {
  tool = name;
  for (const button of document.querySelectorAll("[data-tool]")) {
    button.setAttribute("aria-pressed", String(button.dataset.tool === name));
  }
}

async function start() {
  document.addEventListener("languagechange", () => {
    if (shown) say(status, shown.text(), shown.kind);
  });
  renderChrome();
  for (const button of document.querySelectorAll("[data-tool]")) {
    button.addEventListener("click", () => chooseTool(button.dataset.tool));
    button.disabled = false; // (disabled in the page until now, so that no tap is lost)
  }
  try {
    presets = await api("/api/battleship/lab/rules");
  } catch (error) {
    setStatus(() => error.message, "error");
    return;
  }
  rulesPicker.value = state.rules;
  describeRules(rulesPicker);
  rulesPicker.addEventListener("change", () => {
    state = { ...state, rules: rulesPicker.value, removed: [] };
    buildBoard();
    update();
  });
  exactBox.addEventListener("change", () => {
    state = { ...state, exact: exactBox.checked };
    update();
  });
  const askButton = document.getElementById("ask-expert");
  askButton.addEventListener("click", askExpert);
  // They stay disabled until their listeners are in place, so an early choice is not lost.
  rulesPicker.disabled = false;
  exactBox.disabled = false;
  askButton.disabled = false;
  const reset = document.getElementById("reset");
  reset.addEventListener("click", () => {
    state = emptyBoard(state.rules, state.exact);
    update();
  });
  reset.disabled = false;
  document.addEventListener("languagechange", () => {
    board.setAttribute("aria-label", t("lab.board"));
    render();
  });
  buildBoard();
  update();
}

start();
