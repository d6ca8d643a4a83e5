// Step through a numbered game shot by shot, with the hunt pattern on or off.

import {
  addTexts,
  api,
  apiWhenFree,
  cellIndex,
  describeRules,
  makeGrid,
  MARK_SYMBOLS,
  renderChrome,
  say,
  shortcutsOn,
  t,
} from "./common.js";

addTexts({
  en: {
    "rp.intro":
      "Game g has the same fleet for every strategy, so the same game can be compared with and without the hunt pattern (parity against hunt and target).",
    "rp.game": "Game",
    "rp.strategy": "Strategy",
    "rp.rules": "Rules",
    "rp.show": "Show",
    "rp.first": "First shot",
    "rp.back": "Previous shot",
    "rp.forward": "Next shot",
    "rp.last": "Last shot",
    "rp.slider": "Shot number",
    "rp.pattern": "Hunt pattern",
    "rp.shots": "Shots",
    "rp.keys": "Keys: ← → step (↑ ↓ too in the list of shots), Home and End jump to the first and last shot, P toggles the pattern.",
    "rp.keys.nokeys": "Keys: ← → step (↑ ↓ too in the list of shots), Home and End jump to the first and last shot.",
    "rp.summary": "Game {game}, {strategy}: {shots} shots ({hunt} hunt, {target} target).",
    "rp.start": "Before the first shot (0 of {total}).",
    "rp.counter": "Shot {n} of {total}: {cell} — {answer} ({mode}).",
    "rp.loading": "Playing the game…",
    "rp.loading.expert": "The Expert is playing the game: a few seconds, longer under Russian rules…",
    "rp.bad.game": "A game number is a whole number from 1 to {max}.",
    "rp.mode.hunt": "hunt",
    "rp.mode.target": "target",
    "rp.answer.miss": "miss",
    "rp.answer.hit": "hit",
    "rp.answer.sunk": "sunk: {ship}",
    "rp.mark.unknown": "not fired at",
    "rp.mark.pattern": "hunt pattern",
    "rp.mark.miss": "miss",
    "rp.mark.hit": "hit",
    "rp.mark.sunk": "sunk",
    "rp.mark.water": "water",
    "rp.mark.fleet": "ship",
    "strategy.random": "Random (Easy)",
    "strategy.hunt-target": "Hunt and target",
    "strategy.parity": "Parity (Normal)",
    "strategy.density": "Density (Hard)",
    "strategy.expert": "Expert",
    "rp.ship.Carrier": "Carrier",
    "rp.ship.Battleship": "Battleship",
    "rp.ship.Cruiser": "Cruiser",
    "rp.ship.Submarine": "Submarine",
    "rp.ship.Destroyer": "Destroyer",
    "rp.ship.Boat": "Boat",
  },
  tr: {
    "rp.intro":
      "g numaralı oyunda filo her strateji için aynıdır; böylece aynı oyun av deseniyle ve desensiz karşılaştırılabilir (parite ile av ve hedef).",
    "rp.game": "Oyun",
    "rp.strategy": "Strateji",
    "rp.rules": "Kurallar",
    "rp.show": "Göster",
    "rp.first": "İlk atış",
    "rp.back": "Önceki atış",
    "rp.forward": "Sonraki atış",
    "rp.last": "Son atış",
    "rp.slider": "Atış numarası",
    "rp.pattern": "Av deseni",
    "rp.shots": "Atışlar",
    "rp.keys": "Tuşlar: ← → adım (atış listesinde ↑ ↓ de), Home ve End ilk ve son atışa gider, P deseni açıp kapatır.",
    "rp.keys.nokeys": "Tuşlar: ← → adım (atış listesinde ↑ ↓ de), Home ve End ilk ve son atışa gider.",
    "rp.summary": "Oyun {game}, {strategy}: {shots} atış ({hunt} av, {target} hedef).",
    "rp.start": "İlk atıştan önce (0 / {total}).",
    "rp.counter": "Atış {n} / {total}: {cell} — {answer} ({mode}).",
    "rp.loading": "Oyun oynanıyor…",
    "rp.loading.expert": "Uzman oyunu oynuyor: birkaç saniye, Rus kurallarında daha uzun…",
    "rp.bad.game": "Oyun numarası 1 ile {max} arasında bir tam sayıdır.",
    "rp.mode.hunt": "av",
    "rp.mode.target": "hedef",
    "rp.answer.miss": "ıska",
    "rp.answer.hit": "isabet",
    "rp.answer.sunk": "battı: {ship}",
    "rp.mark.unknown": "atış yapılmadı",
    "rp.mark.pattern": "av deseni",
    "rp.mark.miss": "ıska",
    "rp.mark.hit": "isabet",
    "rp.mark.sunk": "battı",
    "rp.mark.water": "su",
    "rp.mark.fleet": "gemi",
    "strategy.random": "Rastgele (Kolay)",
    "strategy.hunt-target": "Av ve hedef",
    "strategy.parity": "Dama deseni (Orta)",
    "strategy.density": "Yoğunluk (Zor)",
    "strategy.expert": "Uzman",
    "rp.ship.Carrier": "Uçak gemisi",
    "rp.ship.Battleship": "Zırhlı",
    "rp.ship.Cruiser": "Kruvazör",
    "rp.ship.Submarine": "Denizaltı",
    "rp.ship.Destroyer": "Muhrip",
    "rp.ship.Boat": "Bot",
  },
});

const $ = (id) => document.getElementById(id);

let options = null;
let record = null; // the replay from the server, with frames
let asked = 0; // the latest Show: an answer to an earlier one is dropped
let cells = [];
let step = 0;
let pattern = false;
let message = null;

function setStatus(render, kind = "info") {
  message = { render, kind };
  say($("status"), render(), kind);
}

function render() {
  if (!record) return;
  const total = record.shots.length;
  const frame = record.frames[step];
  const fleet = new Set();
  for (const ship of Object.values(record.fleet)) {
    for (const c of ship) fleet.add(cellIndex(c, record.cols));
  }
  const current = step > 0 ? cellIndex(record.shots[step - 1].cell, record.cols) : -1;
  cells.forEach((cell, i) => {
    let mark = frame[i];
    if (mark === "pattern" && !pattern) mark = "unknown";
    cell.className = "cell";
    if (mark !== "unknown") cell.classList.add(mark);
    if (fleet.has(i) && (mark === "unknown" || mark === "pattern")) cell.classList.add("fleet");
    if (i === current) cell.classList.add("current");
    cell.textContent = MARK_SYMBOLS[mark] || "";
    const what = [t(`rp.mark.${mark}`)];
    if (fleet.has(i) && mark !== "sunk" && mark !== "hit") what.push(t("rp.mark.fleet"));
    cell.setAttribute("aria-label", `${cell.dataset.cell}, ${what.join(", ")}`);
  });
  $("slider").max = String(total);
  $("slider").value = String(step);
  const stepping = ["first", "back", "forward", "last"].map($).includes(document.activeElement);
  $("first").disabled = $("back").disabled = step === 0;
  $("forward").disabled = $("last").disabled = step === total;
  // A step button disabled at its end loses the focus to the page: the slider takes it.
  if (stepping && (document.activeElement.disabled || document.activeElement === document.body)) {
    $("slider").focus();
  }
  $("pattern").setAttribute("aria-pressed", String(pattern));
  $("counter").textContent =
    step === 0 ? t("rp.start", { total }) : counterText(record.shots[step - 1], total);
  $("summary").textContent = t("rp.summary", {
    game: String(record.game), // (a number as typed: no thousands separator)
    strategy: strategyName(record.strategy),
    shots: record.shots_fired,
    hunt: record.hunt,
    target: record.target,
  });
  renderShotList();
}

// A strategy in the current language, with its settings: "Expert (fleets=2000, …)".
function strategyName(name) {
  const [, base, settings] = /^([^(]*)(\(.*\))?$/.exec(name);
  return t(`strategy.${base}`) + (settings ? ` ${settings}` : "");
}

// A ship name in the current language ("Cruiser 2" keeps its number).
function shipName(name) {
  const [, base, number] = /^(.*?)( \d+)?$/.exec(name);
  const key = `rp.ship.${base}`;
  return t(key) === key ? name : t(key) + (number || "");
}

function answerText(shot) {
  return t(`rp.answer.${shot.answer}`, { ship: shot.ship ? shipName(shot.ship) : "" });
}

function counterText(shot, total) {
  return t("rp.counter", {
    n: shot.n,
    total,
    cell: shot.cell,
    answer: answerText(shot),
    mode: t(`rp.mode.${shot.mode}`),
  });
}

function renderShotList() {
  const list = $("shots");
  if (list.children.length !== record.shots.length) {
    list.innerHTML = "";
    for (const shot of record.shots) {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.addEventListener("click", () => go(shot.n));
      item.append(button);
      list.append(item);
    }
  }
  // One tab stop for the whole list, the current shot (the first before any): the arrows
  // move along it, as they step the game.
  const stop = Math.max(step, 1);
  const hadFocus = list.contains(document.activeElement);
  record.shots.forEach((shot, i) => {
    const button = list.children[i].firstChild;
    const mode = t(`rp.mode.${shot.mode}`);
    button.textContent = `${shot.n}. ${shot.cell} ${answerText(shot)} · ${mode}`;
    button.className = shot.answer;
    button.tabIndex = shot.n === stop ? 0 : -1;
    if (hadFocus && shot.n === stop) button.focus();
    if (shot.n === step) {
      button.setAttribute("aria-current", "step");
      reveal(list, button);
    } else {
      button.removeAttribute("aria-current");
    }
  });
}

// Scroll the list (not the page) so the current shot is in view.
function reveal(list, button) {
  const top = button.offsetTop;
  const bottom = top + button.offsetHeight;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
}

function go(n) {
  if (!record) return;
  step = Math.max(0, Math.min(record.shots.length, n));
  render();
}

function togglePattern() {
  pattern = !pattern;
  render();
}

function remember(game, strategy, rules) {
  const url = new URL(location.href);
  url.searchParams.set("game", game);
  url.searchParams.set("strategy", strategy);
  url.searchParams.set("rules", rules);
  history.replaceState(null, "", url);
}

async function show() {
  const mine = ++asked;
  const game = Number($("game").value);
  if (!Number.isInteger(game) || game < 1 || game > options.max_game) {
    setStatus(() => t("rp.bad.game", { max: options.max_game }), "error");
    return;
  }
  const strategy = $("strategy").value;
  const rules = $("rules").value;
  setStatus(() => t(strategy === "expert" ? "rp.loading.expert" : "rp.loading"));
  const query = new URLSearchParams({ game, strategy, rules, pattern: true });
  let answer;
  try {
    // (a busy server, 409, is asked again: the expert's games take seconds of its heavy slots)
    answer = await apiWhenFree(`/api/battleship/replay?${query}`, {}, () => mine === asked, 1000);
  } catch (error) {
    setStatus(() => error.message, "error");
    return;
  }
  if (!answer) return;
  record = answer;
  remember(game, strategy, rules);
  cells = makeGrid($("board"), { rows: record.rows, cols: record.cols, label: "rp.shots" });
  for (const cell of cells) cell.tabIndex = -1; // a picture, not a control: the keys step
  pattern = record.strategy === "parity";
  $("shots").innerHTML = "";
  $("viewer").classList.remove("hidden");
  setStatus(() => "");
  go(0);
}

function onKey(event) {
  if (!record || event.ctrlKey || event.metaKey || event.altKey) return;
  const inField = event.target.closest && event.target.closest("input, select, textarea");
  if (inField) return; // the slider, the number box and the menus keep their own keys
  const moves = {
    ArrowLeft: step - 1,
    ArrowRight: step + 1,
    Home: 0,
    End: record.shots.length,
  };
  if (event.target.closest && event.target.closest("#shots")) {
    Object.assign(moves, { ArrowUp: step - 1, ArrowDown: step + 1 }); // (down the list)
  }
  if (event.key in moves) {
    event.preventDefault();
    go(moves[event.key]);
  } else if ((event.key === "p" || event.key === "P") && shortcutsOn()) {
    event.preventDefault();
    togglePattern();
  }
}

async function init() {
  renderChrome({ shortcuts: true });
  try {
    options = await api("/api/battleship/options");
  } catch (error) {
    setStatus(() => error.message, "error");
    return;
  }
  const params = new URLSearchParams(location.search);
  const strategy = $("strategy");
  for (const name of options.strategies) {
    const option = new Option(t(`strategy.${name}`), name);
    option.dataset.i18n = `strategy.${name}`;
    strategy.append(option);
  }
  strategy.value = params.get("strategy") || "parity";
  if (!strategy.value) strategy.value = "parity";
  const rules = $("rules");
  for (const r of options.rules) {
    const option = new Option(t(`rules.${r.name}`), r.name);
    option.dataset.i18n = `rules.${r.name}`;
    rules.append(option);
  }
  rules.value = params.get("rules") || "classic";
  if (!rules.value) rules.value = options.rules[0].name;
  describeRules(rules);
  $("game").max = String(options.max_game);
  if (params.get("game")) $("game").value = params.get("game");
  $("form").addEventListener("submit", (event) => {
    event.preventDefault();
    show();
  });
  $("first").addEventListener("click", () => go(0));
  $("back").addEventListener("click", () => go(step - 1));
  $("forward").addEventListener("click", () => go(step + 1));
  $("last").addEventListener("click", () => go(record.shots.length));
  $("slider").addEventListener("input", () => go(Number($("slider").value)));
  $("pattern").addEventListener("click", togglePattern);
  document.addEventListener("keydown", onKey);
  document.addEventListener("languagechange", () => {
    render();
    if (message) say($("status"), message.render(), message.kind);
  });
  await show();
}

init();
