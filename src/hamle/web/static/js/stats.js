// The simulation table of every computer shooter and the P(done within t shots) chart,
// computed by the engine on the server (cached; recomputed with a progress bar).

import {
  addTexts,
  api,
  describeRules,
  focusBackTo,
  language,
  renderChrome,
  say,
  t,
} from "./common.js";

addTexts({
  en: {
    "st.intro":
      "Every strategy plays the same numbered games (game g has the same fleet for all of them). The dotted line is the exact law of random shooting at any cell not fired at; Easy never fires at water beside a sunk ship, so under Russian rules it needs fewer shots.",
    "st.rules": "Rules",
    "st.games": "Games",
    "st.recompute": "Recompute",
    "st.compute": "Compute",
    "st.progress": "Progress",
    "st.progress.text": "{done} of {total} games played",
    "st.missing": "Not computed yet for {games} games. Press Compute to play them (up to half a minute).",
    "st.running": "Computing…",
    "st.ready": "Computed over {games} games per strategy.",
    "st.failed": "The computation failed: {detail}",
    "st.table.title": "Shots to sink the whole fleet ({games} games, {rules})",
    "st.scroll": "Swipe the table sideways to see every column →",
    "st.col.strategy": "strategy",
    "st.col.mean": "mean",
    "st.col.se": "± se",
    "st.col.sd": "sd",
    "st.col.median": "median",
    "st.col.middle": "middle 80 %",
    "st.col.best": "best",
    "st.col.worst": "worst",
    "st.col.within": "≤ 50 shots",
    "st.col.hunt": "hunt",
    "st.col.target": "target",
    "st.columns":
      "se: standard error of the mean; sd: standard deviation; middle 80 %: 10th to 90th percentile; hunt/target: mean shots fired with no open hit / with one.",
    "st.chart": "P(done within t shots)",
    "st.axis.x": "shots t",
    "st.axis.y": "P(done within t shots)",
    "st.exact": "random, exact law",
    "st.figures": "The chart's figures",
    "st.mean": "mean {mean}",
    "strategy.random": "Random (Easy)",
    "strategy.hunt-target": "Hunt and target",
    "strategy.parity": "Parity (Normal)",
    "strategy.density": "Density (Hard)",
    "st.matrix.title": "Where the fleet hides ({games} games, {rules})",
    "st.matrix.intro":
      "Mean shots of each shooter against fleets hidden by each placer, on the same numbered games; in brackets, the shots a placer adds against uniform fleets. Hard and Expert hide their own fleet with the strongest placer.",
    "st.col.shooter": "shooter \\ placer",
    "placer.uniform": "uniform",
    "placer.edges": "edges",
    "placer.anti-density": "anti-density",
    "placer.spread": "spread",
    "placer.clustered": "clustered",
    "placer.uniform.about": "every legal fleet equally likely",
    "placer.edges.about": "ships along the edges and in the corners",
    "placer.anti-density.about": "ships where the density shooter looks last",
    "placer.spread.about": "ships far apart from each other",
    "placer.clustered.about": "ships side by side in clusters",
  },
  tr: {
    "st.intro":
      "Her strateji aynı numaralı oyunları oynar (g numaralı oyunda filo hepsi için aynıdır). Noktalı çizgi, atılmamış herhangi bir kareye rastgele atışın kesin dağılımıdır; Kolay seviye, batık bir geminin yanındaki suya hiç atmaz, bu yüzden Rus kurallarında daha az atışla biter.",
    "st.rules": "Kurallar",
    "st.games": "Oyun sayısı",
    "st.recompute": "Yeniden hesapla",
    "st.compute": "Hesapla",
    "st.progress": "İlerleme",
    "st.progress.text": "{total} oyunun {done} tanesi oynandı",
    "st.missing": "{games} oyun için henüz hesaplanmadı. Oyunları oynatmak için Hesapla'ya bas (yarım dakikaya kadar).",
    "st.running": "Hesaplanıyor…",
    "st.ready": "Strateji başına {games} oyun üzerinden hesaplandı.",
    "st.failed": "Hesaplama başarısız oldu: {detail}",
    "st.table.title": "Bütün filoyu batırmak için atış sayısı ({games} oyun, {rules})",
    "st.scroll": "Bütün sütunları görmek için tabloyu yana kaydır →",
    "st.col.strategy": "strateji",
    "st.col.mean": "ortalama",
    "st.col.se": "± sh",
    "st.col.sd": "ss",
    "st.col.median": "medyan",
    "st.col.middle": "ortadaki %80",
    "st.col.best": "en iyi",
    "st.col.worst": "en kötü",
    "st.col.within": "≤ 50 atış",
    "st.col.hunt": "av",
    "st.col.target": "hedef",
    "st.columns":
      "sh: ortalamanın standart hatası; ss: standart sapma; ortadaki %80: 10. ile 90. yüzdelik arası; av/hedef: açık isabet yokken / varken yapılan ortalama atış.",
    "st.chart": "P(t atış içinde bitti)",
    "st.axis.x": "atış sayısı t",
    "st.axis.y": "P(t atış içinde bitti)",
    "st.exact": "rastgele, kesin dağılım",
    "st.figures": "Grafiğin sayıları",
    "st.mean": "ortalama {mean}",
    "strategy.random": "Rastgele (Kolay)",
    "strategy.hunt-target": "Av ve hedef",
    "strategy.parity": "Dama deseni (Orta)",
    "strategy.density": "Yoğunluk (Zor)",
    "st.matrix.title": "Filo nereye saklanıyor ({games} oyun, {rules})",
    "st.matrix.intro":
      "Her atıcının, her yerleştiricinin sakladığı filolara karşı ortalama atış sayısı, aynı numaralı oyunlarda; parantez içinde, yerleştiricinin tekdüze filolara göre eklediği atış. Zor ve Uzman seviyeler kendi filolarını en güçlü yerleştiriciyle saklar.",
    "st.col.shooter": "atıcı \\ yerleştirici",
    "placer.uniform": "tekdüze",
    "placer.edges": "kenarlar",
    "placer.anti-density": "yoğunluk karşıtı",
    "placer.spread": "dağınık",
    "placer.clustered": "kümeli",
    "placer.uniform.about": "her geçerli filo eşit olasılıkla",
    "placer.edges.about": "gemiler kenarlarda ve köşelerde",
    "placer.anti-density.about": "gemiler yoğunluk atıcısının en son baktığı yerlerde",
    "placer.spread.about": "gemiler birbirinden uzakta",
    "placer.clustered.about": "gemiler kümeler hâlinde yan yana",
  },
});

const GAME_CHOICES = [10, 50, 100, 200, 500, 1000, 2000];
const COLOURS = {
  random: "#e8590c",
  "hunt-target": "#2f9e44",
  parity: "#1f6feb",
  density: "#ae3ec9",
};
// Each curve has its own dashes too, so that none is told by its colour alone.
const DASHES = { random: "12 3 2 3 2 3", "hunt-target": "12 4 2 4", parity: "7 4", density: "none" };
const EXACT = { colour: "#1d2433", dashes: "2 4" };

// A strategy's curve: its colour and dashes, in the chart and its legend alike.
function lineOf(name) {
  return { colour: COLOURS[name] || "#495057", dashes: DASHES[name] || "none" };
}
const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

let data = null; // the ready table and curves
let message = null; // () => text for the status line
let watching = 0; // bumps to stop an older progress loop

function setStatus(render, kind = "info") {
  message = { render, kind };
  say($("status"), render(), kind);
}

function query() {
  return new URLSearchParams({ rules: $("rules").value, games: $("games").value }).toString();
}

// Numbers as the page's language writes them: 95.4 and 11 % in English, 95,4 and %11 in
// Turkish (as the lab and the tour do).
function fixed(x, digits = 1) {
  const written = { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return Number(x).toLocaleString(language(), written);
}

function percent(x, digits = 0) {
  const share = fixed(x * 100, digits);
  return language() === "tr" ? `%${share}` : `${share} %`;
}

// ---- table -----------------------------------------------------------------------

function renderTable() {
  const columns = [
    "strategy", "mean", "se", "sd", "median", "middle", "best", "worst", "within", "hunt", "target",
  ];
  const body = newTable($("table"), columns.map((key) => t(`st.col.${key}`)));
  for (const row of Object.values(data.table.strategies)) {
    addRow(body, [
      t(`strategy.${row.strategy}`),
      fixed(row.mean),
      fixed(row.stderr, 2),
      fixed(row.stderr * Math.sqrt(row.games)),
      fixed(row.median, Number.isInteger(row.median) ? 0 : 1), // (59.5 between two games)
      `${row.p10}–${row.p90}`,
      String(row.best),
      String(row.worst),
      percent(row.within),
      fixed(row.hunt_mean),
      fixed(row.target_mean),
    ]).dataset.strategy = row.strategy;
  }
  const exact = data.table.exact_random;
  addRow(body, [
    t("st.exact"),
    fixed(exact.mean, 2),
    "",
    fixed(exact.stdev),
    fixed(exact.median, 0),
    `${exact.p10}–${exact.p90}`,
    String(exact.best),
    String(exact.worst),
    percent(exact.within),
    "",
    "",
  ]).className = "exact";
  $("table-title").textContent = t("st.table.title", {
    games: data.games,
    rules: t(`rules.${data.rules}`),
  });
}

// Empties ``table`` and heads it with ``columns``; its body, for addRow.
function newTable(table, columns) {
  table.innerHTML = "";
  const head = table.createTHead().insertRow();
  for (const text of columns) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = text;
    head.append(th);
  }
  return table.createTBody();
}

function addRow(body, cells) {
  const tr = body.insertRow();
  cells.forEach((text, i) => {
    const cell = document.createElement(i === 0 ? "th" : "td");
    if (i === 0) cell.scope = "row";
    cell.textContent = text;
    tr.append(cell);
  });
  return tr;
}

// ---- chart -----------------------------------------------------------------------

function svg(name, attributes = {}, text = null) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (text !== null) element.textContent = text;
  return element;
}

// Drawn at the width it is shown at (up to 640), so its text stays readable on a phone.
function renderChart() {
  const width = Math.round(Math.max(300, Math.min(640, $("chart").clientWidth || 640)));
  const height = Math.round(Math.max(260, width * 0.6));
  const m = { left: 66, right: 14, top: 14, bottom: 50 };
  const low = data.ship_cells;
  const high = data.cells;
  const x = (shots) => m.left + ((shots - low) / (high - low)) * (width - m.left - m.right);
  const y = (p) => height - m.bottom - p * (height - m.top - m.bottom);
  const chart = svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "chart",
    role: "img",
    "aria-label": t("st.axis.y"),
  });
  chart.append(svg("title", {}, t("st.chart")));
  for (let p = 0; p <= 1.0001; p += 0.25) {
    const line = { x1: m.left, x2: width - m.right, y1: y(p), y2: y(p), class: "gridline" };
    chart.append(svg("line", line));
    const label = { x: m.left - 6, y: y(p) + 4, "text-anchor": "end" };
    chart.append(svg("text", label, percent(p)));
  }
  for (let shots = Math.ceil(low / 10) * 10; shots <= high; shots += 10) {
    const line = { x1: x(shots), x2: x(shots), y1: m.top, y2: y(0), class: "gridline" };
    chart.append(svg("line", line));
    const label = { x: x(shots), y: height - m.bottom + 16, "text-anchor": "middle" };
    chart.append(svg("text", label, String(shots)));
  }
  const xAxis = { x1: m.left, x2: width - m.right, y1: y(0), y2: y(0), class: "axis-line" };
  const yAxis = { x1: m.left, x2: m.left, y1: m.top, y2: y(0), class: "axis-line" };
  chart.append(svg("line", xAxis), svg("line", yAxis));
  const title = { "text-anchor": "middle", class: "axis-title" };
  const xTitle = { ...title, x: (m.left + width - m.right) / 2, y: height - 10 };
  const yTitle = { ...title, x: -(m.top + y(0)) / 2, y: 14, transform: "rotate(-90)" };
  chart.append(svg("text", xTitle, t("st.axis.x")), svg("text", yTitle, t("st.axis.y")));
  for (const [name, curve] of Object.entries(data.curves)) {
    let path = `M ${x(low)} ${y(curve[low])}`;
    for (let shots = low + 1; shots <= high; shots++) {
      path += ` H ${x(shots)} V ${y(curve[shots])}`;
    }
    const { colour, dashes } = lineOf(name);
    const drawn = { d: path, class: "curve", stroke: colour, "stroke-dasharray": dashes };
    chart.append(svg("path", { ...drawn, "data-strategy": name }));
  }
  const exact = [];
  for (let shots = low; shots <= high; shots++) exact.push(`${x(shots)},${y(data.exact[shots])}`);
  const dotted = { points: exact.join(" "), class: "exact", "data-strategy": "exact" };
  chart.append(svg("polyline", dotted));
  $("chart").replaceChildren(chart);
  renderLegend();
  renderFigures();
}

function renderLegend() {
  const legend = $("legend");
  legend.innerHTML = "";
  for (const row of Object.values(data.table.strategies)) {
    const label = t(`strategy.${row.strategy}`);
    legend.append(legendItem(label, fixed(row.mean), lineOf(row.strategy)));
  }
  legend.append(legendItem(t("st.exact"), fixed(data.table.exact_random.mean, 2), EXACT));
}

// A legend entry: a short stretch of the curve's line, its name and mean.
function legendItem(label, mean, { colour, dashes }) {
  const item = document.createElement("li");
  const swatch = svg("svg", { class: "swatch", viewBox: "0 0 28 6", "aria-hidden": "true" });
  const line = { x1: 0, x2: 28, y1: 3, y2: 3, stroke: colour, "stroke-dasharray": dashes };
  swatch.append(svg("line", line));
  item.append(swatch, `${label} (${t("st.mean", { mean })})`);
  return item;
}

// The chart's figures as a table (for screen readers, and for reading them exactly):
// for every t, the share of games each strategy had done within t shots.
function renderFigures() {
  const names = Object.keys(data.curves);
  const columns = [t("st.axis.x"), ...names.map((n) => t(`strategy.${n}`)), t("st.exact")];
  const body = newTable($("figures"), columns);
  for (let shots = data.ship_cells; shots <= data.cells; shots++) {
    const shares = names.map((name) => percent(data.curves[name][shots], 1));
    addRow(body, [String(shots), ...shares, percent(data.exact[shots], 1)]);
  }
}

// ---- tournament matrix -------------------------------------------------------------

function renderMatrix() {
  const { matrix, placers, shooters, games } = data.tournament;
  const columns = ["st.col.shooter", ...placers.map((p) => `placer.${p}`)].map((key) => t(key));
  const body = newTable($("matrix"), columns);
  for (const shooter of shooters) {
    const cells = placers.map((placer) => {
      const { mean, versus_uniform: versus } = matrix[shooter][placer];
      const added = versus ? versus.mean : 0;
      const sign = added > 0 ? "+" : added < 0 ? "−" : "±";
      return placer === "uniform" ? fixed(mean) : `${fixed(mean)} (${sign}${fixed(Math.abs(added))})`;
    });
    addRow(body, [t(`strategy.${shooter}`), ...cells]).dataset.shooter = shooter;
  }
  $("matrix-title").textContent = t("st.matrix.title", {
    games,
    rules: t(`rules.${data.rules}`),
  });
  const list = $("placers");
  list.innerHTML = "";
  for (const placer of placers) {
    const item = document.createElement("li");
    item.textContent = `${t(`placer.${placer}`)}: ${t(`placer.${placer}.about`)}`;
    list.append(item);
  }
}

function render() {
  $("results").classList.toggle("hidden", !data);
  $("compute").textContent = t(data ? "st.recompute" : "st.compute");
  if (!data) return;
  renderTable();
  renderChart();
  renderMatrix();
  showScrollHint();
}

// On a narrow screen the table scrolls sideways: say so.
function showScrollHint() {
  const box = $("table-box");
  $("scroll-hint").classList.toggle("hidden", box.scrollWidth <= box.clientWidth + 1);
}

// ---- loading and computing ---------------------------------------------------------

function showProgress(progress) {
  $("progress-box").classList.remove("hidden");
  const bar = $("progress");
  bar.max = Math.max(progress.total, 1);
  bar.value = progress.done;
  const { done, total } = progress;
  $("progress-text").textContent = t("st.progress.text", { done, total });
}

async function load(token = ++watching) {
  data = null;
  try {
    const answer = await api(`/api/battleship/stats?${query()}`);
    if (token !== watching) return;
    if (answer.state === "ready") {
      data = answer;
      setStatus(() => t("st.ready", { games: answer.games }), "good");
    } else if (answer.state === "running") {
      showProgress(answer);
      follow(token);
    } else if (answer.state === "failed") {
      setStatus(() => t("st.failed", { detail: answer.detail }), "error");
    } else {
      $("progress-box").classList.add("hidden");
      setStatus(() => t("st.missing", { games: answer.games }));
    }
  } catch (error) {
    setStatus(() => error.message, "error");
  }
  render();
}

async function compute() {
  const token = ++watching;
  try {
    const progress = await api("/api/battleship/stats", {
      method: "POST",
      body: { rules: $("rules").value, games: Number($("games").value) },
    });
    showProgress(progress);
    follow(token);
  } catch (error) {
    setStatus(() => error.message, "error");
  }
}

// Follow a running job until it is ready (then show the table) or has failed.
async function follow(token) {
  const focusBack = focusBackTo($("compute"));
  $("compute").disabled = true;
  setStatus(() => t("st.running"));
  try {
    for (;;) {
      const progress = await api(`/api/battleship/stats/progress?${query()}`);
      if (token !== watching) return;
      showProgress(progress);
      if (progress.state === "ready") {
        await load(token);
        return;
      }
      if (progress.state !== "running") {
        setStatus(() => t("st.failed", { detail: progress.detail || progress.state }), "error");
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } catch (error) {
    setStatus(() => error.message, "error");
  } finally {
    if (token === watching) {
      $("compute").disabled = false;
      focusBack();
    }
  }
}

function remember() {
  const url = new URL(location.href);
  url.searchParams.set("rules", $("rules").value);
  url.searchParams.set("games", $("games").value);
  history.replaceState(null, "", url);
}

async function init() {
  renderChrome();
  let options;
  try {
    options = await api("/api/battleship/options");
  } catch (error) {
    setStatus(() => error.message, "error");
    return;
  }
  const params = new URLSearchParams(location.search);
  const rules = $("rules");
  for (const r of options.rules) {
    const option = new Option(t(`rules.${r.name}`), r.name);
    option.dataset.i18n = `rules.${r.name}`;
    rules.append(option);
  }
  rules.value = params.get("rules") || "classic";
  if (!rules.value) rules.value = options.rules[0].name;
  describeRules(rules);
  const games = $("games");
  const choices = GAME_CHOICES.filter((n) => n >= options.games.min && n <= options.games.max);
  for (const n of choices) games.append(new Option(String(n), String(n)));
  games.value = params.get("games") || String(options.games.default);
  if (!games.value) games.value = String(options.games.default);
  for (const select of [rules, games]) {
    select.addEventListener("change", () => {
      remember();
      $("progress-box").classList.add("hidden");
      $("compute").disabled = false;
      load();
    });
  }
  $("compute").addEventListener("click", compute);
  $("compute").disabled = false; // (disabled in the page until now, so that no tap is lost)
  let resizing = 0;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => {
      if (!data) return;
      renderChart();
      showScrollHint();
    }, 150);
  });
  document.addEventListener("languagechange", () => {
    render();
    if (message) say($("status"), message.render(), message.kind);
    if (!$("progress-box").classList.contains("hidden")) {
      const bar = $("progress");
      $("progress-text").textContent = t("st.progress.text", { done: bar.value, total: bar.max });
    }
  });
  await load();
}

init();
