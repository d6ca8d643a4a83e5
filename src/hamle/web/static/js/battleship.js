// Amiral Battı against the computer: place a fleet (drag, rotate, keyboard or random),
// then fire at the enemy's waters while the computer fires at yours.

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
  shortcutsOn,
  SlowError,
  t,
} from "./common.js";

addTexts({
  en: {
    "bs.setup.title": "Place your fleet",
    "bs.setup.help":
      "Drag a ship by its squares onto the board (or pick it in the list and click a cell); R or the rotate button turns it. Keyboard: choose a ship, arrow keys to a cell, Enter to place.",
    "bs.setup.help.nokeys":
      "Drag a ship by its squares onto the board (or pick it in the list and click a cell); the rotate button turns it. Keyboard: choose a ship, arrow keys to a cell, Enter to place.",
    "bs.setup.help.touch":
      "Drag a ship by its squares onto the board (or pick it in the list and tap a cell); the rotate button turns it.",
    "bs.rules": "Rules",
    "bs.level": "Level",
    "bs.level.easy": "Easy",
    "bs.level.normal": "Normal",
    "bs.level.hard": "Hard",
    "bs.level.expert": "Expert",
    "bs.level.info.easy": "Easy fires at random cells.",
    "bs.level.info.normal":
      "Normal hunts only on cells every ship afloat must cross (one diagonal in m, m the shortest ship's length: a checkerboard for 2, every cell while a 1-cell ship is afloat), then sinks what it hits.",
    "bs.level.info.hard": "Hard fires where the most ship placements fit — and you can watch its heat map.",
    "bs.level.info.expert":
      "Expert plays its best few shots out to the end over thousands of fleets that fit what it has seen, and fires where the game ends soonest.",
    "bs.ships": "Ships",
    "bs.rotate": "Rotate (R): {dir}",
    "bs.rotate.nokeys": "Rotate: {dir}",
    "bs.horizontal": "horizontal",
    "bs.vertical": "vertical",
    "bs.random": "Random fleet",
    "bs.clear": "Clear",
    "bs.start": "Start",
    "bs.placed": "placed",
    "bs.unplaced": "not placed",
    "bs.place.pick": "Choose a ship first.",
    "bs.place.next": "{ship} is chosen: click the cell of your board where it starts.",
    "bs.place.off": "{ship} does not fit there: it would leave the board.",
    "bs.place.clash": "{ship} would overlap or touch another ship there.",
    "bs.place.done": "{ship} placed at {from}–{to}.",
    "bs.place.ready": "Your fleet is ready. Choose a level and press Start.",
    "bs.place.rotated": "{ship} now lies {dir}.",
    "bs.place.random": "A random fleet is placed; move ships or press Start.",
    "bs.ship.carrier": "Carrier",
    "bs.ship.battleship": "Battleship",
    "bs.ship.cruiser": "Cruiser",
    "bs.ship.submarine": "Submarine",
    "bs.ship.destroyer": "Destroyer",
    "bs.ship.boat": "Boat",
    "bs.enemy": "Enemy waters",
    "bs.own": "Your fleet",
    "bs.enemy.fleet": "The computer's fleet",
    "bs.afloat": "Ships afloat: {n} of {total}",
    "bs.turn": "Turn {n}",
    "bs.yourshots": "Your shots: {n}",
    "bs.theirshots": "Computer's shots: {n}",
    "bs.against": "Level: {level}",
    "bs.mark.unknown": "not fired at",
    "bs.mark.miss": "miss",
    "bs.mark.hit": "hit",
    "bs.mark.sunk": "sunk",
    "bs.mark.water": "water",
    "bs.mark.ship": "your ship",
    "bs.mark.revealed": "enemy ship",
    "bs.answer.miss": "miss",
    "bs.answer.hit": "hit",
    "bs.answer.sunk": "sunk — {ship}!",
    "bs.you.fired": "You fired at {cell}: {answer}",
    "bs.they.fired": "The computer fired at {cell}: {answer}",
    "bs.your.turn": "Your turn: fire at a cell of the enemy's waters.",
    "bs.already": "You have already fired at {cell}.",
    "bs.wait": "Your shot at {cell} is still waiting for its answer; fire again once it comes.",
    "bs.late": "Your shot at {cell} was played after all: {answer}",
    "bs.water": "{cell} touches a sunk ship, so it is water: fire elsewhere.",
    "bs.won": "You won in {n} shots! The computer's fleet is shown below.",
    "bs.lost": "The computer sank your whole fleet in {n} shots.",
    "bs.over": "The game is over. Start a new game to play again.",
    "bs.heat": "Heat map",
    "bs.heat.info": "The computer's best cells: {cells} (d = {d}); w = {w}.",
    "bs.heat.none": "No cell left to fire at.",
    "bs.heat.more": "{cells} and {more} more",
    "bs.heat.cell": "d = {d}",
    "bs.heat.pick": "Choose a cell of your board to read its d.",
    "bs.heat.picked": "{cell}: d = {d}",
    "bs.new": "New game",
    "bs.expert.ask": "Where would the Expert fire?",
    "bs.expert.busy": "The Expert is playing your game out from its best cells…",
    "bs.expert.cell": "The Expert would fire at {cell}.",
    "bs.resumed": "Game resumed.",
    "bs.gone":
      "The saved game could not be loaded ({error}); reload the page to try again, or place a fleet to start a new one.",
    "bs.missing": "The saved game was not found; place a fleet to start a new one.",
  },
  tr: {
    "bs.setup.title": "Filonu yerleştir",
    "bs.setup.help":
      "Bir gemiyi karelerinden tutup tahtaya sürükle (ya da listeden seçip bir kareye tıkla); R tuşu ya da döndür düğmesi çevirir. Klavye: bir gemi seç, ok tuşlarıyla kareye git, Enter ile yerleştir.",
    "bs.setup.help.nokeys":
      "Bir gemiyi karelerinden tutup tahtaya sürükle (ya da listeden seçip bir kareye tıkla); döndür düğmesi çevirir. Klavye: bir gemi seç, ok tuşlarıyla kareye git, Enter ile yerleştir.",
    "bs.setup.help.touch":
      "Bir gemiyi karelerinden tutup tahtaya sürükle (ya da listeden seçip bir kareye dokun); döndür düğmesi çevirir.",
    "bs.rules": "Kurallar",
    "bs.level": "Seviye",
    "bs.level.easy": "Kolay",
    "bs.level.normal": "Orta",
    "bs.level.hard": "Zor",
    "bs.level.expert": "Uzman",
    "bs.level.info.easy": "Kolay seviye rastgele karelere atış yapar.",
    "bs.level.info.normal":
      "Orta seviye yalnızca yüzen her geminin geçmek zorunda olduğu karelerde avlanır (m en kısa geminin boyu olmak üzere m köşegenden biri: 2 için dama deseni, 1 karelik bir gemi yüzerken her kare), sonra vurduğunu batırır.",
    "bs.level.info.hard": "Zor seviye, en çok gemi yerleşiminin sığdığı yere atar — ısı haritasını da izleyebilirsin.",
    "bs.level.info.expert":
      "Uzman seviye, en iyi birkaç atışını, gördüklerine uyan binlerce filo üzerinde sonuna kadar oynar ve oyunun en erken bittiği yere atar.",
    "bs.ships": "Gemiler",
    "bs.rotate": "Döndür (R): {dir}",
    "bs.rotate.nokeys": "Döndür: {dir}",
    "bs.horizontal": "yatay",
    "bs.vertical": "dikey",
    "bs.random": "Rastgele filo",
    "bs.clear": "Temizle",
    "bs.start": "Başla",
    "bs.placed": "yerleşti",
    "bs.unplaced": "yerleşmedi",
    "bs.place.pick": "Önce bir gemi seç.",
    "bs.place.next": "{ship} seçili: tahtanda başlayacağı kareye tıkla.",
    "bs.place.off": "{ship} oraya sığmıyor: tahtanın dışına taşar.",
    "bs.place.clash": "{ship} orada başka bir gemiyle çakışır ya da ona değer.",
    "bs.place.done": "{ship} {from}–{to} arasına yerleşti.",
    "bs.place.ready": "Filon hazır. Bir seviye seç ve Başla'ya bas.",
    "bs.place.rotated": "{ship} artık {dir} duruyor.",
    "bs.place.random": "Rastgele bir filo yerleşti; gemileri taşıyabilir ya da Başla'ya basabilirsin.",
    "bs.ship.carrier": "Uçak gemisi",
    "bs.ship.battleship": "Zırhlı",
    "bs.ship.cruiser": "Kruvazör",
    "bs.ship.submarine": "Denizaltı",
    "bs.ship.destroyer": "Muhrip",
    "bs.ship.boat": "Bot",
    "bs.enemy": "Düşman suları",
    "bs.own": "Senin filon",
    "bs.enemy.fleet": "Bilgisayarın filosu",
    "bs.afloat": "Yüzen gemiler: {n} / {total}",
    "bs.turn": "{n}. el",
    "bs.yourshots": "Senin atışların: {n}",
    "bs.theirshots": "Bilgisayarın atışları: {n}",
    "bs.against": "Seviye: {level}",
    "bs.mark.unknown": "atış yapılmadı",
    "bs.mark.miss": "ıska",
    "bs.mark.hit": "isabet",
    "bs.mark.sunk": "battı",
    "bs.mark.water": "su",
    "bs.mark.ship": "senin gemin",
    "bs.mark.revealed": "düşman gemisi",
    "bs.answer.miss": "ıska",
    "bs.answer.hit": "isabet",
    "bs.answer.sunk": "battı — {ship}!",
    "bs.you.fired": "{cell} karesine ateş ettin: {answer}",
    "bs.they.fired": "Bilgisayar {cell} karesine ateş etti: {answer}",
    "bs.your.turn": "Sıra sende: düşman sularında bir kareye atış yap.",
    "bs.already": "{cell} karesine zaten atış yaptın.",
    "bs.wait": "{cell} karesine yaptığın atış hâlâ yanıt bekliyor; yanıt gelince yeniden ateş et.",
    "bs.late": "{cell} karesine yaptığın atış yine de yapılmış: {answer}",
    "bs.water": "{cell} batmış bir gemiye değiyor, yani su: başka yere at.",
    "bs.won": "{n} atışta kazandın! Bilgisayarın filosu aşağıda.",
    "bs.lost": "Bilgisayar bütün filonu {n} atışta batırdı.",
    "bs.over": "Oyun bitti. Yeniden oynamak için yeni bir oyun başlat.",
    "bs.heat": "Isı haritası",
    "bs.heat.info": "Bilgisayarın en iyi kareleri: {cells} (d = {d}); w = {w}.",
    "bs.heat.none": "Atış yapılacak kare kalmadı.",
    "bs.heat.more": "{cells} ve {more} kare daha",
    "bs.heat.cell": "d = {d}",
    "bs.heat.pick": "d değerini görmek için kendi tahtandan bir kare seç.",
    "bs.heat.picked": "{cell}: d = {d}",
    "bs.new": "Yeni oyun",
    "bs.expert.ask": "Uzman nereye atardı?",
    "bs.expert.busy": "Uzman oyununu en iyi karelerinden sonuna kadar oynuyor…",
    "bs.expert.cell": "Uzman {cell} karesine atardı.",
    "bs.resumed": "Oyun kaldığı yerden sürüyor.",
    "bs.gone":
      "Kayıtlı oyun açılamadı ({error}); yeniden denemek için sayfayı yenile ya da yeni bir oyun için filonu yerleştir.",
    "bs.missing": "Kayıtlı oyun bulunamadı; yeni bir oyun için filonu yerleştir.",
  },
});

const GAME_KEY = "hamle.battleship.game";
// A fleet being placed is kept for the tab's session, one per rule set (".<rules>"), with
// the rule set last chosen, until the game starts or Clear is pressed.
const PLACING_KEY = "hamle.battleship.placing";
const RULES_KEY = "hamle.battleship.rules";
const SHIP_KEYS = {
  Carrier: "bs.ship.carrier",
  Battleship: "bs.ship.battleship",
  Cruiser: "bs.ship.cruiser",
  Submarine: "bs.ship.submarine",
  Destroyer: "bs.ship.destroyer",
  Boat: "bs.ship.boat",
};
const $ = (id) => document.getElementById(id);

let options = null; // /api/battleship/options
let rules = null; // the chosen rule set (name, rows, cols, touching, fleet)
let placeCells = [];
let enemyCells = [];
let ownCells = [];
let game = null; // the game view from the server
const HEAT_KEY = "hamle.battleship.heat";
const HEAT_LISTED = 6; // best cells named in the heat line; more are counted
let heatOn = localStorage.getItem(HEAT_KEY) === "on";
let heat = null;
// The cell of your board whose d is read out under it, a finger being unable to hover for the
// cell's title: {id, index} (the game's id).
let heatPick = null;
let firing = null; // the shot awaiting its answer: {id, index, cell}
let advice = null; // the Expert's cell for your shots so far: {id, turn, cell}
let status = null; // () => text, re-run when the language changes

// Placement: placed[i] is {start, vertical} or null; drag follows one pointer.
const setup = {
  placed: [],
  selected: 0,
  vertical: false,
  preview: null,
  drag: null,
  justDragged: false,
};

// A ship name in the current language ("Cruiser 2" keeps its number).
function shipName(name) {
  const match = /^(.*?)( \d+)?$/.exec(name);
  const key = SHIP_KEYS[match[1]];
  return key ? t(key) + (match[2] || "") : name;
}

function setStatus(render, kind = "info") {
  status = { render, kind };
  say($("status"), render(), kind);
}

function level() {
  return document.querySelector("input[name=level]:checked").value;
}

// ---- placement -------------------------------------------------------------------

function cellsAt(length, start, vertical) {
  if (start === null || start < 0) return null;
  const { rows, cols } = rules;
  const r = Math.floor(start / cols);
  const c = start % cols;
  if (vertical ? r + length > rows : c + length > cols) return null;
  return Array.from({ length }, (_, k) => start + k * (vertical ? cols : 1));
}

function shipCells(i) {
  const spot = setup.placed[i];
  return spot ? cellsAt(rules.fleet[i].length, spot.start, spot.vertical) : [];
}

// Cells ship i may not use: the other ships, and their surroundings when ships may not touch.
function blocked(i) {
  const out = new Set();
  const { rows, cols } = rules;
  setup.placed.forEach((spot, j) => {
    if (!spot || j === i) return;
    for (const cell of shipCells(j)) {
      out.add(cell);
      if (rules.touching) continue;
      const r = Math.floor(cell / cols);
      const c = cell % cols;
      for (let dr = -1; dr <= 1; dr++) {
        for (let dc = -1; dc <= 1; dc++) {
          if (r + dr >= 0 && r + dr < rows && c + dc >= 0 && c + dc < cols) {
            out.add((r + dr) * cols + c + dc);
          }
        }
      }
    }
  });
  return out;
}

function problem(i, cells) {
  if (!cells) return "bs.place.off";
  const taken = blocked(i);
  return cells.some((c) => taken.has(c)) ? "bs.place.clash" : null;
}

function place(i, start, vertical) {
  const cells = cellsAt(rules.fleet[i].length, start, vertical);
  const trouble = problem(i, cells);
  if (trouble) {
    setStatus(() => t(trouble, { ship: shipName(rules.fleet[i].name) }), "error");
    return false;
  }
  const moved = Boolean(setup.placed[i]);
  setup.placed[i] = { start, vertical };
  keepPlacement();
  const from = cellName(cells[0], rules.cols);
  const to = cellName(cells[cells.length - 1], rules.cols);
  if (setup.placed.every(Boolean)) {
    setStatus(() => t("bs.place.ready"), "good");
  } else {
    setStatus(() => t("bs.place.done", { ship: shipName(rules.fleet[i].name), from, to }));
    const next = setup.placed.findIndex((spot) => !spot);
    if (!moved) select(next, false); // a new ship placed: on to the next one
  }
  return true;
}

// What to do next while placing: place the chosen ship, or choose one.
function placeHint() {
  if (rules && setup.placed.every(Boolean)) return t("bs.place.ready");
  const ship = rules && rules.fleet[setup.selected];
  return ship ? t("bs.place.next", { ship: shipName(ship.name) }) : t("bs.place.pick");
}

function select(i, announce = true) {
  setup.selected = i;
  if (setup.placed[i]) setup.vertical = setup.placed[i].vertical;
  renderPlacement();
  if (announce) setStatus(() => shipName(rules.fleet[i].name));
}

function rotate() {
  const i = setup.selected;
  const vertical = !setup.vertical;
  const spot = setup.placed[i];
  if (spot && !place(i, spot.start, vertical)) return;
  setup.vertical = vertical;
  const dir = () => t(vertical ? "bs.vertical" : "bs.horizontal");
  setStatus(() => t("bs.place.rotated", { ship: shipName(rules.fleet[i].name), dir: dir() }));
  renderPlacement();
}

function onPlaceCell(index) {
  if (setup.justDragged) {
    setup.justDragged = false;
    return;
  }
  const owner = setup.placed.findIndex((spot, j) => spot && shipCells(j).includes(index));
  if (owner >= 0) {
    select(owner);
    return;
  }
  place(setup.selected, index, setup.vertical);
  renderPlacement();
}

function renderPlacement() {
  const owner = new Map();
  setup.placed.forEach((spot, j) => {
    for (const cell of shipCells(j)) owner.set(cell, j);
  });
  const preview = setup.preview;
  placeCells.forEach((cell, i) => {
    const j = owner.get(i);
    const label = [cell.dataset.cell];
    if (j !== undefined) label.push(shipName(rules.fleet[j].name));
    cell.className = "cell";
    cell.classList.toggle("ship", j !== undefined);
    cell.classList.toggle("selected", j !== undefined && j === setup.selected);
    if (preview && preview.cells.includes(i)) cell.classList.add(preview.ok ? "preview" : "bad");
    cell.setAttribute("aria-label", label.join(", "));
  });
  for (const button of $("ships").querySelectorAll("button")) {
    const i = Number(button.dataset.ship);
    const ship = rules.fleet[i];
    const done = Boolean(setup.placed[i]);
    button.setAttribute("aria-pressed", String(i === setup.selected));
    button.querySelector(".name").textContent = `${shipName(ship.name)} (${ship.length})`;
    button.querySelector(".name").classList.toggle("done", done);
    const state = t(done ? "bs.placed" : "bs.unplaced");
    button.setAttribute("aria-label", `${shipName(ship.name)}, ${ship.length}, ${state}`);
  }
  const dir = t(setup.vertical ? "bs.vertical" : "bs.horizontal");
  $("rotate").textContent = t("bs.rotate", { dir });
  $("start").disabled = !setup.placed.every(Boolean);
}

// ---- dragging (pointer events: mouse, pen and touch) -----------------------------------

function startDrag(event, ship, offset) {
  if (event.button > 0) return;
  setup.drag = { ship, offset, pointer: event.pointerId, moved: false, target: null };
}

function startDragOnBoard(event) {
  const cell = event.target.closest(".cell");
  if (!cell) return;
  const index = cellIndex(cell.dataset.cell, rules.cols);
  const ship = setup.placed.findIndex((spot, j) => spot && shipCells(j).includes(index));
  if (ship < 0) return;
  const spot = setup.placed[ship];
  const offset = spot.vertical
    ? Math.floor(index / rules.cols) - Math.floor(spot.start / rules.cols)
    : index - spot.start;
  startDrag(event, ship, offset);
}

function cellUnder(event) {
  const element = document.elementFromPoint(event.clientX, event.clientY);
  const cell = element && element.closest("#place-grid .cell");
  return cell ? cellIndex(cell.dataset.cell, rules.cols) : null;
}

function dragStart(cell, drag, vertical) {
  const { cols } = rules;
  const r = Math.floor(cell / cols) - (vertical ? drag.offset : 0);
  const c = (cell % cols) - (vertical ? 0 : drag.offset);
  return r < 0 || c < 0 ? null : r * cols + c;
}

function dragMove(event) {
  const drag = setup.drag;
  if (!drag || event.pointerId !== drag.pointer) return;
  const cell = cellUnder(event);
  if (cell === null) {
    drag.target = null; // released off the board: the ship stays where it was
    if (setup.preview) {
      setup.preview = null;
      renderPlacement();
    }
    return;
  }
  event.preventDefault();
  const vertical = setup.placed[drag.ship] ? setup.placed[drag.ship].vertical : setup.vertical;
  const start = dragStart(cell, drag, vertical);
  const cells = cellsAt(rules.fleet[drag.ship].length, start, vertical);
  const current = setup.placed[drag.ship];
  if (!drag.moved && current && current.start === start) return;
  drag.moved = true;
  drag.target = { start, vertical };
  setup.preview = { cells: cells || [], ok: !problem(drag.ship, cells) };
  if (setup.selected !== drag.ship) {
    setup.selected = drag.ship;
    setup.vertical = vertical;
  }
  renderPlacement();
}

function dragEnd(event) {
  const drag = setup.drag;
  if (!drag || event.pointerId !== drag.pointer) return;
  setup.drag = null;
  setup.preview = null;
  if (drag.moved) {
    setup.justDragged = true;
    setTimeout(() => (setup.justDragged = false), 0);
    if (drag.target) {
      setup.selected = drag.ship;
      place(drag.ship, drag.target.start, drag.target.vertical);
    }
  }
  renderPlacement();
}

// The browser took the pointer over (to scroll the page, say): the ship stays where it was.
function dragCancel(event) {
  const drag = setup.drag;
  if (!drag || event.pointerId !== drag.pointer) return;
  setup.drag = null;
  setup.preview = null;
  renderPlacement();
}

// ---- setup screen ----------------------------------------------------------------

// One button per ship: click (or Enter) selects it, dragging it drops it on the board.
function buildShipList() {
  const list = $("ships");
  list.innerHTML = "";
  rules.fleet.forEach((ship, i) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.ship = String(i);
    const squares = document.createElement("span");
    squares.className = "squares";
    squares.setAttribute("aria-hidden", "true");
    squares.textContent = "■".repeat(ship.length);
    const name = document.createElement("span");
    name.className = "name";
    button.append(squares, name);
    button.addEventListener("click", () => {
      if (!setup.justDragged) select(i);
      setup.justDragged = false;
    });
    button.addEventListener("pointerdown", (event) => startDrag(event, i, 0));
    item.append(button);
    list.append(item);
  });
}

function chooseRules(name, fleet = null) {
  rules = options.rules.find((r) => r.name === name) || options.rules[0];
  sessionStorage.setItem(RULES_KEY, rules.name);
  $("rules").value = rules.name;
  describeRules($("rules"));
  setup.placed = rules.fleet.map(() => null);
  setup.selected = 0;
  setup.vertical = false;
  placeCells = makeGrid($("place-grid"), {
    rows: rules.rows,
    cols: rules.cols,
    label: "bs.setup.title",
    onCell: onPlaceCell,
  });
  buildShipList();
  if (fleet) usePlacement(fleet);
  else usePlacementKept();
  renderPlacement();
}

function usePlacement(fleet) {
  setup.placed = fleet.map((ship) => {
    const cells = ship.cells.map((c) => cellIndex(c, rules.cols));
    return { start: cells[0], vertical: cells.length > 1 && cells[1] - cells[0] === rules.cols };
  });
  keepPlacement();
}

function placingKey() {
  return `${PLACING_KEY}.${rules.name}`;
}

function keepPlacement() {
  const spots = setup.placed.map(
    (spot) => spot && { start: cellName(spot.start, rules.cols), vertical: spot.vertical },
  );
  if (spots.some(Boolean)) sessionStorage.setItem(placingKey(), JSON.stringify(spots));
  else sessionStorage.removeItem(placingKey());
}

// The placement kept for the rule set, ship by ship as place() would take it; one that does
// not fit (another fleet, a cell off the board, ships that overlap or touch) is dropped whole.
function usePlacementKept() {
  const kept = sessionStorage.getItem(placingKey());
  if (kept === null) return;
  try {
    const spots = JSON.parse(kept);
    const fleetFits = Array.isArray(spots) && spots.length === rules.fleet.length;
    if (!fleetFits) throw new Error("another fleet");
    spots.forEach((spot, i) => {
      if (spot === null) return;
      const start = cellIndex(String(spot.start), rules.cols);
      const vertical = spot.vertical === true;
      const onBoard = start < rules.rows * rules.cols && cellName(start, rules.cols) === spot.start;
      const cells = onBoard ? cellsAt(rules.fleet[i].length, start, vertical) : null;
      if (problem(i, cells)) throw new Error("does not fit");
      setup.placed[i] = { start, vertical };
    });
  } catch {
    setup.placed = rules.fleet.map(() => null);
    sessionStorage.removeItem(placingKey());
    return;
  }
  setup.selected = Math.max(0, setup.placed.findIndex((spot) => !spot));
  setup.vertical = setup.placed[setup.selected]?.vertical ?? false;
}

async function randomFleet() {
  const asked = rules;
  try {
    const data = await api(`/api/battleship/fleet?rules=${encodeURIComponent(rules.name)}`);
    if (rules !== asked || game) return; // the rules changed, or a game began, meanwhile
    usePlacement(data.fleet);
    setup.selected = 0;
    setup.vertical = setup.placed[0].vertical;
    renderPlacement();
    setStatus(() => t("bs.place.random"), "good");
  } catch (error) {
    setStatus(() => error.message, "error");
  }
}

async function start() {
  const fleet = rules.fleet.map((_, i) => shipCells(i).map((c) => cellName(c, rules.cols)));
  $("start").disabled = true;
  try {
    game = await api("/api/battleship/games", {
      method: "POST",
      body: { rules: rules.name, level: level(), fleet },
    });
    remember(game.id, true);
    sessionStorage.removeItem(placingKey());
    heat = null;
    showPlay();
    $("enemy-grid").querySelector("[tabindex='0']")?.focus(); // (the setup had the focus)
    loadHeat();
    setStatus(() => t("bs.your.turn"));
  } catch (error) {
    setStatus(() => error.message, "error");
    $("start").disabled = false;
  }
}

function showSetup(fleet = null) {
  game = null;
  $("play").classList.add("hidden");
  $("setup").classList.remove("hidden");
  keepStatusInSight();
  chooseRules(rules ? rules.name : sessionStorage.getItem(RULES_KEY) || "classic", fleet);
  renderLevelInfo();
}

function renderLevelInfo() {
  $("level-info").textContent = t(`bs.level.info.${level()}`);
}

// ---- playing ---------------------------------------------------------------------

// While a game is played the status (the last shots' answers) sticks to the top of the
// screen, and the page keeps a cell it scrolls to (by keys) clear of it.
function keepStatusInSight() {
  const playing = !$("play").classList.contains("hidden");
  document.body.classList.toggle("playing", playing);
  const height = playing ? $("status").offsetHeight : 0;
  document.documentElement.style.scrollPaddingTop = height ? `${height}px` : "";
}

// A game started here is a new entry of the history, so Back after "New game" returns to it.
function remember(id, started = false) {
  localStorage.setItem(GAME_KEY, id);
  const url = new URL(location.href);
  url.searchParams.set("game", id);
  if (started) history.pushState(null, "", url);
  else history.replaceState(null, "", url);
}

function forget() {
  localStorage.removeItem(GAME_KEY);
  history.replaceState(null, "", location.pathname);
}

function showPlay() {
  rules = options.rules.find((r) => r.name === game.rules) || options.rules[0];
  $("setup").classList.add("hidden");
  $("play").classList.remove("hidden");
  keepStatusInSight();
  enemyCells = makeGrid($("enemy-grid"), {
    rows: game.rows,
    cols: game.cols,
    label: "bs.enemy",
    onCell: fire,
  });
  ownCells = makeGrid($("own-grid"), {
    rows: game.rows,
    cols: game.cols,
    label: "bs.own",
    onCell: pickHeatCell,
  });
  $("heat-toggle").classList.toggle("hidden", game.shooter !== "density");
  renderGame();
}

function answerText(shot) {
  return t(`bs.answer.${shot.answer}`, { ship: shot.ship ? shipName(shot.ship) : "" });
}

function paint(cell, mark, extra = []) {
  cell.className = "cell";
  if (mark !== "unknown") cell.classList.add(mark);
  for (const name of extra) cell.classList.add(name);
  cell.style.background = "";
  cell.removeAttribute("title");
  cell.textContent = MARK_SYMBOLS[mark] || "";
}

// The cells of the sunk ships in the second shade: ships that touch (side or corner) take
// different shades wherever two shades can do it, so that ships sunk side by side are told
// apart (shades spread from ship to touching ship, in the order they sank).
function alternateSunk(side) {
  const ships = side.sunk.map((ship) => ship.cells.map((c) => cellIndex(c, game.cols)));
  const near = (a, b) =>
    Math.abs(Math.floor(a / game.cols) - Math.floor(b / game.cols)) <= 1 &&
    Math.abs((a % game.cols) - (b % game.cols)) <= 1;
  const touch = (i, j) => i !== j && ships[i].some((a) => ships[j].some((b) => near(a, b)));
  const shade = ships.map(() => null);
  ships.forEach((_, first) => {
    if (shade[first] !== null) return;
    shade[first] = 0;
    const queue = [first];
    while (queue.length) {
      const i = queue.shift();
      ships.forEach((_, j) => {
        if (shade[j] === null && touch(i, j)) {
          shade[j] = 1 - shade[i];
          queue.push(j);
        }
      });
    }
  });
  return new Set(ships.flatMap((cells, i) => (shade[i] ? cells : [])));
}

function renderGame() {
  const cols = game.cols;
  const revealed = new Set();
  for (const ship of game.enemy_fleet || []) {
    for (const c of ship.cells) revealed.add(cellIndex(c, cols));
  }
  const enemyAlternate = alternateSunk(game.enemy);
  enemyCells.forEach((cell, i) => {
    const mark = game.enemy.marks[i];
    const shown = mark === "unknown" && revealed.has(i);
    paint(cell, mark, [shown && "revealed", enemyAlternate.has(i) && "alt"].filter(Boolean));
    const what = shown ? "bs.mark.revealed" : `bs.mark.${mark}`;
    cell.setAttribute("aria-label", `${cell.dataset.cell}, ${t(what)}`);
    if (expertCell() === cell.dataset.cell) cell.classList.add("expert");
    cell.setAttribute("aria-disabled", String(game.over || mark !== "unknown"));
  });
  const mine = new Set();
  for (const ship of game.fleet) for (const c of ship.cells) mine.add(cellIndex(c, cols));
  const ownAlternate = alternateSunk(game.own);
  ownCells.forEach((cell, i) => {
    const mark = game.own.marks[i];
    const ship = mark === "unknown" && mine.has(i);
    paint(cell, mark, [ship && "ship", ownAlternate.has(i) && "alt"].filter(Boolean));
    const what = t(ship ? "bs.mark.ship" : `bs.mark.${mark}`);
    cell.setAttribute("aria-label", `${cell.dataset.cell}, ${what}`);
  });
  renderPending();
  renderCounts();
  renderHeat();
  renderEnd();
  $("ask-expert").classList.toggle("hidden", game.over);
  const cell = expertCell();
  $("expert-info").textContent = cell ? t("bs.expert.cell", { cell }) : "";
}

// The Expert's cell while your shots are those it was asked about.
function expertCell() {
  return advice && game && advice.id === game.id && advice.turn === game.enemy.shots.length
    ? advice.cell
    : null;
}

// Where the Expert level's shooter would fire at the computer's waters as you see them
// (the lab's hint, from your misses, hits and sunk ships): asked again while the server's
// heavy slots are busy, dropped if you fire meanwhile.
async function askExpert() {
  if (!game || game.over) return;
  const id = game.id;
  const turn = game.enemy.shots.length;
  const marked = (mark) =>
    game.enemy.marks.flatMap((m, i) => (m === mark ? [cellName(i, game.cols)] : []));
  const body = {
    rules: game.rules,
    miss: marked("miss"),
    hit: marked("hit"),
    sunk: game.enemy.sunk.map((ship) => ship.cells),
  };
  const current = () => game && game.id === id && game.enemy.shots.length === turn;
  const button = $("ask-expert");
  const focusBack = focusBackTo(button);
  button.disabled = true;
  $("expert-info").textContent = t("bs.expert.busy");
  try {
    const answer = await apiWhenFree("/api/battleship/hint", { method: "POST", body }, current);
    if (answer) advice = { id, turn, cell: answer.cell };
  } catch (error) {
    setStatus(() => error.message, "error");
  } finally {
    button.disabled = false;
    focusBack();
    if (game) renderGame();
  }
}

function renderCounts() {
  const counts = $("counts");
  counts.innerHTML = "";
  const parts = [
    t("bs.against", { level: t(`bs.level.${game.level}`) }),
    t("bs.turn", { n: game.over ? game.turn : game.turn + 1 }),
    t("bs.yourshots", { n: game.enemy.shots.length }),
    t("bs.theirshots", { n: game.own.shots.length }),
  ];
  for (const text of parts) {
    const span = document.createElement("span");
    span.textContent = text;
    counts.append(span);
  }
  $("enemy-afloat").textContent = t("bs.afloat", { n: game.enemy.afloat, total: game.enemy.ships });
  $("own-afloat").textContent = t("bs.afloat", { n: game.own.afloat, total: game.own.ships });
}

function endText() {
  const n = game.winner === "you" ? game.enemy.shots.length : game.own.shots.length;
  return t(game.winner === "you" ? "bs.won" : "bs.lost", { n });
}

function renderEnd() {
  const end = $("end");
  end.classList.toggle("hidden", !game.over);
  if (!game.over) return;
  end.classList.toggle("lost", game.winner !== "you");
  $("end-message").textContent = endText();
  const list = $("enemy-fleet");
  list.innerHTML = "";
  for (const ship of game.enemy_fleet) {
    const item = document.createElement("li");
    const cells = ship.cells;
    const span = cells.length > 1 ? `${cells[0]}–${cells[cells.length - 1]}` : cells[0];
    item.textContent = `${shipName(ship.name)}: ${span}`;
    list.append(item);
  }
}

// Pale yellow for little d to deep orange for the greatest; squaring spreads the top.
function heatColour(h) {
  const x = h * h;
  return `hsl(${55 - 45 * x} 95% ${94 - 44 * x}%)`;
}

function renderHeat() {
  const button = $("heat-toggle");
  button.setAttribute("aria-pressed", String(heatOn));
  const info = $("heat-info");
  if (!heatOn || !heat || !game || game.shooter !== "density" || game.over) {
    info.textContent = ""; // (once the game is over, no shot is left to weigh)
    $("heat-cell").textContent = "";
    return;
  }
  const best = new Set(heat.best.map((c) => cellIndex(c, game.cols)));
  ownCells.forEach((cell, i) => {
    if (game.own.marks[i] !== "unknown") return;
    cell.classList.add("heat");
    cell.classList.toggle("best", best.has(i));
    cell.style.background = heatColour(heat.heat[i]);
    cell.title = t("bs.heat.cell", { d: heat.d[i] });
    cell.setAttribute("aria-label", `${cell.getAttribute("aria-label")}, ${cell.title}`);
  });
  const more = heat.best.length - HEAT_LISTED;
  const cells =
    more > 0
      ? t("bs.heat.more", { cells: heat.best.slice(0, HEAT_LISTED).join(", "), more })
      : new Intl.ListFormat(language(), { type: "conjunction" }).format(heat.best); // (as the lab)
  info.textContent = heat.best.length
    ? t("bs.heat.info", { cells, d: heat.best_d, w: heat.w })
    : t("bs.heat.none");
  renderHeatPick();
}

// The d of the cell chosen on your board, while it has not been fired at.
function renderHeatPick() {
  const index = heatPick?.id === game.id ? heatPick.index : null;
  const open = index !== null && game.own.marks[index] === "unknown";
  ownCells.forEach((cell, i) => cell.classList.toggle("current", open && i === index));
  $("heat-cell").textContent = open
    ? t("bs.heat.picked", { cell: cellName(index, game.cols), d: heat.d[index] })
    : t("bs.heat.pick");
}

function pickHeatCell(index) {
  if (!heatOn || !heat || !game || game.over || game.own.marks[index] !== "unknown") return;
  heatPick = { id: game.id, index };
  renderHeatPick();
}

async function loadHeat() {
  if (!heatOn || !game || game.shooter !== "density" || game.over) return;
  const { id, turn } = game;
  try {
    const answer = await api(`/api/battleship/games/${id}/heat`);
    if (game?.id !== id || game.turn !== turn) return; // (a later shot's map is on its way)
    heat = answer;
    renderGame();
  } catch (error) {
    setStatus(() => error.message, "error");
  }
}

async function toggleHeat() {
  heatOn = !heatOn;
  localStorage.setItem(HEAT_KEY, heatOn ? "on" : "off");
  if (!heatOn) {
    heat = null;
    renderGame();
    return;
  }
  await loadHeat();
}

async function fire(index) {
  if (!game) return;
  if (firing && firing.id === game.id) {
    setStatus(() => t("bs.wait", { cell: firing.cell }));
    return;
  }
  const cell = cellName(index, game.cols);
  if (game.over) {
    setStatus(() => t("bs.over"), "error");
    return;
  }
  const mark = game.enemy.marks[index];
  if (mark !== "unknown") {
    setStatus(() => t(mark === "water" ? "bs.water" : "bs.already", { cell }), "error");
    return;
  }
  const id = game.id;
  const shot = { id, index, cell };
  firing = shot;
  renderPending();
  let result;
  try {
    result = await api(`/api/battleship/games/${id}/shots`, { method: "POST", body: { cell } });
  } catch (error) {
    settle(shot);
    if (!game || game.id !== id) return; // a new game began meanwhile
    setStatus(() => error.message, "error");
    // Moved on elsewhere, or the shot given up on may have landed after all?
    if (error.status === 400 || error.status === 409 || error instanceof SlowError) {
      await refresh(id);
      const landed = game?.id === id && game.enemy.shots.find((s) => s.cell === cell);
      if (error instanceof SlowError && landed) {
        const ending = game.over ? ` · ${endText()}` : "";
        setStatus(() => t("bs.late", { cell, answer: answerText(landed) }) + ending);
      }
    }
    return;
  }
  settle(shot);
  if (!game || game.id !== id) return; // a new game began meanwhile
  game = result.game;
  renderGame();
  const you = result.you;
  const reply = result.computer;
  setStatus(() => {
    const lines = [t("bs.you.fired", { cell: you.cell, answer: answerText(you) })];
    if (reply) lines.push(t("bs.they.fired", { cell: reply.cell, answer: answerText(reply) }));
    if (game.over) lines.push(endText()); // (said where it is heard: the status is live)
    return lines.join(" · ");
  }, game.over ? (game.winner === "you" ? "good" : "error") : "info");
  if (game.over) $("end").scrollIntoView({ block: "nearest" });
  await loadHeat();
}

// The shot has its answer (or none will come): another may be fired.
function settle(shot) {
  if (firing === shot) firing = null;
  renderPending();
}

// The cell of the shot awaiting its answer, marked (kept through a redraw of the board).
function renderPending() {
  const waiting = firing && game && firing.id === game.id ? firing.index : -1;
  enemyCells.forEach((cell, i) => {
    cell.classList.toggle("pending", i === waiting);
    if (i === waiting) cell.setAttribute("aria-busy", "true");
    else cell.removeAttribute("aria-busy");
  });
}

// The game as the server has it now (another tab may have played on), if it is still shown.
async function refresh(id) {
  try {
    const latest = await api(`/api/battleship/games/${id}`);
    if (game && game.id === id) {
      game = latest;
      renderGame();
    }
  } catch {
    // the refusal already shown says enough
  }
}

function newGame() {
  const fleet = game ? game.fleet : null;
  localStorage.removeItem(GAME_KEY);
  history.pushState(null, "", location.pathname); // Back returns to the game left
  heat = null;
  showSetup(fleet);
  $("setup").querySelector("button, select, input")?.focus(); // (the game had the focus)
  setStatus(() => t("bs.place.ready"));
}

// ---- start-up --------------------------------------------------------------------

async function init() {
  renderChrome({ shortcuts: true });
  new ResizeObserver(keepStatusInSight).observe($("status"));
  try {
    options = await api("/api/battleship/options");
  } catch (error) {
    setStatus(() => error.message, "error");
    return;
  }
  const select = $("rules");
  for (const r of options.rules) {
    const option = document.createElement("option");
    option.value = r.name;
    option.dataset.i18n = `rules.${r.name}`;
    option.textContent = t(`rules.${r.name}`);
    select.append(option);
  }
  select.addEventListener("change", () => {
    chooseRules(select.value);
    setStatus(placeHint);
  });
  for (const radio of document.querySelectorAll("input[name=level]")) {
    radio.addEventListener("change", renderLevelInfo);
  }
  $("rotate").addEventListener("click", rotate);
  $("random-fleet").addEventListener("click", randomFleet);
  $("clear").addEventListener("click", () => {
    sessionStorage.removeItem(placingKey());
    chooseRules(rules.name);
    setStatus(placeHint);
  });
  $("start").addEventListener("click", start);
  $("new-game").addEventListener("click", newGame);
  $("heat-toggle").addEventListener("click", toggleHeat);
  $("ask-expert").addEventListener("click", askExpert);
  $("place-grid").addEventListener("pointerdown", startDragOnBoard);
  document.addEventListener("pointermove", dragMove);
  document.addEventListener("pointerup", dragEnd);
  document.addEventListener("pointercancel", dragCancel);
  document.addEventListener("keydown", (event) => {
    const typing = event.target.closest && event.target.closest("input, select, textarea");
    const placing = !$("setup").classList.contains("hidden");
    if ((event.key === "r" || event.key === "R") && !typing && placing && shortcutsOn()) {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      event.preventDefault();
      rotate();
    }
  });
  document.addEventListener("languagechange", () => {
    if (game) renderGame();
    else if (rules) renderPlacement();
    renderLevelInfo();
    if (status) say($("status"), status.render(), status.kind);
  });

  window.addEventListener("popstate", () => openFromAddress(false));
  await openFromAddress(true);
}

let opening = 0; // counts the pages opened from the address

// The game named in the address, else (on arriving) the one kept from the last visit, else
// the setup. Only a game the server does not have (or an id that cannot be one) is
// forgotten: a server down or failing keeps it for a reload to try again.
async function openFromAddress(arriving) {
  const named = new URLSearchParams(location.search).get("game");
  const id = named || (arriving ? localStorage.getItem(GAME_KEY) : null);
  const asked = ++opening; // (Back then Forward quickly: only the last one's answer counts)
  heat = null;
  if (id) {
    try {
      const view = await api(`/api/battleship/games/${encodeURIComponent(id)}`);
      if (asked !== opening) return;
      game = view;
      remember(game.id);
      showPlay();
      setStatus(() => t(game.over ? "bs.over" : "bs.resumed"));
      loadHeat();
      return;
    } catch (error) {
      if (asked !== opening) return;
      showSetup();
      const missing = error.status === 404 || error.status === 422; // (a malformed id)
      if (missing) forget();
      setStatus(() => (missing ? t("bs.missing") : t("bs.gone", { error: error.message })), "error");
      return;
    }
  }
  if (!arriving) localStorage.removeItem(GAME_KEY); // back to the setup: a reload stays there
  showSetup(game ? game.fleet : null);
  setStatus(placeHint);
}

init();
