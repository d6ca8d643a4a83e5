// What every page shares: the API call, the English/Turkish texts, the page chrome
// and an accessible grid of cells.

import { turkishError } from "./errors.js";

const TEXTS = {
  en: {
    "site.title": "hamle",
    "site.tagline": "Battleship, Mastermind and Yüz Yüze, with engines that think.",
    "nav.home": "Home",
    "nav.pages": "Pages",
    "nav.skip": "Skip to the page",
    "nav.battleship": "Amiral Battı",
    "nav.lab": "Density lab",
    "nav.stats": "Statistics",
    "nav.replay": "Replay",
    "nav.mastermind": "Mastermind",
    "nav.tour": "Yüz Yüze",
    "nav.api": "API",
    "lang.switch": "Türkçe",
    "lang.label": "Language",
    "keys.switch": "Key shortcuts",
    "error.network": "The server did not answer. Is it running?",
    "error.slow": "The server has not answered for a minute, so the page stopped waiting. Try again.",
    "api.waiting": "Waiting for the server…",
    "bs.symbols": "• miss ✕ hit ■ sunk · water beside a sunk ship",
    "home.battleship": "Sink the computer's fleet before it sinks yours — four levels: Hard shows a heat map of its thinking, Expert plans ahead.",
    "home.lab":
      "Mark misses, hits and sunk ships and watch the density engine pick its next shot, or count every layout exactly, under either rule set.",
    "home.stats": "How many shots each strategy needs, over a thousand numbered games.",
    "home.replay": "Step through any numbered game, shot by shot.",
    "home.mastermind": "Break the server's code, or let the computer break yours.",
    "home.tour": "Fill the 10 × 10 board from 1 to 100 with jumps; a new puzzle every day.",
    "home.play": "Play",
    "home.open": "Open",
    "missing.title": "No such page",
    "missing.text": "There is no page at this address.",
    "missing.home": "Go to the home page",
    "rules.classic": "Classic",
    "rules.classic.detail": "5, 4, 3, 3, 2; ships may touch",
    "rules.russian": "Russian",
    "rules.russian.detail": "4, 3, 3, 2, 2, 2, 1, 1, 1, 1; ships may not touch",
  },
  tr: {
    "site.title": "hamle",
    "site.tagline": "Amiral Battı, Mastermind ve Yüz Yüze; düşünen motorlarla.",
    "nav.home": "Ana sayfa",
    "nav.pages": "Sayfalar",
    "nav.skip": "Sayfaya geç",
    "nav.battleship": "Amiral Battı",
    "nav.lab": "Yoğunluk laboratuvarı",
    "nav.stats": "İstatistikler",
    "nav.replay": "Tekrar izle",
    "nav.mastermind": "Mastermind",
    "nav.tour": "Yüz Yüze",
    "nav.api": "API",
    "lang.switch": "English",
    "lang.label": "Dil",
    "keys.switch": "Tuş kısayolları",
    "error.network": "Sunucu yanıt vermedi. Çalışıyor mu?",
    "error.slow": "Sunucu bir dakikadır yanıt vermedi, sayfa beklemeyi bıraktı. Yeniden dene.",
    "api.waiting": "Sunucu bekleniyor…",
    "bs.symbols": "• ıska ✕ isabet ■ battı · batan geminin yanındaki su",
    "home.battleship": "Bilgisayarın filosunu o seninkini batırmadan batır — dört seviye: Zor seviye düşüncesinin ısı haritasını gösterir, Uzman seviye ilerisini planlar.",
    "home.lab":
      "Iska, isabet ve batan gemileri işaretle; yoğunluk motorunun sıradaki atışını izle ya da her dizilişi tam olarak say, iki kural setinde de.",
    "home.stats": "Her stratejinin kaç atışa ihtiyaç duyduğu, bin numaralı oyun üzerinden.",
    "home.replay": "Numaralı herhangi bir oyunu atış atış izle.",
    "home.mastermind": "Sunucunun şifresini kır ya da bilgisayar seninkini kırsın.",
    "home.tour": "10 × 10 tahtayı sıçrayarak 1'den 100'e doldur; her gün yeni bir bulmaca.",
    "home.play": "Oyna",
    "home.open": "Aç",
    "missing.title": "Böyle bir sayfa yok",
    "missing.text": "Bu adreste bir sayfa yok.",
    "missing.home": "Ana sayfaya git",
    "rules.classic": "Klasik",
    "rules.classic.detail": "5, 4, 3, 3, 2; gemiler değebilir",
    "rules.russian": "Rus",
    "rules.russian.detail": "4, 3, 3, 2, 2, 2, 1, 1, 1, 1; gemiler değemez",
  },
};

const LANG_KEY = "hamle.lang";

export function language() {
  const stored = localStorage.getItem(LANG_KEY);
  if (stored === "en" || stored === "tr") return stored;
  return (navigator.language || "en").toLowerCase().startsWith("tr") ? "tr" : "en";
}

// Pages add their own texts: addTexts({en: {...}, tr: {...}}).
export function addTexts(texts) {
  for (const lang of Object.keys(TEXTS)) Object.assign(TEXTS[lang], texts[lang] || {});
}

const KEYS_KEY = "hamle.keys";
const KEYBOARD_KEY = "hamle.keyboard";
const finePointer = matchMedia("(any-pointer: fine)");

// Whether a keyboard is likely: there is a mouse or a touchpad (a device with only a touch
// screen has none), or a key has been pressed in this tab.
function keyboardLikely() {
  return finePointer.matches || sessionStorage.getItem(KEYBOARD_KEY) === "yes";
}

// Whether the single-key shortcuts (R, P, digits) act. The header's switch turns them off for
// those whom a stray key or speech input would trip up (WCAG 2.1.4).
export function shortcutsOn() {
  return keyboardLikely() && shortcutsWanted();
}

function shortcutsWanted() {
  return localStorage.getItem(KEYS_KEY) !== "off";
}

// The text for a key in the current language; {name} placeholders are filled from vars.
// A text naming keys has a form without them, "<key>.touch", used where no keyboard is
// likely; one naming a single-key shortcut has a form without it, "<key>.nokeys", used while
// the shortcuts are off (and, failing a ".touch" form, where no keyboard is likely).
export function t(key, vars = {}) {
  if (!keyboardLikely() && `${key}.touch` in TEXTS.en) key = `${key}.touch`;
  else if (!shortcutsOn() && `${key}.nokeys` in TEXTS.en) key = `${key}.nokeys`;
  const text = TEXTS[language()][key] ?? TEXTS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? written(vars[name]) : `{${name}}`));
}

// A value as a text shows it: a whole number of 1000 or more with the language's thousands
// separator (1,296; 1.296 in Turkish).
export function written(value) {
  if (!Number.isInteger(value) || Math.abs(value) < 1000) return String(value);
  return value.toLocaleString(language() === "tr" ? "tr-TR" : "en-US");
}

// Fill every [data-i18n] element's text and [data-i18n-label] element's aria-label,
// then tell the page (event "languagechange" on document) to redraw what it computed.
export function applyLanguage(root = document) {
  document.documentElement.lang = language();
  const switcher = document.getElementById("lang-switch");
  if (switcher) switcher.lang = language() === "tr" ? "en" : "tr"; // (it names the other one)
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    el.setAttribute("placeholder", t(el.dataset.i18nPlaceholder));
  }
  const waiting = document.getElementById("waiting");
  if (waiting?.textContent) waiting.textContent = t("api.waiting");
  const page = NAV.find(([href]) => href === location.pathname && href !== "/");
  const named = document.body.dataset.title || page?.[1]; // (a page outside the navigation)
  document.title = named ? `${t(named)} · hamle` : "hamle";
  document.dispatchEvent(new CustomEvent("languagechange"));
}

export function setLanguage(lang) {
  localStorage.setItem(LANG_KEY, lang);
  applyLanguage();
}

// A request unanswered for WAIT_NOTICE_MS shows "Waiting for the server…" until every
// request has ended, and one unanswered for API_TIMEOUT_MS is given up (SlowError): a server
// that hangs, rather than refuses, would otherwise never be reported.
const WAIT_NOTICE_MS = 1500;
const API_TIMEOUT_MS = 60000;
let pending = 0;
let noticeTimer = null;

// Call the JSON API. Errors throw an ApiError, a SlowError if the server took too long, or
// a NetworkError if it did not answer.
export async function api(path, { method = "GET", body } = {}) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), API_TIMEOUT_MS);
  requestStarted();
  try {
    const response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
    });
    let data = {};
    try {
      data = await response.json();
    } catch {
      if (controller.signal.aborted) throw new SlowError();
    }
    if (!response.ok) throw new ApiError(response, data);
    return data;
  } catch (error) {
    if (error instanceof ApiError || error instanceof SlowError) throw error;
    throw controller.signal.aborted ? new SlowError() : new NetworkError();
  } finally {
    clearTimeout(timer);
    requestEnded();
  }
}

function requestStarted() {
  pending += 1;
  if (pending > 1) return;
  noticeTimer = setTimeout(() => (waitingNotice().textContent = t("api.waiting")), WAIT_NOTICE_MS);
}

function requestEnded() {
  pending -= 1;
  if (pending > 0) return;
  clearTimeout(noticeTimer);
  waitingNotice().textContent = "";
}

// The notice's live region, there (empty, unseen) from the start, so that its text is heard
// when it comes.
function waitingNotice() {
  let notice = document.getElementById("waiting");
  if (!notice) {
    notice = document.createElement("p");
    notice.id = "waiting";
    notice.className = "waiting";
    notice.setAttribute("aria-live", "polite");
    document.body.append(notice);
  }
  return notice;
}

// The API's answer, asked again every `wait` ms while the server is busy (409) and
// `current()` still holds; null once it no longer does (the answer is no longer wanted).
export async function apiWhenFree(path, options, current, wait = 500) {
  for (;;) {
    try {
      const answer = await api(path, options);
      return current() ? answer : null;
    } catch (error) {
      if (!current()) return null;
      if (error.status !== 409) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
    if (!current()) return null;
  }
}

// An error answer of the API; its message is in the current language whenever it is
// read (the server's English detail, or the Turkish text of its code).
export class ApiError extends Error {
  constructor(response, data) {
    super();
    this.name = "ApiError";
    this.status = response.status;
    this.code = data.code || "";
    this.params = data.params || {};
    this.detail = data.detail || `${response.status} ${response.statusText}`;
  }

  get message() {
    return (language() === "tr" && turkishError(this)) || this.detail;
  }
}

// No answer from the server; its message too is in the current language when read.
export class NetworkError extends Error {
  get message() {
    return t("error.network");
  }
}

// No answer within API_TIMEOUT_MS: the request was given up (the server may still act on it).
export class SlowError extends NetworkError {
  get message() {
    return t("error.slow");
  }
}

const NAV = [
  ["/", "nav.home"],
  ["/battleship", "nav.battleship"],
  ["/battleship/lab", "nav.lab"],
  ["/battleship/stats", "nav.stats"],
  ["/battleship/replay", "nav.replay"],
  ["/mastermind", "nav.mastermind"],
  ["/tour", "nav.tour"],
  ["/docs", "nav.api"],
];

// The header (site name, navigation, language switch, and on a page with single-key
// shortcuts their switch); call once per page.
export function renderChrome({ shortcuts = false } = {}) {
  const header = document.getElementById("top");
  header.innerHTML = "";
  // A first link past the navigation, for those who move by keys (shown once focused).
  const main = document.querySelector("main");
  main.id ||= "content";
  main.tabIndex = -1;
  const skip = document.createElement("a");
  skip.href = `#${main.id}`;
  skip.className = "skip";
  skip.dataset.i18n = "nav.skip";
  const brand = document.createElement("a");
  brand.href = "/";
  brand.className = "brand";
  brand.textContent = "hamle";
  const nav = document.createElement("nav");
  nav.setAttribute("data-i18n-label", "nav.pages");
  for (const [href, key] of NAV) {
    const link = document.createElement("a");
    link.href = href;
    link.dataset.i18n = key;
    if (location.pathname === href) link.setAttribute("aria-current", "page");
    nav.append(link);
  }
  const switcher = document.createElement("button");
  switcher.id = "lang-switch";
  switcher.type = "button";
  switcher.className = "lang";
  switcher.dataset.i18n = "lang.switch";
  switcher.addEventListener("click", () => {
    setLanguage(language() === "tr" ? "en" : "tr");
    showCurrentLink(nav); // the links changed width with their texts
  });
  header.append(skip, brand, nav, switcher);
  if (shortcuts) header.append(shortcutSwitch());
  waitingNotice();
  watchForKeyboard();
  applyLanguage();
  showCurrentLink(nav);
}

// The page's parts about keys (class "keyboard-only") are shown, and its texts name keys,
// only where a keyboard is likely: from the first key pressed, or a mouse plugged in.
function watchForKeyboard() {
  const show = () => document.documentElement.classList.toggle("keyboard", keyboardLikely());
  show();
  finePointer.addEventListener("change", () => {
    show();
    applyLanguage();
  });
  // (capturing, so that the first key, if a shortcut, already acts)
  window.addEventListener(
    "keydown",
    (event) => {
      if (keyboardLikely() || !realKey(event)) return;
      sessionStorage.setItem(KEYBOARD_KEY, "yes");
      show();
      applyLanguage();
    },
    true,
  );
}

// A key of a keyboard, not text typed on a screen keyboard into a field (which some phones
// report as keys too).
function realKey(event) {
  if (event.isComposing || event.key === "Unidentified" || event.key === "Process") return false;
  const target = event.target;
  const field = "textarea, input:not([type=radio], [type=checkbox], [type=range])";
  return !(target.isContentEditable || target.closest?.(field));
}

function shortcutSwitch() {
  const button = document.createElement("button");
  button.id = "keys-switch";
  button.type = "button";
  button.className = "keys keyboard-only";
  button.dataset.i18n = "keys.switch";
  button.setAttribute("aria-pressed", String(shortcutsWanted()));
  button.addEventListener("click", () => {
    localStorage.setItem(KEYS_KEY, shortcutsWanted() ? "off" : "on");
    button.setAttribute("aria-pressed", String(shortcutsWanted()));
    applyLanguage(); // the pages' help names the shortcuts only while they act
  });
  return button;
}

// On a phone the navigation scrolls sideways: show the current page's link.
function showCurrentLink(nav) {
  const current = nav.querySelector("[aria-current]");
  if (current) nav.scrollLeft = Math.max(0, current.offsetLeft - nav.offsetLeft - 16);
}

// A rule set's fleet and touching rule, shown under its picker: the options name the rule
// sets only, so that they fit a phone. Call again after setting the picker's value.
export function describeRules(select) {
  let detail = document.getElementById(`${select.id}-detail`);
  if (!detail) {
    detail = document.createElement("small");
    detail.id = `${select.id}-detail`;
    detail.className = "muted rules-detail";
    select.insertAdjacentElement("afterend", detail);
    select.setAttribute("aria-describedby", detail.id);
    select.addEventListener("change", () => describeRules(select));
    document.addEventListener("languagechange", () => describeRules(select));
  }
  detail.textContent = t(`rules.${select.value}.detail`);
}

export function columnLetter(col) {
  return String.fromCharCode(65 + col);
}

export function cellName(index, cols = 10) {
  return columnLetter(index % cols) + String(Math.floor(index / cols) + 1);
}

// A Battleship cell's mark as a symbol, so that no answer is told by its colour alone.
export const MARK_SYMBOLS = { miss: "•", hit: "✕", sunk: "■", water: "·" };

export function cellIndex(name, cols = 10) {
  return (Number(name.slice(1)) - 1) * cols + (name.charCodeAt(0) - 65);
}

// For a button about to be disabled while a request runs (a disabled button loses the
// focus to the page): a function that gives the focus back to it once it is enabled again,
// if it had it and nothing else took it meanwhile.
export function focusBackTo(button) {
  const had = button && document.activeElement === button;
  return () => {
    if (had && document.activeElement === document.body) button.focus();
  };
}

// A rows × cols grid of buttons inside `container`, with column letters and row
// numbers. Arrow keys move the focus (one tab stop for the whole grid); Enter and
// Space click. onCell(index, event) is called on a click. Returns the buttons.
export function makeGrid(container, { rows = 10, cols = 10, label, onCell }) {
  container.innerHTML = "";
  container.classList.add("grid");
  container.style.setProperty("--cols", cols);
  container.setAttribute("role", "grid");
  if (label) {
    container.dataset.i18nLabel = label; // (a text key: named again on a change of language)
    container.setAttribute("aria-label", t(label));
  }
  const header = gridRow(container);
  header.append(axisLabel("", "columnheader")); // the corner, above the row numbers
  for (let c = 0; c < cols; c++) header.append(axisLabel(columnLetter(c), "columnheader"));
  const cells = [];
  for (let r = 0; r < rows; r++) {
    const row = gridRow(container);
    row.append(axisLabel(String(r + 1), "rowheader"));
    for (let c = 0; c < cols; c++) {
      const index = r * cols + c;
      const cell = document.createElement("button");
      cell.type = "button";
      cell.className = "cell";
      cell.dataset.cell = cellName(index, cols);
      cell.setAttribute("role", "gridcell");
      cell.setAttribute("aria-label", cell.dataset.cell);
      cell.tabIndex = index === 0 ? 0 : -1;
      cell.addEventListener("click", (event) => onCell && onCell(index, event));
      cell.addEventListener("focus", () => {
        for (const other of cells) other.tabIndex = -1;
        cell.tabIndex = 0;
      });
      cell.addEventListener("keydown", (event) => {
        const moves = { ArrowUp: -cols, ArrowDown: cols, ArrowLeft: -1, ArrowRight: 1 };
        if (!(event.key in moves)) return;
        event.preventDefault();
        const target = index + moves[event.key];
        const sameRow = Math.floor(target / cols) === r;
        if (target < 0 || target >= rows * cols) return;
        if ((event.key === "ArrowLeft" || event.key === "ArrowRight") && !sameRow) return;
        cells[target].focus();
      });
      cells.push(cell);
      row.append(cell);
    }
  }
  return cells;
}

// A row of the grid for assistive technology; `display: contents` leaves its children on
// the container's CSS grid.
function gridRow(container) {
  const row = document.createElement("div");
  row.setAttribute("role", "row");
  row.style.display = "contents";
  container.append(row);
  return row;
}

function axisLabel(text, role) {
  const axis = document.createElement("span");
  axis.className = "axis";
  axis.setAttribute("role", role);
  axis.textContent = text;
  return axis;
}

// Show a message in the page's status line (role=status, so screen readers hear it).
export function say(element, text, kind = "info") {
  element.textContent = text;
  element.dataset.kind = kind;
}
