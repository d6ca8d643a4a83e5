// Yüz Yüze: the daily puzzle or free play on a 10 × 10 board, with hints, combo and undo.
// The server holds the game; this page shows its view and sends the player's choices.

import {
  addTexts,
  api,
  cellIndex,
  cellName,
  language,
  makeGrid,
  renderChrome,
  say,
  t,
} from "./common.js";

addTexts({
  en: {
    "tour.rules":
      "Write 1 on the start cell, then 2, 3, … each one jump away: 3 cells straight or 2 diagonally. Fill all 100 cells.",
    "tour.new": "New game",
    "tour.daily": "Today's puzzle",
    "tour.dailyInfo": "{date}, today in Turkey · starts at {start}",
    "tour.pick": "Free play: click a cell on the board to start there, or",
    "tour.pick.touch": "Free play: tap a cell on the board to start there, or",
    "tour.random": "Random start",
    "tour.board": "Yüz Yüze board",
    "tour.titleDaily": "Daily puzzle {date}",
    "tour.titleFree": "Free play from {start}",
    "tour.filled": "Filled",
    "tour.combo": "Combo",
    "tour.best": "best",
    "tour.hints": "Hints",
    "tour.undos": "Undos",
    "tour.hint": "Hint",
    "tour.undo": "Undo",
    "tour.newGame": "New game",
    "tour.legend": "Green cells marked ○ are your next jumps; the hint paints one yellow and marks it ★.",
    "tour.copy": "Copy",
    "tour.again": "Play again",
    "tour.chooseStart": "Choose today's puzzle or a start cell.",
    "tour.yourMove": "Jump to a green cell (○).",
    "tour.comboUp": "Combo {combo}! The engine would have played that too.",
    "tour.hintFull": "Try {cell}: a full board is still possible from there.",
    "tour.hintExact": "Try {cell}: from there the game can end with at most {value} cells filled.",
    "tour.hintValue": "Try {cell}: the engine's games from there end with {value} cells filled on average.",
    "tour.undone": "Move taken back.",
    "tour.complete": "Complete tour!",
    "tour.over": "Game over",
    "tour.endComplete": "Complete tour! You filled all 100 cells.",
    "tour.endOver": "Game over: no jump is left. You filled {score} of 100 cells.",
    "tour.result": "You filled {score} of 100 cells.",
    "tour.resultComplete": "You filled every cell.",
    "tour.copied": "Copied.",
    "tour.selected": "Selected: press Ctrl+C (or ⌘C) to copy.",
    "tour.selected.touch": "Selected: copy it from the menu your device shows for it.",
    "tour.cellNumber": "{cell}: {number}",
    "tour.cellCurrent": "{cell}: {number}, current cell",
    "tour.cellLegal": "{cell}: next jump",
    "tour.cellHint": "{cell}: hint",
    "tour.missing": "That game is not here any more; start a new one.",
    "tour.changedElsewhere": "This game changed in another tab: the board now shows it as it is there.",
  },
  tr: {
    "tour.rules":
      "Başlangıç karesine 1 yaz, sonra 2, 3, … her biri bir sıçrama ötede: düz 3 kare ya da çapraz 2 kare. 100 karenin hepsini doldur.",
    "tour.new": "Yeni oyun",
    "tour.daily": "Günün bulmacası",
    "tour.dailyInfo": "{date}, Türkiye'de bugün · {start} karesinden başlar",
    "tour.pick": "Serbest oyun: başlamak için tahtada bir kareye tıkla ya da",
    "tour.pick.touch": "Serbest oyun: başlamak için tahtada bir kareye dokun ya da",
    "tour.random": "Rastgele başla",
    "tour.board": "Yüz Yüze tahtası",
    "tour.titleDaily": "Günün bulmacası {date}",
    "tour.titleFree": "{start} karesinden serbest oyun",
    "tour.filled": "Doldurulan",
    "tour.combo": "Kombo",
    "tour.best": "en iyi",
    "tour.hints": "İpuçları",
    "tour.undos": "Geri alma",
    "tour.hint": "İpucu",
    "tour.undo": "Geri al",
    "tour.newGame": "Yeni oyun",
    "tour.legend": "○ işaretli yeşil karelere sıçrayabilirsin; ipucu birini sarıya boyar ve ★ ile işaretler.",
    "tour.copy": "Kopyala",
    "tour.again": "Yeniden oyna",
    "tour.chooseStart": "Günün bulmacasını ya da bir başlangıç karesi seç.",
    "tour.yourMove": "Yeşil bir kareye (○) sıçra.",
    "tour.comboUp": "Kombo {combo}! Motor da bu hamleyi yapardı.",
    "tour.hintFull": "{cell} karesini dene: oradan tahtanın tamamı hâlâ dolabilir.",
    "tour.hintExact": "{cell} karesini dene: oradan oyun en fazla {value} dolu kareyle bitebilir.",
    "tour.hintValue": "{cell} karesini dene: motorun oradan oynadığı oyunlar ortalama {value} dolu kareyle bitiyor.",
    "tour.undone": "Hamle geri alındı.",
    "tour.complete": "Tam tur!",
    "tour.over": "Oyun bitti",
    "tour.endComplete": "Tam tur! 100 karenin hepsini doldurdun.",
    "tour.endOver": "Oyun bitti: sıçrayacak kare kalmadı. 100 karenin {score} tanesini doldurdun.",
    "tour.result": "100 karenin {score} tanesini doldurdun.",
    "tour.resultComplete": "Bütün kareleri doldurdun.",
    "tour.copied": "Kopyalandı.",
    "tour.selected": "Seçildi: kopyalamak için Ctrl+C'ye (ya da ⌘C'ye) bas.",
    "tour.selected.touch": "Seçildi: cihazının gösterdiği menüden kopyala.",
    "tour.cellNumber": "{cell}: {number}",
    "tour.cellCurrent": "{cell}: {number}, bulunduğun kare",
    "tour.cellLegal": "{cell}: sıradaki sıçrama",
    "tour.cellHint": "{cell}: ipucu",
    "tour.missing": "Bu oyun artık yok; yeni bir oyun başlat.",
    "tour.changedElsewhere": "Bu oyun başka bir sekmede değişti: tahta şimdi oradaki hâlini gösteriyor.",
  },
});

const $ = (id) => document.getElementById(id);
const status = $("status");
let game = null; // the server's view of the game in progress, or null while choosing
let shown = null; // the status line: {text: () => string, kind}, re-run on a language switch
// What Copy did, said beside it (the status line may be scrolled out of sight on a phone):
// {id, key}, the game's id and a text key, until the summary is another game's or gone.
let copied = null;
let queue = Promise.resolve(); // requests run one after another, in the order asked
let pending = 0; // tasks queued or running

renderChrome();
const cells = makeGrid($("board"), {
  label: "tour.board",
  onCell: (index) => act(() => onCell(index)),
});

function setStatus(text, kind = "info") {
  shown = { text, kind };
  say(status, text(), kind);
}

function tell(key, vars = {}, kind = "info") {
  setStatus(() => t(key, vars), kind);
}

// Run one task at a time; a failure shows the server's text (in the language of the moment).
function run(task) {
  pending += 1;
  queue = queue
    .then(task)
    .catch((error) => setStatus(() => error.message, "error"))
    .finally(() => (pending -= 1));
  return queue;
}

// A player's action is dropped while a task is pending: the second click of a double click
// would otherwise play the same move (or undo, or start a game) twice.
function act(task) {
  if (pending === 0) run(task);
}

// POST to the current game: action is moves, undo or hint. After a refusal the game is
// loaded again, since the refusal may come from a move made elsewhere (another tab).
async function post(action, body) {
  const id = game.id;
  try {
    return await api(`/api/tour/games/${id}/${action}`, { method: "POST", body });
  } catch (error) {
    if (error.status !== 400 && error.status !== 409) throw error;
    const loaded = await refresh(id);
    // tour.changed names turns, which this page does not show: say what the player now sees.
    if (loaded && error.code === "tour.changed") throw new ChangedElsewhere();
    throw error;
  }
}

// The refusal of a request from a page another tab had left behind, once the page has
// caught up (its message in the language of the moment, as the server's errors).
class ChangedElsewhere extends Error {
  get message() {
    return t("tour.changedElsewhere");
  }
}

// Load the game again; whether it was loaded.
async function refresh(id) {
  try {
    game = await api(`/api/tour/games/${encodeURIComponent(id)}`);
    render();
    return true;
  } catch {
    return false; // (the refusal is shown either way)
  }
}

// A move, an undo and a hint name the current cell and the turn this page shows: if another
// tab has played on, the server refuses (409) rather than act on a position this page never
// showed.
async function onCell(index) {
  if (game) {
    if (game.over) return; // (no move is left: a tap would only be refused)
    if (cellName(index) === game.current) return; // the second click of a double click
    show(await post("moves", { cell: cellName(index), from: game.current, turn: game.turn }));
  } else {
    await start({ kind: "free", start: cellName(index) });
  }
}

async function start(request) {
  open(await api("/api/tour/games", { method: "POST", body: request }));
}

// A game opened by the player: the setup card goes away, so the focus goes to the board.
function open(view) {
  history.pushState(null, "", `?game=${encodeURIComponent(view.id)}`);
  show(view);
  focusCurrent();
}

function focusCurrent() {
  cells[cellIndex(game.current)].focus();
}

// The game in progress, kept across visits to other pages (as Battleship keeps its own),
// and the latest daily game with its date, resumed by "Today's puzzle" on the same day.
const GAME_KEY = "hamle.tour.game";
const DAILY_KEY = "hamle.tour.daily";

function show(view) {
  const before = game;
  game = view;
  localStorage.setItem(GAME_KEY, view.id);
  if (view.kind === "daily") {
    localStorage.setItem(DAILY_KEY, JSON.stringify({ date: view.date, id: view.id }));
  }
  render();
  if (view.over) {
    const { complete, score } = view.summary;
    tell(complete ? "tour.endComplete" : "tour.endOver", { score }, complete ? "good" : "info");
  } else if (before && view.count > before.count && view.combo.current > 0) {
    tell("tour.comboUp", { combo: view.combo.current }, "good");
  } else if (view.hint) {
    tellHint(view.hint); // (a reload, or another tab, shows the hint's words with its cell)
  } else {
    tell("tour.yourMove");
  }
}

function render() {
  $("setup").classList.toggle("hidden", game !== null);
  $("game").classList.toggle("hidden", game === null);
  $("board").setAttribute("aria-label", t("tour.board"));
  $("board").classList.toggle("picking", game === null);
  renderBoard();
  if (!game) return;
  $("game-title").textContent = game.kind === "daily"
    ? t("tour.titleDaily", { date: longDate(game.date) })
    : t("tour.titleFree", { start: game.start });
  $("count").textContent = game.count;
  $("combo").textContent = game.combo.current;
  $("best").textContent = game.combo.best;
  $("hints").textContent = game.hints;
  $("undos").textContent = game.undos;
  const focused = document.activeElement; // (a browser may drop the focus of a disabled button)
  $("hint").disabled = game.over;
  document.querySelector("#game .legend").classList.toggle("hidden", game.over); // (no jump left)
  $("undo").disabled = game.count === 1 || game.count === 100;  // nothing to take back
  renderSummary();
  // A button disabled under the focus (Undo back at the start, Hint at the end) would send
  // the next Tab to the top of the page: the focus goes to the board instead.
  if (focused && focused.disabled) focusCurrent();
}

function renderBoard() {
  const numbers = new Map((game ? game.moves : []).map((name, i) => [cellIndex(name), i + 1]));
  const legal = new Set((game ? game.legal : []).map((name) => cellIndex(name)));
  const hinted = game && game.hint && !game.over ? cellIndex(game.hint.cell) : -1;
  const current = game ? cellIndex(game.current) : -1;
  cells.forEach((cell, i) => {
    const number = numbers.get(i);
    cell.textContent = number ?? "";
    cell.classList.toggle("visited", number !== undefined);
    cell.classList.toggle("current", i === current);
    cell.classList.toggle("legal", legal.has(i));
    cell.classList.toggle("hint", i === hinted);
    const name = cellName(i);
    let label = name;
    if (i === current) label = t("tour.cellCurrent", { cell: name, number });
    else if (number !== undefined) label = t("tour.cellNumber", { cell: name, number });
    else if (i === hinted) label = t("tour.cellHint", { cell: name });
    else if (legal.has(i)) label = t("tour.cellLegal", { cell: name });
    cell.setAttribute("aria-label", label);
  });
}

function renderSummary() {
  const summary = game.summary;
  $("summary").classList.toggle("hidden", !summary);
  if (!summary) {
    copied = null; // (a game taken back from its end has its line copied afresh)
    return;
  }
  $("summary-title").textContent = t(summary.complete ? "tour.complete" : "tour.over");
  const result = summary.complete ? "tour.resultComplete" : "tour.result";
  $("summary-text").textContent = t(result, { score: summary.score });
  $("share").textContent = summary.share[language()] ?? summary.share.en;
  renderCopied();
}

async function askHint() {
  const answer = await post("hint", { mode: "hint", from: game.current, turn: game.turn });
  game.hint = { cell: answer.cell, mode: answer.mode, value: answer.value, exact: answer.exact };
  game.hints = answer.hints;
  render();
  tellHint(game.hint);
}

function tellHint({ cell, value, exact }) {
  if (exact) tell(value === 100 ? "tour.hintFull" : "tour.hintExact", { cell, value });
  else setStatus(() => t("tour.hintValue", { cell, value: decimal(value) }));
}

// One decimal, written as the language writes it: 87.3 in English, 87,3 in Turkish.
function decimal(value) {
  return value.toLocaleString(language() === "tr" ? "tr-TR" : "en-US", {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  });
}

async function undo() {
  show(await post("undo", { cell: game.current, turn: game.turn }));
  tell("tour.undone");
}

async function copyShare() {
  const line = $("share").textContent;
  try {
    await navigator.clipboard.writeText(line);
    copied = { id: game.id, key: "tour.copied" };
  } catch {
    const range = document.createRange();
    range.selectNodeContents($("share"));
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    copied = { id: game.id, key: "tour.selected" };
  }
  renderCopied(); // (not the share line: a new text would drop the selection)
}

function renderCopied() {
  $("copy-said").textContent = copied?.id === game.id ? t(copied.key) : "";
}

function newGame() {
  game = null;
  localStorage.removeItem(GAME_KEY);
  history.pushState(null, "", location.pathname);
  render();
  tell("tour.chooseStart");
  $("setup").focus(); // the game card it replaces had the focus
}

// The game named in the address (a reload continues it), else the one in progress when the
// page was left, else the choice of a new one.
async function load(event) {
  let id = new URLSearchParams(location.search).get("game");
  if (!id && !event) {
    id = localStorage.getItem(GAME_KEY);
    if (id) history.replaceState(null, "", `?game=${encodeURIComponent(id)}`);
  }
  game = null;
  render();
  if (!id) {
    localStorage.removeItem(GAME_KEY); // back or forward to the choice: a reload stays there
    return tell("tour.chooseStart");
  }
  try {
    show(await api(`/api/tour/games/${encodeURIComponent(id)}`));
  } catch (error) {
    if (error.status !== 404 && error.status !== 422) throw error;
    localStorage.removeItem(GAME_KEY);
    history.replaceState(null, "", location.pathname);
    tell("tour.missing", {}, "error");
  }
}

async function showDaily() {
  const puzzle = await api("/api/tour/daily");
  $("daily-info").dataset.date = puzzle.date;
  $("daily-info").dataset.start = puzzle.start;
  $("daily-info").textContent = t("tour.dailyInfo", { ...puzzle, date: longDate(puzzle.date) });
  return puzzle;
}

// A date (YYYY-MM-DD) as the page's language writes it: 7 December 2026, 7 Aralık 2026.
function longDate(date) {
  const day = new Date(`${date}T00:00:00Z`);
  const style = { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" };
  return day.toLocaleDateString(language() === "tr" ? "tr-TR" : "en-GB", style);
}

// Today's puzzle as of the click (a page left open past midnight in Turkey moves on to the
// new day's): today's game if there is one, in progress or finished (its result and line to
// share, with Play again beside them), else a new one under that date. Only a game the server
// does not have (or an id that cannot be one) counts as none: a server down or failing is
// shown, and today's game is kept for the next click.
async function startDaily() {
  const puzzle = await showDaily();
  const saved = savedDaily();
  if (saved && saved.date === puzzle.date) {
    const view = await api(`/api/tour/games/${encodeURIComponent(saved.id)}`).catch((error) => {
      if (error.status !== 404 && error.status !== 422) throw error;
      return null;
    });
    if (view) return open(view);
  }
  await start({ kind: "daily", date: puzzle.date });
}

// The same puzzle afresh, once a game of it is over: the daily puzzle of its date, or free
// play from its start cell.
async function playAgain() {
  const { kind, date, start: cell } = game;
  await start(kind === "daily" ? { kind, date } : { kind, start: cell });
}

function savedDaily() {
  try {
    return JSON.parse(localStorage.getItem(DAILY_KEY));
  } catch {
    return null;
  }
}

$("daily").addEventListener("click", () => act(startDaily));
$("random").addEventListener("click", () => act(() => start({ kind: "free" })));
$("daily").disabled = $("random").disabled = false; // (disabled in the page until now)
$("hint").addEventListener("click", () => act(askHint));
$("undo").addEventListener("click", () => act(undo));
$("new").addEventListener("click", () => act(newGame));
$("copy").addEventListener("click", () => run(copyShare));
$("again").addEventListener("click", () => act(playAgain));
window.addEventListener("popstate", (event) => run(() => load(event)));
document.addEventListener("languagechange", () => {
  render();
  const info = $("daily-info");
  if (info.dataset.date) {
    info.textContent = t("tour.dailyInfo", { ...info.dataset, date: longDate(info.dataset.date) });
  }
  if (shown) say(status, shown.text(), shown.kind);
});

run(() => load());
// The daily line loads beside the tasks, not as one: a player's first click (a move, New
// game) is not dropped while it is on its way.
showDaily().catch((error) => setStatus(() => error.message, "error"));
