// Mastermind: break the server's secret (with "suggest" and "candidates left"), or
// answer the computer's guesses for a code you keep in mind. The game id lives in the
// URL (?game=...), so a reload continues the game.

import {
  addTexts,
  api,
  focusBackTo,
  renderChrome,
  say,
  shortcutsOn,
  t,
} from "./common.js";

addTexts({
  en: {
    "mm.mode": "Mode",
    "mm.mode.breaker": "You break the code",
    "mm.mode.maker": "The computer breaks yours",
    "mm.mode.breaker.help":
      "The server hides a secret code; after each guess it answers with black (right colour, right place) and white (right colour, wrong place).",
    "mm.mode.maker.help":
      "Keep a code in mind; the computer guesses and you answer each guess with black and white.",
    "mm.variant": "Variant",
    "mm.strategy": "Strategy",
    "mm.new": "New game",
    "mm.pick": "Choose a mode, a variant and a strategy, then start a new game.",
    "mm.variant.classic": "Classic: 4 pegs, 6 colours",
    "mm.variant.4x8": "4 pegs, 8 colours",
    "mm.variant.super": "Super Mastermind: 5 pegs, 8 colours",
    "mm.variant.bulls-and-cows": "Bulls and Cows: 4 digits 0–9, no repeats",
    "mm.strategy.first-consistent": "First consistent code",
    "mm.strategy.random-consistent": "Random consistent code",
    "mm.strategy.minimax": "Minimax (Knuth)",
    "mm.strategy.minimax-candidates": "Minimax over the candidates",
    "mm.strategy.expected-size": "Expected size (Irving)",
    "mm.strategy.entropy": "Entropy",
    "mm.strategy.most-parts": "Most parts (Kooi)",
    "mm.strategy.optimal": "Optimal (fewest guesses on average)",
    "mm.not-offered.too-big":
      "The optimal strategy is not offered for this variant: its search is out of reach.",
    "mm.not-offered.not-solved":
      "The optimal strategy is offered here once its tree is solved on this server (a search of minutes).",
    "mm.maker-only": "The optimal strategy plays when the computer breaks your code.",
    "mm.slots": "Your guess",
    "mm.palette": "Colours",
    "mm.slot": "Peg {n}: {colour}",
    "mm.slot.empty": "Peg {n}: empty",
    "mm.colour": "colour {digit}",
    "mm.compose.title": "Guess #{n}",
    "mm.compose.help":
      "Pick a peg, then a colour; or type the digits. Backspace clears a peg.",
    "mm.compose.help.nokeys": "Pick a peg, then a colour. Backspace clears a peg.",
    "mm.compose.help.touch": "Pick a peg, then a colour.",
    "mm.submit": "Guess",
    "mm.clear": "Clear",
    "mm.suggest": "Suggest",
    "mm.candidates": "Candidates left",
    "mm.give.up": "Give up",
    "mm.fill": "Fill all {n} pegs first.",
    "mm.playing.breaker": "This game: {variant}; Suggest uses {strategy}.",
    "mm.playing.maker": "This game: {variant}; the computer plays {strategy}.",
    "mm.first": "Type or pick {n} colours, then press Guess (or Enter).",
    "mm.first.nokeys": "Pick {n} colours, then press Guess.",
    "mm.first.digits": "Type or pick {n} digits, then press Guess (or Enter).",
    "mm.first.digits.nokeys": "Pick {n} digits, then press Guess.",
    "mm.palette.digits": "Digits",
    "mm.colour.digits": "digit {digit}",
    "mm.compose.help.digits": "Pick a peg, then a digit; or type the digits. Backspace clears a peg.",
    "mm.compose.help.digits.nokeys": "Pick a peg, then a digit. Backspace clears a peg.",
    "mm.compose.help.digits.touch": "Pick a peg, then a digit.",
    "mm.answered": "Guess {n}: {code}, {black} black, {white} white.",
    "mm.answer": "{black} black, {white} white",
    "mm.secret": "The secret",
    "mm.won.one": "Solved in 1 guess!",
    "mm.won": "Solved in {n} guesses!",
    "mm.gave.up": "You gave up. The secret was {code}.",
    "mm.out": "No guesses left. The secret was {code}.",
    "mm.suggested": "{strategy} suggests {code}.",
    "mm.left.list": "{n} codes left: {codes}",
    "mm.left.one": "1 code left: {codes}",
    "mm.maker.guess": "The computer's guess #{n}",
    "mm.black": "Black (right colour, right place)",
    "mm.white": "White (right colour, wrong place)",
    "mm.answer.send": "Answer",
    "mm.undo": "Undo the last answer",
    "mm.left": "{n} codes still fit your answers.",
    "mm.left.single": "Only 1 code still fits your answers.",
    "mm.left.single.code": "Only 1 code still fits your answers: {codes}.",
    "mm.left.codes": "{n} codes still fit your answers: {codes}.",
    "mm.maker.solved.one": "The computer found your code {code} with its first guess.",
    "mm.maker.solved": "The computer found your code {code} in {n} guesses.",
    "mm.refused": "Answer not recorded: {detail}",
    "mm.missing": "That game was not found; start a new one.",
    "mm.unloaded": "The game could not be loaded ({error}); reload the page to try again.",
  },
  tr: {
    "mm.mode": "Mod",
    "mm.mode.breaker": "Kodu sen kır",
    "mm.mode.maker": "Bilgisayar seninkini kırsın",
    "mm.mode.breaker.help":
      "Sunucu gizli bir kod saklar; her tahminden sonra siyah (doğru renk, doğru yer) ve beyaz (doğru renk, yanlış yer) sayısıyla yanıt verir.",
    "mm.mode.maker.help":
      "Aklında bir kod tut; bilgisayar tahmin eder, sen her tahmini siyah ve beyaz sayısıyla yanıtlarsın.",
    "mm.variant": "Tür",
    "mm.strategy": "Strateji",
    "mm.new": "Yeni oyun",
    "mm.pick": "Bir mod, bir tür ve bir strateji seç, sonra yeni bir oyun başlat.",
    "mm.variant.classic": "Klasik: 4 pim, 6 renk",
    "mm.variant.4x8": "4 pim, 8 renk",
    "mm.variant.super": "Süper Mastermind: 5 pim, 8 renk",
    "mm.variant.bulls-and-cows": "Sayı Bulmaca (Bulls and Cows): 0–9 arası 4 rakam, tekrarsız",
    "mm.strategy.first-consistent": "İlk uyumlu kod",
    "mm.strategy.random-consistent": "Rastgele uyumlu kod",
    "mm.strategy.minimax": "Minimax (Knuth)",
    "mm.strategy.minimax-candidates": "Adaylar arasında minimax",
    "mm.strategy.expected-size": "Beklenen boyut (Irving)",
    "mm.strategy.entropy": "Entropi",
    "mm.strategy.most-parts": "En çok grup (Kooi)",
    "mm.strategy.optimal": "En iyi (ortalamada en az tahmin)",
    "mm.not-offered.too-big":
      "En iyi strateji bu çeşitte sunulmuyor: araması erişilemeyecek kadar büyük.",
    "mm.not-offered.not-solved":
      "En iyi strateji, ağacı bu sunucuda çözülünce sunulur (dakikalar süren bir arama).",
    "mm.maker-only": "En iyi strateji, bilgisayar senin kodunu çözerken oynar.",
    "mm.slots": "Tahminin",
    "mm.palette": "Renkler",
    "mm.slot": "{n}. pim: {colour}",
    "mm.slot.empty": "{n}. pim: boş",
    "mm.colour": "{digit} numaralı renk",
    "mm.compose.title": "{n}. tahmin",
    "mm.compose.help":
      "Bir pim seç, sonra bir renk; ya da rakamları yaz. Geri tuşu bir pimi temizler.",
    "mm.compose.help.nokeys": "Bir pim seç, sonra bir renk. Geri tuşu bir pimi temizler.",
    "mm.compose.help.touch": "Bir pim seç, sonra bir renk.",
    "mm.submit": "Tahmin et",
    "mm.clear": "Temizle",
    "mm.suggest": "Öner",
    "mm.candidates": "Kalan adaylar",
    "mm.give.up": "Pes et",
    "mm.fill": "Önce {n} pimin hepsini doldur.",
    "mm.playing.breaker": "Oynanan tür: {variant}. Öner düğmesi {strategy} stratejisini kullanır.",
    "mm.playing.maker": "Oynanan tür: {variant}. Bilgisayar {strategy} stratejisiyle oynar.",
    "mm.first": "{n} renk yaz ya da seç, sonra Tahmin et'e (ya da Enter'a) bas.",
    "mm.first.nokeys": "{n} renk seç, sonra Tahmin et'e bas.",
    "mm.first.digits": "{n} rakam yaz ya da seç, sonra Tahmin et'e (ya da Enter'a) bas.",
    "mm.first.digits.nokeys": "{n} rakam seç, sonra Tahmin et'e bas.",
    "mm.palette.digits": "Rakamlar",
    "mm.colour.digits": "{digit} rakamı",
    "mm.compose.help.digits":
      "Bir pim seç, sonra bir rakam; ya da rakamları yaz. Geri tuşu bir pimi temizler.",
    "mm.compose.help.digits.nokeys": "Bir pim seç, sonra bir rakam. Geri tuşu bir pimi temizler.",
    "mm.compose.help.digits.touch": "Bir pim seç, sonra bir rakam.",
    "mm.answered": "{n}. tahmin: {code}, {black} siyah, {white} beyaz.",
    "mm.answer": "{black} siyah, {white} beyaz",
    "mm.secret": "Gizli kod",
    "mm.won.one": "İlk tahminde çözdün!",
    "mm.won": "{n} tahminde çözdün!",
    "mm.gave.up": "Pes ettin. Gizli kod {code} idi.",
    "mm.out": "Tahmin hakkın bitti. Gizli kod {code} idi.",
    "mm.suggested": "{strategy} önerisi: {code}.",
    "mm.left.list": "Kalan {n} kod: {codes}",
    "mm.left.one": "Kalan tek kod: {codes}",
    "mm.maker.guess": "Bilgisayarın {n}. tahmini",
    "mm.black": "Siyah (doğru renk, doğru yer)",
    "mm.white": "Beyaz (doğru renk, yanlış yer)",
    "mm.answer.send": "Yanıtla",
    "mm.undo": "Son yanıtı geri al",
    "mm.left": "Yanıtlarına uyan {n} kod var.",
    "mm.left.single": "Yanıtlarına uyan tek bir kod kaldı.",
    "mm.left.single.code": "Yanıtlarına uyan tek bir kod kaldı: {codes}.",
    "mm.left.codes": "Yanıtlarına uyan {n} kod var: {codes}.",
    "mm.maker.solved.one": "Bilgisayar kodunu ({code}) ilk tahminde buldu.",
    "mm.maker.solved": "Bilgisayar kodunu ({code}) {n} tahminde buldu.",
    "mm.refused": "Yanıt kaydedilmedi: {detail}",
    "mm.missing": "Bu oyun bulunamadı; yeni bir oyun başlat.",
    "mm.unloaded": "Oyun açılamadı ({error}); yeniden denemek için sayfayı yenile.",
  },
});

// Peg colours by colour index; the digit on each peg tells them apart without colour
// (white digits on the dark ones, 4.5:1 or more; dark ink on the light ones).
const COLOURS = [
  "#c92a2a", "#1864ab", "#237a35", "#fcc419", "#c2410c",
  "#7048e8", "#66d9e8", "#c2255c", "#8d5524", "#f8f9fa",
];
const DARK_INK = new Set([3, 6, 9]);

const status = document.getElementById("status");
const variantPicker = document.getElementById("variant");
const strategyPicker = document.getElementById("strategy");
const newGameButton = document.getElementById("new-game");

let variants = [];
let mode = "breaker";
let game = null;
let guess = [];
let active = 0;
let note = null; // a message about the current game: {text: () => string, kind}
let candidates = null; // the last "candidates left" answer for the game shown
let pending = null; // the request under way: {button}

function variantOf(name) {
  return variants.find((variant) => variant.name === name);
}

function digit(variant, colour) {
  return String(colour + variant.first_digit);
}

function colourOf(variant, character) {
  return Number(character) - variant.first_digit;
}

function paint(element, colour) {
  element.style.setProperty("--peg", COLOURS[colour]);
  element.dataset.ink = DARK_INK.has(colour) ? "dark" : "light";
}

function pegs(variant, code, className = "pegs") {
  const row = document.createElement("span");
  row.className = className;
  row.dataset.code = code;
  for (const character of code) {
    const peg = document.createElement("span");
    peg.className = "peg";
    peg.textContent = character;
    paint(peg, colourOf(variant, character));
    row.append(peg);
  }
  return row;
}

function keys(black, white) {
  const box = document.createElement("span");
  box.className = "keys";
  box.setAttribute("aria-hidden", "true");
  for (let i = 0; i < black + white; i++) {
    const key = document.createElement("span");
    key.className = `key ${i < black ? "black" : "white"}`;
    box.append(key);
  }
  return box;
}

function renderRows(list) {
  list.innerHTML = "";
  game.turns.forEach((turn, i) => {
    const item = document.createElement("li");
    item.dataset.guess = turn.guess;
    item.dataset.black = turn.black;
    item.dataset.white = turn.white;
    const number = document.createElement("span");
    number.className = "number";
    number.textContent = `#${i + 1}`;
    const answer = document.createElement("span");
    answer.className = "answer";
    answer.textContent = t("mm.answer", { black: turn.black, white: turn.white });
    // Read as one sentence; the pegs, numbered and coloured, are for the eye.
    const said = document.createElement("span");
    said.className = "visually-hidden";
    const sentence = { n: i + 1, code: turn.guess, black: turn.black, white: turn.white };
    said.textContent = t("mm.answered", sentence);
    const shown = document.createElement("span");
    shown.className = "shown";
    shown.setAttribute("aria-hidden", "true");
    shown.append(number, pegs(game.variant, turn.guess), keys(turn.black, turn.white), answer);
    item.append(said, shown);
    list.append(item);
  });
}

// --- the setup card ---

function fillPickers() {
  const chosenVariant = variantPicker.value || (game ? game.variant.name : "classic");
  variantPicker.innerHTML = "";
  for (const variant of variants) {
    const option = document.createElement("option");
    option.value = variant.name;
    option.textContent = t(`mm.variant.${variant.name}`);
    variantPicker.append(option);
  }
  variantPicker.value = chosenVariant;
  fillStrategies(strategyPicker.value);
}

function fillStrategies(wanted) {
  const variant = variantOf(variantPicker.value);
  const names = [...variant.strategies, ...(mode === "maker" ? variant.maker_strategies : [])];
  strategyPicker.innerHTML = "";
  for (const name of names) {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = t(`mm.strategy.${name}`);
    strategyPicker.append(option);
  }
  strategyPicker.value = names.includes(wanted) ? wanted : variant.default_strategy;
  const why = variant.not_offered.optimal;
  const note = why
    ? t(`mm.not-offered.${why}`)
    : mode === "breaker" && variant.maker_strategies.length
      ? t("mm.maker-only")
      : "";
  document.getElementById("strategy-note").textContent = note;
}

function chooseMode(name) {
  mode = name;
  for (const button of document.querySelectorAll("[data-mode]")) {
    button.setAttribute("aria-pressed", String(button.dataset.mode === name));
  }
  document.getElementById("mode-help").textContent = t(`mm.mode.${name}.help`);
  if (variants.length) fillStrategies(strategyPicker.value);
}

async function newGame() {
  const body = { variant: variantPicker.value, mode, strategy: strategyPicker.value };
  try {
    const next = await request(newGameButton, "/api/mastermind/games", { method: "POST", body });
    if (!next) return;
    show(next);
    history.replaceState(null, "", `?game=${encodeURIComponent(game.id)}`);
  } catch (error) {
    note = { text: () => error.message, kind: "error" };
    render();
  }
}

// --- requests ---

// The page's requests go one at a time: a click meanwhile is ignored (null comes back)
// and the acting button is disabled. Only "New game" may start while another request is
// pending, so that a request that hangs cannot trap the player. An answer, or an error,
// that arrives once another game is shown is dropped (null): it would bring back the
// game the player left.
async function request(button, path, options) {
  if (pending && (button !== newGameButton || pending.button === newGameButton)) return null;
  if (pending?.button) pending.button.disabled = false;
  const mine = { button };
  pending = mine;
  const focusBack = focusBackTo(button);
  if (button) button.disabled = true;
  const id = game?.id;
  try {
    const data = await api(path, options);
    return game?.id === id ? data : null;
  } catch (error) {
    if (game?.id === id) throw error;
    return null;
  } finally {
    if (pending === mine) {
      pending = null;
      if (button) button.disabled = false;
      focusBack();
    }
  }
}

// A request about the game shown failed: say so (in the language of the moment). A move
// the server refused (409: say, the game ended in another tab) means this page is behind,
// so the game is loaded again; the refusal stays shown.
async function failed(error, text = () => error.message) {
  note = { text, kind: "error" };
  render();
  if (error.status !== 409) return;
  try {
    const next = await request(null, `/api/mastermind/games/${game.id}`);
    if (next) show(next);
  } catch {
    // the refusal says enough
  }
}

// --- the game ---

// The game in progress, kept across visits to other pages (as Battleship keeps its own).
const GAME_KEY = "hamle.mastermind.game";

function show(next) {
  const fresh = !game || game.id !== next.id;
  if (fresh || next.changes !== game.changes) candidates = null;
  game = next;
  localStorage.setItem(GAME_KEY, game.id);
  if (fresh) {
    guess = Array(game.variant.pegs).fill(null);
    active = 0;
    note = null;
    chooseMode(game.mode);
    variantPicker.value = game.variant.name;
    fillStrategies(game.strategy);
  }
  render();
}

function render() {
  // The settings of the game on the board: the pickers above are those of the next one.
  document.getElementById("playing").textContent = game
    ? t(`mm.playing.${game.mode}`, {
        variant: t(`mm.variant.${game.variant.name}`),
        strategy: t(`mm.strategy.${game.strategy}`),
      })
    : "";
  if (!game) {
    say(status, note ? note.text() : t("mm.pick"), note ? note.kind : "info");
    return;
  }
  document.getElementById("breaker").classList.toggle("hidden", game.mode !== "breaker");
  document.getElementById("maker").classList.toggle("hidden", game.mode !== "maker");
  if (game.mode === "breaker") renderBreaker();
  else renderMaker();
  const ending = endText();
  // An error comes first: the board already shows the end.
  if (note?.kind === "error") say(status, note.text(), note.kind);
  else if (ending) say(status, ending.text, ending.kind);
  else if (note) say(status, note.text(), note.kind);
  else if (game.mode === "breaker" && !game.turns.length)
    say(status, t(named("mm.first"), { n: game.variant.pegs }), "info");
  else say(status, "");
}

function endText() {
  const n = game.turn;
  if (game.mode === "breaker" && game.over) {
    if (game.solved) return { text: n === 1 ? t("mm.won.one") : t("mm.won", { n }), kind: "good" };
    const key = game.gave_up ? "mm.gave.up" : "mm.out";
    return { text: t(key, { code: game.secret }), kind: "info" };
  }
  if (game.mode === "maker" && game.solved) {
    const code = game.turns[n - 1].guess;
    const key = n === 1 ? "mm.maker.solved.one" : "mm.maker.solved";
    return { text: t(key, { code, n }), kind: "good" };
  }
  return null;
}

// A text's key for the game's variant: Bulls and Cows is played with digits, not colours.
function named(key) {
  return game?.variant.name === "bulls-and-cows" ? `${key}.digits` : key;
}

function renderBreaker() {
  const variant = game.variant;
  const palette = document.getElementById("palette");
  palette.dataset.i18nLabel = named("mm.palette"); // (and so named again on a switch of language)
  palette.setAttribute("aria-label", t(palette.dataset.i18nLabel));
  const help = document.getElementById("compose-help");
  help.dataset.i18n = named("mm.compose.help");
  help.textContent = t(help.dataset.i18n);
  renderRows(document.getElementById("breaker-rows"));
  document.getElementById("compose").classList.toggle("hidden", game.over);
  const secretBox = document.getElementById("secret-box");
  secretBox.classList.toggle("hidden", !game.secret);
  const secret = document.getElementById("secret");
  secret.innerHTML = "";
  if (game.secret) secret.append(...pegs(variant, game.secret).children);
  document.getElementById("compose-title").textContent = t("mm.compose.title", { n: game.turn + 1 });
  renderSlots();
  renderCandidates();
  palette.innerHTML = "";
  for (let colour = 0; colour < variant.colours; colour++) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "peg";
    button.textContent = digit(variant, colour);
    button.setAttribute("aria-label", t(named("mm.colour"), { digit: digit(variant, colour) }));
    paint(button, colour);
    button.addEventListener("click", () => put(colour));
    palette.append(button);
  }
}

function renderSlots() {
  const variant = game.variant;
  const slots = document.getElementById("slots");
  const focusedSlot = slots.contains(document.activeElement)
    ? [...slots.children].indexOf(document.activeElement)
    : -1;
  slots.innerHTML = "";
  guess.forEach((colour, i) => {
    const slot = document.createElement("button");
    slot.type = "button";
    slot.className = "peg slot";
    slot.setAttribute("aria-pressed", String(i === active));
    if (colour === null) {
      slot.classList.add("empty");
      slot.textContent = "?";
      slot.setAttribute("aria-label", t("mm.slot.empty", { n: i + 1 }));
    } else {
      paint(slot, colour);
      slot.textContent = digit(variant, colour);
      const name = t(named("mm.colour"), { digit: digit(variant, colour) });
      slot.setAttribute("aria-label", t("mm.slot", { n: i + 1, colour: name }));
    }
    slot.addEventListener("click", () => {
      active = i;
      renderSlots();
    });
    slots.append(slot);
  });
  slots.dataset.code = guess.every((c) => c !== null) ? guess.map((c) => digit(variant, c)).join("") : "";
  if (focusedSlot >= 0) slots.children[focusedSlot].focus();
}

// Once a colour fills the last empty peg, no peg is active (active is past the end): the
// next colour starts a new guess, so a code typed after a refused one is not written over
// its last peg. A peg clicked is active again, to change it alone.
function put(colour) {
  if (active >= guess.length) {
    guess = guess.map(() => null);
    active = 0;
  }
  guess[active] = colour;
  const next = guess.findIndex((c, i) => c === null && i > active);
  const anyEmpty = guess.indexOf(null);
  active = next >= 0 ? next : anyEmpty >= 0 ? anyEmpty : guess.length;
  if (anyEmpty < 0 && note?.fill) {
    note = null;
    render();
  } else renderSlots();
}

function erase() {
  if (active >= guess.length || (guess[active] === null && active > 0)) active -= 1;
  guess[active] = null;
  renderSlots();
}

// Digits typed anywhere on the page (but in a form field) fill the guess.
function typed(event) {
  if (!game || game.mode !== "breaker" || game.over) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest("input, select, textarea")) return;
  const variant = game.variant;
  if (/^[0-9]$/.test(event.key) && shortcutsOn()) {
    const colour = colourOf(variant, event.key);
    if (colour < 0 || colour >= variant.colours) return;
    event.preventDefault();
    put(colour);
    // A code typed while a button other than a colour or peg has the focus (New game,
    // Suggest): Enter must send it, not press that button again.
    const focused = document.activeElement;
    if (focused?.matches("button") && !focused.closest("#palette, #slots")) {
      document.getElementById("submit").focus();
    }
  } else if (event.key === "Backspace") {
    event.preventDefault();
    erase();
  } else if (event.key === "Enter" && sends(event.target)) {
    event.preventDefault();
    document.getElementById("submit").click();
  }
}

// Enter sends the guess, but on a button that is not a colour it presses that button (a
// colour's, with every peg full, would start a new guess: the one typed would be lost).
function sends(target) {
  const button = target.closest("button, a");
  return !button || (button.closest("#palette") && !guess.includes(null));
}

async function submitGuess(event) {
  if (guess.includes(null)) {
    const n = guess.length;
    note = { text: () => t("mm.fill", { n }), kind: "error", fill: true };
    render();
    return;
  }
  const code = guess.map((c) => digit(game.variant, c)).join("");
  try {
    const next = await request(event.currentTarget, `/api/mastermind/games/${game.id}/guess`, {
      method: "POST",
      body: { guess: code, changes: game.changes },
    });
    if (!next) return;
    guess = Array(next.variant.pegs).fill(null);
    active = 0;
    const turn = next.turns[next.turns.length - 1];
    const said = { n: next.turns.length, code: turn.guess, black: turn.black, white: turn.white };
    note = { text: () => t("mm.answered", said), kind: "info" }; // (the status is heard)
    show(next);
  } catch (error) {
    await failed(error);
  }
}

// The suggestion fills the pegs as a code typed in full does (a colour typed next starts a
// new guess), and Enter then plays it: the focus goes from Suggest to Guess.
async function suggest(event) {
  const button = event.currentTarget;
  try {
    const path = `/api/mastermind/games/${game.id}/suggest?changes=${game.changes}`;
    const suggestion = await request(button, path);
    if (!suggestion) return;
    guess = [...suggestion.guess].map((c) => colourOf(game.variant, c));
    active = guess.length;
    if (document.activeElement === button) document.getElementById("submit").focus();
    const strategy = `mm.strategy.${suggestion.strategy}`;
    note = {
      text: () => t("mm.suggested", { strategy: t(strategy), code: suggestion.guess }),
      kind: "info",
    };
    render();
  } catch (error) {
    await failed(error);
  }
}

async function showCandidates(event) {
  try {
    const path = `/api/mastermind/games/${game.id}/candidates?limit=50&changes=${game.changes}`;
    const found = await request(event.currentTarget, path);
    if (!found) return;
    candidates = found;
    renderCandidates();
  } catch (error) {
    await failed(error);
  }
}

function renderCandidates() {
  const box = document.getElementById("candidates");
  box.classList.toggle("hidden", !candidates);
  if (!candidates) return;
  const n = candidates.count;
  const codes = candidates.codes.join(" ") + (candidates.more ? " …" : "");
  box.dataset.count = n;
  box.textContent = n === 1 ? t("mm.left.one", { codes }) : t("mm.left.list", { n, codes });
}

// Undo or give up. Each move names the changes this page shows: if another tab has changed
// the game since, the server refuses (409) rather than act on a game this page never showed.
async function post(button, action) {
  try {
    const next = await request(button, `/api/mastermind/games/${game.id}/${action}`, {
      method: "POST",
      body: { changes: game.changes },
    });
    if (!next) return;
    note = null;
    show(next);
  } catch (error) {
    await failed(error);
  }
}

function renderMaker() {
  const variant = game.variant;
  renderRows(document.getElementById("maker-rows"));
  document.getElementById("proposal-box").classList.toggle("hidden", game.over);
  if (!game.over) {
    document.getElementById("proposal-title").textContent = t("mm.maker.guess", {
      n: game.turn + 1,
    });
    const proposal = document.getElementById("proposal");
    proposal.innerHTML = "";
    proposal.dataset.code = game.proposal;
    proposal.append(...pegs(variant, game.proposal).children);
    for (const id of ["black", "white"]) {
      const picker = document.getElementById(id);
      const kept = picker.value;
      picker.innerHTML = "";
      for (let n = 0; n <= variant.pegs; n++) {
        const option = document.createElement("option");
        option.value = option.textContent = String(n);
        picker.append(option);
      }
      picker.value = kept && Number(kept) <= variant.pegs ? kept : "0";
    }
  }
  const left = document.getElementById("left");
  const codes = game.codes_left?.join(" "); // (listed while few are left)
  const one = game.candidates === 1;
  const key = one ? (codes ? "mm.left.single.code" : "mm.left.single") : codes ? "mm.left.codes" : "mm.left";
  left.textContent = t(key, { n: game.candidates, codes });
  left.classList.toggle("hidden", game.over);
  document.getElementById("undo").disabled = game.turn === 0;
}

async function answer(event) {
  const black = Number(document.getElementById("black").value);
  const white = Number(document.getElementById("white").value);
  try {
    const next = await request(event.currentTarget, `/api/mastermind/games/${game.id}/answer`, {
      method: "POST",
      body: { guess: game.proposal, black, white, changes: game.changes },
    });
    if (!next) return;
    for (const id of ["black", "white"]) document.getElementById(id).value = "0";
    note = null;
    show(next);
  } catch (error) {
    await failed(error, () => t("mm.refused", { detail: error.message }));
  }
}

// The game named in the address or kept from the last visit. Only a game the server does not
// have (or an id that cannot be one) is forgotten: a server down or failing keeps it for a
// reload to try again.
async function load(id) {
  try {
    const next = await request(null, `/api/mastermind/games/${encodeURIComponent(id)}`);
    if (next) show(next);
  } catch (error) {
    const missing = error.status === 404 || error.status === 422; // (a malformed id)
    if (missing) {
      localStorage.removeItem(GAME_KEY);
      history.replaceState(null, "", location.pathname);
    }
    note = {
      text: missing ? () => t("mm.missing") : () => t("mm.unloaded", { error: error.message }),
      kind: "error",
    };
    render();
  }
}

async function start() {
  renderChrome({ shortcuts: true });
  chooseMode("breaker");
  try {
    variants = await api("/api/mastermind/variants");
  } catch (error) {
    note = { text: () => error.message, kind: "error" };
    render();
    return;
  }
  fillPickers();
  for (const button of document.querySelectorAll("[data-mode]")) {
    button.addEventListener("click", () => chooseMode(button.dataset.mode));
    button.disabled = false; // (disabled in the page until now, so that no tap is lost)
  }
  variantPicker.addEventListener("change", () => fillStrategies(strategyPicker.value));
  newGameButton.addEventListener("click", newGame);
  newGameButton.disabled = false;
  document.getElementById("submit").addEventListener("click", submitGuess);
  document.getElementById("clear").addEventListener("click", () => {
    guess = guess.map(() => null);
    active = 0;
    renderSlots();
  });
  document.getElementById("suggest").addEventListener("click", suggest);
  document.getElementById("show-candidates").addEventListener("click", showCandidates);
  document.getElementById("give-up").addEventListener("click", (event) =>
    post(event.currentTarget, "give-up"),
  );
  document.addEventListener("keydown", typed);
  document.getElementById("answer").addEventListener("click", answer);
  document.getElementById("undo").addEventListener("click", (event) =>
    post(event.currentTarget, "undo"),
  );
  document.addEventListener("languagechange", () => {
    fillPickers();
    chooseMode(mode);
    render();
  });
  const id = new URLSearchParams(location.search).get("game") || localStorage.getItem(GAME_KEY);
  if (id) {
    history.replaceState(null, "", `?game=${encodeURIComponent(id)}`);
    await load(id);
  } else render();
}

start();
