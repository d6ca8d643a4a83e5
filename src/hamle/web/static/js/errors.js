// The server's errors in Turkish, by code. The server sends each error's English text
// (detail), its code and the values it is made of (params); {name} takes a value,
// {name|words} puts it through WORDS[words], and a list takes LISTED[name] per item.

export const ERRORS_TR = {
  "cell.not_a_name": "{name} bir kare adı değil (bir sütun harfi ve bir satır numarası yaz, E5 gibi).",
  "cell.empty_item": "{text} listesinde boş bir öğe var; iki karenin arasına yalnızca bir virgül koy.",
  "cell.one_letter": "{name} bir kare adı değil (tek bir sütun harfi olmalı, E5 gibi).",
  "cell.off_board": "{cell}, {rows}×{cols} tahtanın dışında.",
  "cell.index_off_board": "{index} numaralı kare, {rows}×{cols} tahtanın dışında.",
  "cell.not_a_cell": "{index} bir kare değil (E5 gibi bir ad ya da bir tam sayı sırası olmalı).",
  "cell.rows": "Bir tahtanın 1 ile {most} arası satırı olur, {value} değil.",
  "cell.columns": "Bir tahtanın 1 ile {most} arası sütunu olur, {value} değil.",

  "battleship.afloat_not_in_fleet":
    "Batan gemiler çıkınca filoda {length} karelik yüzen bir gemi kalmıyor.",
  "battleship.all_sunk": "Oyun bitti: bütün gemiler battı.",
  "battleship.none_afloat": "Yüzen gemi yok; ateş edilecek bir yer kalmadı.",
  "battleship.already_shot": "{cell} karesine zaten ateş edildi.",
  "battleship.cells_as_text": "Bir kare listesi bekleniyordu, yazı geldi: {text}",
  "battleship.cells_not_a_list": "Bir kare listesi bekleniyordu, {value} geldi.",
  "battleship.afloat_not_a_list": "Yüzen gemiler bir uzunluk listesi olmalı, {value} değil.",
  "battleship.afloat_not_whole": "Yüzen bir geminin uzunluğu 5 gibi bir tam sayı olarak yazılmalı, {value} değil.",
  "battleship.bad_answer": "{cell} için bilinmeyen yanıt: {answer}",
  "battleship.sunk_not_afloat": "Batan gemi {cells} ({length} kare) yüzen gemiler arasında değil.",
  "battleship.computer_won": "Oyun bitti: bilgisayar kazandı.",
  "battleship.count_bits": "Bu tahtadaki sayılar {bits} bitten, kesin sayımın tutabildiğinden büyük olabilir.",
  "battleship.distinct_cells": "Bir geminin kareleri birbirinden farklı olmalı; gelenler: {cells}",
  "battleship.busy": "Motor başka ağır isteklerle meşgul; birazdan yeniden dene.",
  "battleship.yours_busy": "Motor adresinden gelen bir isteği hâlâ işliyor; o bitince yeniden dene.",
  "battleship.heat_not_hard": "Isı haritası Zor seviyenin düşüncesini gösterir; bu oyun Zor değil.",
  "battleship.hit_none_afloat": "{cell} karesinde isabet var, ama onu açıklayacak yüzen gemi yok.",
  "battleship.hit_unexplained": "Yüzen gemilerin hiçbiri {cell} karesindeki isabeti açıklayamıyor.",
  "battleship.hits_need_ships":
    "Açık isabetler ({hits}) en az {needed} gemi gerektiriyor, ama yüzen gemi sayısı {afloat}.",
  "battleship.hits_touch_corner":
    "{cell} ve {other} isabetleri yalnızca köşeden değiyor; oysa gemiler birbirine değemez.",
  "battleship.known_water": "{cell}, {ship} batık gemisine değiyor, yani su: başka yere at.",
  "battleship.given_twice": "{cell} iki kez {mark|mark} olarak verilmiş.",
  "battleship.marked_twice": "{cell} iki kez işaretlenmiş ({first|mark} ve {second|mark}).",
  "battleship.memory":
    "Bu tahtayı tam saymak yaklaşık {need} GiB bellek ister, izin verilen {limit} GiB'tan fazla; daha küçük bir tahta ya da filo dene.",
  "battleship.memory_estimate":
    "Bu tahtayı tam saymak çok fazla bellek ister (üstten tahmini {estimate} GiB'ı aştı, izin verilen {limit} GiB); daha küçük bir tahta ya da filo dene.",
  "battleship.no_layout": "Yüzen gemilerin hiçbir dizilişi bu işaretlere uymuyor.",
  "battleship.fleet_not_a_list": "Filo, her biri bir kare listesi olan gemilerin listesi olmalı, {value} değil.",
  "battleship.fleet_does_not_fit": "Gemiler ({afloat}) hiç işaret olmasa da bu tahtaya birlikte sığmıyor.",
  "battleship.no_room": "Tahtada {length} karelik yüzen gemiye yer kalmadı.",
  "battleship.not_a_line": "{cells} düz ve kesintisiz bir kare dizisi değil.",
  "battleship.ship_count": "Filoda {ships} gemi var, {given} gemi verildi.",
  "battleship.ship_length": "{ship|ship} {length} kare uzunluğunda, {given} değil.",
  "battleship.ships_overlap": "{ship|ship} ile {other|ship} {cell} karesinde üst üste biniyor.",
  "battleship.ships_touch": "{ship|ship} ile {other|ship} {cell} karesinde birbirine değiyor.",
  "battleship.stats_busy": "Şu an {running} istatistik hesabı sürüyor; biri bitince yeniden dene.",
  "battleship.stats_yours_busy":
    "Adresinden başlatılan bir istatistik hesabı hâlâ sürüyor; o bitince yeniden dene.",
  "battleship.sunk_length": "Batık gemi {cells} {length} kare uzunluğunda; filoda bu uzunlukta gemi yok.",
  "battleship.sunk_not_hit": "Batık gemi {cells}, hiç isabet almamış {cell} karesini kapsıyor.",
  "battleship.sunk_overlap": "İki batık gemi {cell} karesinde üst üste biniyor.",
  "battleship.too_many_hits":
    "{hits} açık isabet var, ama yüzen gemilerin toplam {cells} karesi var.",
  "battleship.too_many_layouts": "Bu işaretlere tam olarak birini seçmek için çok fazla diziliş uyuyor.",
  "battleship.too_many_profiles":
    "Bu tahta ve filonun tam sayım için çok fazla yarım dizilişi var; daha küçük bir tahta ya da filo dene.",
  "battleship.too_many_sunk":
    "{length} karelik batık gemi sayısı fazla ({cell} karesinde): filoda {have} tane var.",
  "battleship.too_wide":
    "{cols} kare genişliğinde, {longest} kareye kadar gemileri olan bir tahta tam sayım için fazla geniş.",
  "battleship.touches_sunk":
    "{cell} ({mark|mark}), {ship} batık gemisine değiyor; oysa gemiler birbirine değemez.",
  "battleship.you_won": "Oyun bitti: sen kazandın.",

  "mastermind.answer_numbers": "Siyah ve beyaz 0 ya da daha büyük tam sayılar olmalı, {black} {white} değil.",
  "mastermind.answer_text": "{text} bir yanıt değil: siyah ve beyazı yaz, 2 1 gibi.",
  "mastermind.cannot_happen": "{black} siyah, {white} beyaz bu oyunda olamaz.",
  "mastermind.changed":
    "Oyun {changes}. değişiklikten beri başka bir sayfada değişti (şimdi {now}. değişiklikte).",
  "mastermind.colour_range": "{guess}: {position}. pimdeki {colour} rengi {low}-{high} arasında değil.",
  "mastermind.computer_guesses": "Bu bir kod koyma oyunu: tahminleri bilgisayar yapar.",
  "mastermind.guessed": "{guess} zaten {number}. tahminin.",
  "mastermind.impossible": "Hiçbir gizli kod şu yanıtı vermez: {answers}.",
  "mastermind.impossible_typo":
    "Hiçbir gizli kod şu yanıtı vermez: {answers}; büyük olasılıkla {turn}. yanıt {black} siyah, {white} beyaz olmalı ({left} aday kalır).",
  "mastermind.inconsistent": "Hiçbir gizli kod bu yanıtların hepsini vermez: {answers} birlikte doğru olamaz.",
  "mastermind.inconsistent_typo":
    "Hiçbir gizli kod bu yanıtların hepsini vermez: {answers} birlikte doğru olamaz; büyük olasılıkla {turn}. yanıt {black} siyah, {white} beyaz olmalı ({left} aday kalır).",
  "mastermind.not_a_code": "{guess} bir kod değil: {low}-{high} arası {pegs} rakam yaz.",
  "mastermind.not_a_code_of": "{value} bu oyunun bir kodu değil: 0-{last} arası sırasını ya da {pegs} rakam ver.",
  "mastermind.not_an_answer_of": "{value} bu oyunda bir yanıt değil: (siyah, beyaz) ya da olabilen bir yanıtın sırasını ver.",
  "mastermind.not_digits": "Bir kod rakamlarla yazılır, {value} ile değil.",
  "mastermind.not_the_guess": "Bu yanıt {answered} için, ama yanıt bekleyen tahmin {guess}.",
  "mastermind.nothing_to_undo": "Geri alınacak yanıt yok.",
  "mastermind.one_white": "{pegs} pimle {black} siyah ve 1 beyaz olamaz.",
  "mastermind.optimal_maker_only": "En iyi strateji yalnızca bilgisayar senin kodunu çözerken oynar.",
  "mastermind.optimal_not_solved":
    "En iyi strateji sunulmuyor: {variant} için ağacı bu sunucuda henüz çözülmedi (birkaç dakikalık bir arama).",
  "mastermind.optimal_too_big": "En iyi strateji sunulmuyor: {variant}, en iyi aramanın ulaşabileceğinden büyük.",
  "mastermind.out_of_guesses": "Bilgisayar {most} tahmin hakkını kullandı.",
  "mastermind.over": "Bu oyun bitti; yeni bir oyun başlat.",
  "mastermind.repeats": "{guess} içinde {repeated} tekrar ediyor; bu oyunda tekrar yok.",
  "mastermind.share_colours":
    "{black} siyah, {white} beyaz olamaz: tekrarsız iki kod en az {least} rengi paylaşır.",
  "mastermind.strategy_not_offered": "{strategy} stratejisi {variant} için sunulmuyor; şunlardan birini seç: {offered}",
  "mastermind.too_many_pegs": "{black} siyah ve {white} beyaz, {pegs} pimden fazla ediyor.",
  "mastermind.undo_maker_only": "Yalnızca kod koyma oyununda bir yanıt geri alınabilir.",
  "mastermind.variant_not_offered": "{variant} türü burada sunulmuyor; şunlardan birini seç: {offered}",
  "mastermind.you_guess": "Bu bir kod kırma oyunu: tahminleri sen yaparsın.",

  "tour.complete": "Tur tamamlandı: geri alınacak bir şey yok.",
  "tour.done": "Tur tamamlandı: bütün kareler dolu.",
  "tour.filled": "{cell} zaten dolu.",
  "tour.hint_mode": "{mode} diye bir ipucu türü yok; hint ya da quick seç.",
  "tour.not_a_date": "{date} bir tarih değil; YYYY-AA-GG biçiminde yaz, 2026-12-01 gibi.",
  "tour.not_a_jump": "{cell}, {here} karesinden bir sıçrama uzakta değil (düz 3 kare ya da çapraz 2 kare).",
  "tour.not_current": "Oyun artık {cell} karesinde değil, {current} karesinde: başka bir sayfada değişti.",
  "tour.changed": "Oyun {turn}. adımdan beri başka bir sayfada değişti (şimdi {now}. adımda).",
  "tour.moved": "İpucu hesaplanırken oyunda hamle yapıldı; yeniden iste.",
  "tour.no_puzzle": "{date} için günün bulmacası yok; {first} ile {last} arasında bir tarih seç.",
  "tour.not_yet": "{date} günün bulmacası henüz çıkmadı: Türkiye'de bugün {today}, her bulmaca orada gece yarısı çıkar.",
  "tour.nothing_to_undo": "Geri alınacak hamle yok: yalnızca başlangıç karesi dolu.",
  "tour.stuck": "Oyun bitti: {cell} karesinden hiçbir sıçrama boş bir kareye ulaşmıyor.",

  "site.invalid_request": "Sunucu isteği anlamadı: {problems}",
  "site.no_game": "Bu kimlikle bir oyun yok.",
  "site.game_changed": "Oyun bu arada başka bir yerde değişti; yeniden yükle.",
  "site.game_busy": "Bu oyundaki bir istek hâlâ yanıtlanıyor, bir başkası da onu bekliyor; onlar bitince yeniden gönder.",
  "site.store_failed": "Sunucu oyunları saklayamadı; biraz sonra yeniden dene.",
  "site.failed": "Sunucu bu istekte bir hataya düştü.",
  "site.too_large": "İstek gövdesi {limit} baytı aşıyor.",
  "site.wrong_host": "Bu site {host} adıyla sunulmuyor; onu kendi adresinden ya da localhost üzerinden aç, ya da --allow-host {host} ile başlat.",
  "site.cross_site": "Başka bir siteden ({origin}) gelen bir istek burada hiçbir şeyi değiştiremez.",
  "site.too_many_games": "Bu adresten dakikada en çok {limit} yeni oyun başlatılabilir; sonrakini {seconds} saniye sonra başlat.",
  "site.http_400": "Sunucu istek gövdesini okuyamadı.",
  "site.http_404": "Böyle bir adres yok.",
  "site.http_405": "Bu adres bu isteği kabul etmiyor.",
};

// Per list-valued param, how one item reads: a template, or a function of the item giving it.
const LISTED = {
  answers: "{turn}. tahmin ({guess} → {black} siyah, {white} beyaz)",
  // A problem with a field names it; one with the body as a whole (field "") says its own.
  problems: (problem) =>
    problem.field ? "{field} {type|problem}" : BODY_PROBLEMS[problem.type] ?? "{type|problem}",
};

// What is wrong with a request body as a whole, by problem type (app.py ``_whole_body`` and
// ``_unreadable``).
const BODY_PROBLEMS = {
  missing: "istek gövdesi eksik",
  not_json: "istek gövdesi JSON olarak gönderilmeli (Content-Type: application/json), {sent|sent} olarak değil",
  model_attributes_type: "istek gövdesi bir JSON nesnesi olmalı",
  model_type: "istek gövdesi bir JSON nesnesi olmalı",
  dict_type: "istek gövdesi bir JSON nesnesi olmalı",
  json_invalid: "istek gövdesi geçerli JSON değil: {position}. karakterde bir yazım hatası var",
  json_repeated_name: "istek gövdesinde {name} adı bir nesnede iki kez verilmiş",
  json_too_deep: "istek gövdesi fazla derin iç içe geçmiş",
  json_too_many_digits: "istek gövdesindeki bir sayının {limit} basamaktan fazlası var",
  json_not_utf8: "istek gövdesi UTF-8 yazı değil",
  daily_start: "günün bulmacasının kendi başlangıç karesi var; başlangıcı seçmek için serbest oyunu seç",
  free_date: "tarih günün bulmacasını seçer; serbest oyun bir başlangıç karesi alır",
};

const WORDS = {
  mark: { miss: "ıska", hit: "isabet", sunk: "batık" },
  ship: {
    Carrier: "Uçak gemisi",
    Battleship: "Zırhlı",
    Cruiser: "Kruvazör",
    Submarine: "Denizaltı",
    Destroyer: "Muhrip",
    Boat: "Bot",
    "sunk ship": "batık gemi",
  },
  sent: { "": "türü belirtilmemiş baytlar" },
  problem: {
    missing: "eksik",
    extra_forbidden: "bilinmeyen bir alan",
    repeated: "birden çok kez verilmiş",
    string_type: "yazı olmalı",
    string_unicode: "geçerli bir yazı değil",
    int_type: "tam sayı olmalı",
    int_parsing: "tam sayı olmalı",
    int_from_float: "tam sayı olmalı",
    bool_type: "doğru ya da yanlış olmalı",
    bool_parsing: "doğru ya da yanlış olmalı",
    list_type: "liste olmalı",
    dict_type: "nesne olmalı",
    model_type: "nesne olmalı",
    model_attributes_type: "nesne olmalı",
    literal_error: "izin verilen değerlerden biri değil",
    enum: "izin verilen değerlerden biri değil",
    greater_than_equal: "çok küçük",
    greater_than: "çok küçük",
    less_than_equal: "çok büyük",
    less_than: "çok büyük",
    too_short: "çok kısa",
    too_long: "çok uzun",
    string_too_short: "çok kısa",
    string_too_long: "çok uzun",
    string_pattern_mismatch: "biçimi yanlış",
    date_from_datetime_parsing: "tarih değil",
    date_parsing: "tarih değil",
  },
};

// A value as text: translated through WORDS[words] if given ("Cruiser 2" keeps its number).
function word(value, words) {
  const table = WORDS[words];
  if (!table) return String(value);
  if (value in table) return table[value];
  const numbered = /^(.*?)( \d+)$/.exec(String(value));
  return numbered && numbered[1] in table ? table[numbered[1]] + numbered[2] : String(value);
}

// Params that repeat what was sent, shown as sent (a code 1296 is no count of 1.296).
const AS_SENT = new Set(["value", "guess", "code", "index", "game", "seed", "date", "number"]);

function fill(template, params, lists = false) {
  return template.replace(/\{(\w+)(?:\|(\w+))?\}/g, (whole, name, words) => {
    if (!(name in params)) return whole;
    const value = params[name];
    if (Array.isArray(value) && !lists) {
      const listed = LISTED[name];
      return value
        .map((each) => {
          if (!listed || !each || typeof each !== "object") return String(each);
          return fill(typeof listed === "function" ? listed(each) : listed, each, true);
        })
        .join(", ");
    }
    return Number.isInteger(value) && Math.abs(value) >= 1000 && !AS_SENT.has(name)
      ? value.toLocaleString("tr-TR") // (1.296: the thousands separator)
      : word(value, words);
  });
}

// The Turkish text of an error response ({detail, code, params}), or null if it has none.
export function turkishError({ code, params = {} }) {
  const template = ERRORS_TR[code];
  if (!template) return null;
  // (a list cut short gives the count of the rest as `more`)
  const text = fill(template, params).trim() + (params.more ? ` ve ${params.more} tane daha` : "");
  return params.context ? `${word(params.context, "ship")}: ${text}` : text;
}
