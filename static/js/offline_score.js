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
    if (overAt(data) !== null) {
      preview.textContent = ""; // the form's notice says it (#offline-over), once
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

  // A tap (change) or a keystroke in a number box (input, Turnover's tricks).
  for (const type of ["change", "input"]) {
    document.addEventListener(type, (event) => {
      const entry = form();
      if (entry && entry.contains(event.target) && phoneScores()) phoneLine();
    });
  }
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
  document.addEventListener("offline:rendered", showOver);
  document.addEventListener("offline:rendered", drawPad);
  // Online again with nothing waiting (the queue as the first listener read it): the phone's
  // line ("… on this phone, not yet sent") of the taps still held gives way to the server's,
  // asked for those taps as a tap would.
  document.addEventListener("offline:rendered", () => {
    const entry = form();
    const preview = previewOf(entry);
    if (!preview || preview.dataset.phone !== "true" || phoneScores()) return;
    delete preview.dataset.phone;
    if (window.htmx) window.htmx.trigger(entry, "change");
  });
  // The server's pad drawn again (the live poll, htmx) while deals still wait: theirs again.
  document.addEventListener("backscore:morphed", () => {
    drawPad();
    showOver();
  });
  document.addEventListener("htmx:afterSettle", (event) => {
    if (event.detail.elt && event.detail.elt.id === "live") {
      drawPad();
      showOver();
    }
  });

  // --- a match over on the phone ----------------------------------------------------------------
  // The number of the waiting deal with which the match ended on this phone (the server will
  // have the final word), or null while it goes on. A deal after it belongs to the next match,
  // which only the server opens: the form takes none (offline.js asks `data-over`).
  function overAt(data) {
    const pending = waiting.filter((deal) => deal.state === "pending");
    if (!data || !pending.length) return null;
    const { sheet, count } = phoneSheet(data, null);
    if (!sheet || count < pending.length || !sheet.complete) return null;
    return pending[pending.length - 1].number;
  }

  const overWords = (data) => fmt(T.over, { n: overAt(data) });

  function showOver() {
    const entry = form();
    if (!entry) return;
    const data = figures();
    const at = overAt(data);
    let notice = document.getElementById("offline-over");
    const record = entry.querySelector("#record");
    if (at === null) {
      if (notice) notice.remove();
      if (entry.dataset.over) {
        delete entry.dataset.over;
        if (record) record.disabled = false;
        const preview = previewOf(entry);
        if (preview) preview.textContent = preview.dataset.tap || T.tap;
      }
      return;
    }
    entry.dataset.over = String(at);
    if (record) record.disabled = true;
    if (!notice) {
      notice = document.createElement("p");
      notice.id = "offline-over";
      notice.className = "notice offline-over";
      notice.setAttribute("role", "status");
      entry.prepend(notice);
    }
    notice.textContent = overWords(data);
    // Said once, in the notice above the form: not again beside the disabled Record.
    const preview = previewOf(entry);
    if (preview) preview.textContent = "";
  }

  // --- the waiting deals on the pad itself ------------------------------------------------------
  // Each waiting deal's items on the pad, its row in the deal list with the running totals, and
  // the pad's totals: the phone's, each marked "not yet sent" (`data-unsent`); drawn again from
  // the server's pad each time, so the server's figures replace them once the deals arrive.
  function unsentMark() {
    const mark = document.createElement("small");
    mark.className = "unsent-mark";
    mark.dataset.unsent = "";
    mark.textContent = T["unsent-short"];
    return mark;
  }

  function phoneFigure(el, value) {
    if (!el) return;
    if (el.dataset.serverText === undefined) el.dataset.serverText = el.textContent;
    el.textContent = String(value);
    el.classList.add("unsent");
  }

  function clearPad() {
    document.querySelectorAll("[data-unsent]").forEach((el) => el.remove());
    document.querySelectorAll("[data-server-text]").forEach((el) => {
      el.textContent = el.dataset.serverText;
      delete el.dataset.serverText;
      el.classList.remove("unsent");
    });
  }

  // The waiting deals the phone scores (as many as the rules take) and the sheet with them.
  function phoneDeals(data) {
    const pending = waiting.filter((deal) => deal.state === "pending");
    const { sheet, count } = data && pending.length ? phoneSheet(data, null) : { sheet: null, count: 0 };
    return sheet ? { sheet, kept: pending.slice(0, count) } : null;
  }

  function drawPad() {
    clearPad();
    const data = figures();
    const found = phoneDeals(data);
    const pad = document.getElementById("pad");
    if (!found || !pad) return;
    const { sheet, kept } = found;
    const left = (side) => String(side) === data.order[0];
    const first = data.deals.length; // the sheet's index of the first waiting deal
    // A race or a trick counter: each player's figure ("#score-0", "#tricks-1").
    const counters = pad.querySelectorAll(".counter .num[id]");
    if (counters.length) {
      counters.forEach((el) => phoneFigure(el, sheet.totals[Number(el.id.split("-").pop())]));
    } else {
      drawItems(pad, data, sheet, first, left);
    }
    drawRows(data, sheet, kept, first);
    drawMini(data, sheet);
    const note = document.createElement("p");
    note.className = "muted unsent-note";
    note.id = "pad-unsent";
    note.dataset.unsent = "";
    note.textContent = T["pad-unsent"];
    pad.after(note);
  }

  // The running score beside the entry's "Deal n": the phone's too, and who is vulnerable on
  // the phone (a rubber), each mark the phone adds removed with its figures.
  function drawMini(data, sheet) {
    const mini = document.getElementById("mini-totals");
    if (!mini) return;
    ["we", "they"].forEach((place, i) => {
      const el = mini.querySelector(`:scope > .${place}`);
      if (!el) return;
      const side = data.order[i];
      const server = el.dataset.serverText === undefined ? el.textContent : el.dataset.serverText;
      phoneFigure(el, server.replace(/-?\d+\s*$/, String(sheet.totals[column(data, side)])));
      const vul = el.nextElementSibling && el.nextElementSibling.classList.contains("vul");
      if (data.kind === "rubber" && sheet.vulnerable && sheet.vulnerable[column(data, side)] && !vul) {
        const mark = document.createElement("span");
        mark.dataset.unsent = "";
        const words = document.createElement("small");
        words.className = "vul";
        words.textContent = T.vul;
        mark.append(" ", words);
        el.after(mark);
      }
    });
  }

  // A paper pad: each item above the line or below it in its game, the totals.
  function drawItems(pad, data, sheet, first, left) {
    const col = (row, side) => row && row.querySelector(left(side) ? ".pad-col.we" : ".pad-col.they");
    const above = pad.querySelector(".pad-row:not(.pad-line):not(.pad-game-line):not(.pad-total)");
    const lines = pad.querySelectorAll(".pad-row.pad-line, .pad-row.pad-game-line");
    let below = lines[lines.length - 1];
    const inputs = phoneInputs(data);
    sheet.deals.slice(first).forEach((deal, i) => {
      const last = i === sheet.deals.length - first - 1;
      const ends = last && sheet.complete && sheet.endItems ? sheet.endItems : [];
      for (const item of [...deal.items, ...ends]) {
        const target = col(item.line === "below" ? below : above, item.side);
        if (!target) continue;
        const div = document.createElement("div");
        div.className = "pad-item unsent";
        div.dataset.unsent = "";
        div.dataset.reason = item.reason;
        const figure = document.createElement("span"); // one line, as the server's summary
        const number = document.createElement("small");
        number.className = "muted";
        number.textContent = `#${deal.number}`;
        figure.append(`${item.points} `, number, " ", unsentMark());
        div.append(figure);
        target.append(div);
      }
      // A game won by this deal: the next one's items go under a new line.
      if (below && !(sheet.complete && last) && gamesOf(data, inputs, i) > gamesOf(data, inputs, i - 1)) {
        const row = document.createElement("div");
        row.className = "pad-row pad-game-line unsent";
        row.dataset.unsent = "";
        row.innerHTML = '<div class="pad-col we"></div><div class="pad-col they"></div>';
        below.after(row);
        below = row;
      }
    });
    data.order.forEach((side, index) => {
      phoneFigure(pad.querySelector(`.pad-total .pad-col.${index === 0 ? "we" : "they"}`), sheet.totals[column(data, side)]);
    });
  }

  function phoneInputs(data) {
    return waiting
      .filter((deal) => deal.state === "pending")
      .map((deal) => engineInput(data.kind, fromPairs(deal.fields)));
  }

  // Games won after the recorded deals and the first `index + 1` waiting ones.
  function gamesOf(data, inputs, index) {
    const games = S.scoreMatch(data.kind, data.deals.concat(inputs.slice(0, index + 1)), { options: data.options }).games;
    return games ? games[0] + games[1] : 0;
  }

  // The deal list: a row for each waiting deal, with the running totals, "not yet sent".
  function drawRows(data, sheet, kept, first) {
    let body = document.querySelector("#deals tbody");
    if (!body) {
      const empty = document.querySelector(".deals-col .empty");
      const table = document.createElement("table");
      table.className = "data";
      table.id = "deals-unsent";
      table.dataset.unsent = "";
      body = document.createElement("tbody");
      table.append(body);
      if (empty) empty.after(table);
      else return;
    }
    const running = [0, 0];
    sheet.deals.forEach((deal, i) => {
      const ends = i === sheet.deals.length - 1 && sheet.complete && sheet.endItems ? sheet.endItems : [];
      for (const item of [...deal.items, ...ends]) running[column(data, item.side)] += item.points;
      if (i < first) return;
      const queued = kept[i - first];
      const row = document.createElement("tr");
      row.id = `unsent-${queued.number}`;
      row.className = "unsent";
      row.dataset.unsent = "";
      const cells = [String(queued.number), queued.summary, ...data.order.map((side) => String(running[column(data, side)]))];
      cells.forEach((text, c) => {
        const cell = document.createElement("td");
        cell.textContent = text;
        if (c >= 2) cell.className = "num";
        if (c === 1) cell.append(" ", unsentMark());
        row.append(cell);
      });
      body.append(row);
    });
  }
})();
