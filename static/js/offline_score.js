// The score of deals kept on this phone (docs/offline.md, "A score offline").
//
// Offline, or while deals wait to be sent, the phone scores them itself with the engine's rules
// in JavaScript (static/js/scorer.js): the live line under the buttons, and each waiting deal and
// the running score in the queue's panel, all marked "not yet sent". The server stays the
// authority: online with nothing waiting, the live line is the server's, and once the deals
// arrive the pad is the server's again (the panel's figures go with the queue).
// Reads the recorded deals from the pad (#offline-figures, kept fresh by the live poll) and the
// queue from static/js/offline.js (its "offline:rendered" event).
(() => {
  "use strict";

  const root = document.getElementById("offline");
  const S = window.BackscoreScorer;
  if (!root || !S) return;

  const T = {};
  document.querySelectorAll("#offline-text [data-key]").forEach((el) => {
    T[el.dataset.key] = el.textContent.trim();
  });
  const fmt = (text, values) => text.replace(/%\((\w+)\)s/g, (_m, name) => String(values[name]));
  let waiting = []; // the queue as offline.js last drew it

  function figures() {
    const data = document.getElementById("offline-figures");
    return data ? JSON.parse(data.textContent) : null;
  }

  // A deal's taps (`get(name)`, "" when not tapped) as the engine reads it, or null when
  // incomplete: the same fields the server's forms read (games/forms/).
  function engineInput(kind, get) {
    const num = (name) => (get(name) === "" ? null : Number(get(name)));
    const honours = (code) => {
      const [player, points] = code.split(":");
      return { player: Number(player), points: Number(points) };
    };
    if (kind === "rubber" || kind === "chicago") {
      const level = get("level");
      if (level === "pass") return { contract: "pass" };
      if (!level || !get("strain") || !get("declarer") || get("result") === "") return null;
      const deal = {
        contract: `${level}${get("strain")}${get("doubling")}`,
        declarer: "NS".includes(get("declarer")) ? "NS" : "EW",
        tricks: Number(level) + 6 + Number(get("result")),
      };
      const code = get("honours");
      if (code) deal.honours = { side: code.slice(0, 2), points: Number(code.slice(2)) };
      return deal;
    }
    if (kind === "turnover") {
      return get("tricks_0") === "" || get("tricks_1") === "" ? null : { tricks: [num("tricks_0"), num("tricks_1")] };
    }
    if (kind === "draw_discard") {
      if (get("level") === "pass") return { contract: "pass" };
      if (!get("level") || !get("strain") || get("declarer") === "" || get("tricks") === "") return null;
      return { contract: `${get("level")}${get("strain")}${get("doubled")}`, declarer: num("declarer"), tricks: num("tricks") };
    }
    // Bridge for Two and Misery Bridge
    const declaration = kind === "misery" ? get("declaration") : "ordinary";
    const strain = get("strain") || (declaration === "misery" ? "NT" : "");
    if (get("declarer") === "" || !strain || !declaration || get("tricks") === "") return null;
    const deal = { declarer: num("declarer"), strain, tricks: num("tricks"), doubled: get("doubled") ? 1 : 0 };
    if (kind === "misery") deal.declaration = declaration;
    if (get("honours")) deal.honours = honours(get("honours"));
    return deal;
  }

  const fromPairs = (fields) => (name) => {
    const found = fields.find(([key]) => key === name);
    return found ? String(found[1]) : "";
  };

  // The match with the waiting deals (and `extra`) added: as many as the rules take, in order.
  function phoneSheet(data, extra) {
    const inputs = waiting
      .filter((deal) => deal.state === "pending")
      .map((deal) => engineInput(data.kind, fromPairs(deal.fields)));
    if (extra) inputs.push(extra);
    let best = { sheet: null, count: 0 };
    for (let n = 1; n <= inputs.length && inputs[n - 1]; n += 1) {
      try {
        best = { sheet: S.scoreMatch(data.kind, [...data.deals, ...inputs.slice(0, n)], { options: data.options }), count: n };
      } catch (error) {
        if (!(error instanceof S.Refused)) throw error;
        break;
      }
    }
    return best;
  }

  // Where a side's points add up: NS or player 0 first, as the engine's totals.
  const column = (_data, side) => (String(side) === "NS" || String(side) === "0" ? 0 : 1);

  // "We +420, They +100" (the pad's names) or "no score"; a winning deal brings its bonus.
  function pointsWords(data, sheet, index) {
    const points = [0, 0];
    const deal = sheet.deals[index];
    const last = index === sheet.deals.length - 1;
    const ends = last && sheet.complete && sheet.endItems ? sheet.endItems : [];
    for (const item of [...(deal ? deal.items : []), ...ends]) points[column(data, item.side)] += item.points;
    const parts = data.order
      .map((side) => [data.names[side], points[column(data, side)]])
      .filter(([, value]) => value)
      .map(([name, value]) => `${name} +${value}`);
    return (parts.join(", ") || T["no-score"]) + (ends.length && ends[0].reason.endsWith("rubber_bonus") ? T.bonus : "");
  }

  function totalsWords(data, sheet) {
    return data.order.map((side) => `${data.names[side]} ${sheet.totals[column(data, side)]}`).join(" · ");
  }

  // --- the live line --------------------------------------------------------------------------
  const form = () => document.querySelector("#entry");
  const previewOf = (entry) => entry && entry.querySelector("output.preview");
  const phoneScores = () => !navigator.onLine || waiting.length > 0;

  function phoneLine() {
    const entry = form();
    const preview = previewOf(entry);
    const data = figures();
    if (!preview || !data) return;
    const taps = new FormData(entry);
    const input = engineInput(data.kind, (name) => String(taps.get(name) || ""));
    preview.dataset.phone = "true";
    if (!input) {
      preview.textContent = preview.dataset.tap || T.tap;
      return;
    }
    const { sheet, count } = phoneSheet(data, input);
    const all = waiting.filter((deal) => deal.state === "pending").length + 1;
    if (!sheet || count < all) {
      preview.textContent = T["cannot-score"];
      return;
    }
    const words = data.kind === "turnover" ? totalsWords(data, sheet) : pointsWords(data, sheet, sheet.deals.length - 1);
    preview.textContent = `${words} (${T.unsent})`;
  }

  document.addEventListener("change", (event) => {
    const entry = form();
    if (entry && entry.contains(event.target) && phoneScores()) phoneLine();
  });
  // Offline, or behind waiting deals the server does not have yet, the server's line would be
  // missing or of another deal: the phone's stands instead.
  document.addEventListener("htmx:beforeRequest", (event) => {
    const preview = previewOf(form());
    if (preview && event.detail.elt === preview && phoneScores()) {
      event.preventDefault();
      phoneLine();
    }
  });
  document.addEventListener("htmx:sendError", (event) => {
    const preview = previewOf(form());
    if (preview && event.detail.elt === preview) phoneLine();
  });

  // --- the waiting deals and the running score --------------------------------------------------
  document.addEventListener("offline:rendered", (event) => {
    waiting = event.detail.items;
    const data = figures();
    const list = document.getElementById("offline-pending");
    let line = document.getElementById("offline-score");
    if (!line) {
      line = document.createElement("p");
      line.id = "offline-score";
      line.className = "offline-score";
      list.after(line);
    }
    const { sheet, count } = data ? phoneSheet(data, null) : { sheet: null, count: 0 };
    line.hidden = !sheet;
    if (!sheet) return;
    const pending = waiting.filter((deal) => deal.state === "pending");
    pending.slice(0, count).forEach((deal, i) => {
      const points = list.querySelector(`li.pending[data-number="${deal.number}"] .offline-points`);
      if (points) points.textContent = `: ${pointsWords(data, sheet, data.deals.length + i)}`;
    });
    line.textContent = fmt(T["phone-score"], { score: totalsWords(data, sheet) });
  });
})();
