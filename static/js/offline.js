// Entry that survives the club's Wi-Fi (docs/offline.md).
//
// 1. Registers the service worker (/sw.js), on every page.
// 2. On a rubber page (templates/games/_offline.html): keeps the page and its static files in the
//    cache the service worker answers from, so the page opens without a connection.
// 3. The offline queue: a deal recorded while offline (or whose sending failed on the network) is
//    kept in IndexedDB, listed as "saved on this phone, not yet sent", and posted when the
//    connection returns, oldest number first, with its number: the server answers 200 for a
//    retry of the same content (games/offline.py). Another phone's different deal for that number
//    stops the queue there and shows both versions; the player chooses. A session closed (or
//    reopened for the director's corrections) takes no more deals from the phone: they stay on
//    it, listed, with the server's words ("This session is closed: show these to the director."),
//    a deal kept after them is asked about and kept with them, and the kept page is forgotten.
// Nothing here claims a deal is saved until the server has answered that it is.
(() => {
  "use strict";

  const script = document.currentScript;
  if ("serviceWorker" in navigator && script && script.dataset.sw) {
    navigator.serviceWorker.register(script.dataset.sw, { scope: "/" }).catch(() => {});
  }

  // Signing out forgets the kept pages (the next player of a shared phone starts afresh); the
  // deals waiting in the queue stay: they belong to the table, not to the login.
  // A page being kept at that moment finishes first, and none starts after: it would put the
  // page back in the cache just deleted.
  const signOut = script && script.dataset.signOut;
  let keeping = Promise.resolve();
  let signingOut = false;
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!signOut || !("caches" in window) || new URL(form.action).pathname !== signOut) return;
    event.preventDefault();
    signingOut = true;
    keeping
      .then(() => caches.delete("backscore-v1"))
      .catch(() => {})
      .then(() => form.submit());
  });

  const root = document.getElementById("offline");
  if (!root || !("indexedDB" in window)) return;

  const CACHE = "backscore-v1"; // the service worker's cache (static/sw.js)
  const RUBBER = root.dataset.rubber;
  const QUEUE_URL = root.dataset.queueUrl;
  const FORM = root.dataset.form;
  const RETRY_MS = 15000;
  const status = document.getElementById("offline-title");
  const list = document.getElementById("offline-pending");
  const T = {};
  document.querySelectorAll("#offline-text [data-key]").forEach((el) => {
    T[el.dataset.key] = el.textContent.trim();
  });
  const fmt = (text, values) => text.replace(/%\((\w+)\)s/g, (_m, name) => String(values[name]));

  // --- IndexedDB: one store of deals, by rubber ----------------------------------------------
  const dbReady = new Promise((resolve, reject) => {
    const open = indexedDB.open("backscore-offline", 1);
    open.onupgradeneeded = () => {
      const deals = open.result.createObjectStore("deals", { keyPath: "id", autoIncrement: true });
      deals.createIndex("rubber", "rubber");
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });

  async function write(action) {
    const db = await dbReady;
    const tx = db.transaction("deals", "readwrite");
    action(tx.objectStore("deals"));
    // Resolved once the browser has committed it: only then is a deal "saved on this phone".
    await new Promise((resolve, reject) => {
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  }

  async function queued() {
    const db = await dbReady;
    const request = db.transaction("deals").objectStore("deals").index("rubber").getAll(RUBBER);
    const items = await new Promise((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    return items.sort((a, b) => a.number - b.number || a.id - b.id);
  }

  // --- the entry form --------------------------------------------------------------------------
  let items = [];
  let sending = false;
  let failed = false; // the last attempt met the network, not the server
  let signIn = ""; // the server's word when this phone's session has ended
  let lastPost = null; // what htmx is sending now, queued if the network fails it
  let sent = 0; // deals the server took in the last round of sending: "3 deals sent"

  const form = () => document.querySelector(FORM);
  // "Deal 3" as the page words it: the heading the number is shown in, when the form has one.
  const dealHeading = new RegExp(
    `^${T.deal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace("%\\(n\\)s", "\\d+")}$`,
  );

  function nextNumber(entry) {
    const fromServer = Number(entry.elements.number.defaultValue) || 1;
    const waiting = items.map((item) => item.number + 1);
    return Math.max(fromServer, ...waiting);
  }

  // The form asks for the deal after the ones kept here (the page, kept or fresh, knows only the
  // server's deals).
  function numberForm() {
    const entry = form();
    if (!entry || !entry.elements.number) return;
    const number = nextNumber(entry);
    const heading = entry.querySelector("h2");
    if (heading && dealHeading.test(heading.textContent.trim())) {
      heading.textContent = fmt(T.deal, { n: number });
    }
    entry.elements.number.value = String(number);
    entry.dataset.offlineNumber = String(number);
  }

  // The deal in the words of the buttons tapped ("4 ♠ X N −2"), for the list of waiting deals.
  function describe(entry, data) {
    const words = [];
    for (const [name, value] of data.entries()) {
      if (name === "csrfmiddlewaretoken" || name === "number" || value === "") continue;
      const input = [...entry.querySelectorAll(`[name="${CSS.escape(name)}"]`)].find(
        (el) => el.type !== "radio" || el.checked,
      );
      const label = input && input.id && entry.querySelector(`label[for="${CSS.escape(input.id)}"]`);
      words.push(input && input.type === "radio" && label ? shown(label) : value);
    }
    return words.join(" ");
  }

  // What a button shows, short: not its words for screen readers, nor the declarer's name.
  function shown(label) {
    const copy = label.cloneNode(true);
    copy.querySelectorAll(".sr-only").forEach((el) => el.remove());
    return copy.textContent.trim().split(" · ")[0];
  }

  async function keep(entry, data) {
    const number = Number(data.get("number"));
    const fields = [...data.entries()].filter(([name]) => name !== "csrfmiddlewaretoken");
    const deal = { rubber: RUBBER, url: QUEUE_URL, number, fields, summary: describe(entry, data), state: "pending" };
    await write((deals) => deals.add(deal));
    items = await queued();
    entry.reset();
    // The cleared form's live line is of no deal yet (static/js/offline_score.js scores the next).
    const preview = entry.querySelector("output.preview");
    if (preview) preview.textContent = preview.dataset.tap || T.tap;
    sent = 0;
    numberForm();
    render();
    send();
  }

  // Before htmx (capture): offline, or behind deals still waiting, a deal joins the queue.
  document.addEventListener(
    "submit",
    (event) => {
      const entry = event.target;
      if (entry !== form()) return;
      // The match ended on this phone with a deal it keeps (static/js/offline_score.js): the
      // next deal belongs to the next match, which only the server opens. Nothing is kept.
      if (entry.dataset.over) {
        event.preventDefault();
        event.stopImmediatePropagation();
        return;
      }
      const data = new FormData(entry, event.submitter);
      if (navigator.onLine && items.length === 0) {
        lastPost = { entry, data };
        return;
      }
      event.preventDefault();
      event.stopImmediatePropagation();
      keep(entry, data);
    },
    true,
  );

  // Online, but the request never reached an answer: keep the deal (a retry cannot duplicate it).
  function networkFailed(event) {
    if (lastPost && event.detail.elt === lastPost.entry) {
      const { entry, data } = lastPost;
      lastPost = null;
      failed = true;
      keep(entry, data);
    }
  }
  document.addEventListener("htmx:sendError", networkFailed);
  document.addEventListener("htmx:responseError", (event) => {
    if (event.detail.xhr && event.detail.xhr.status >= 500) networkFailed(event);
  });
  let keepTimer;
  document.addEventListener("htmx:afterSwap", (event) => {
    // Only the answer to that post settles it: the live line's answer (a tap's preview) can land
    // while the deal is on its way, and the deal must still be kept if the post then fails.
    const config = event.detail && event.detail.requestConfig;
    if (lastPost && config && config.elt === lastPost.entry) lastPost = null;
    numberForm();
    // The kept copy follows the pad (its deal number above all); one refresh for a burst of swaps.
    clearTimeout(keepTimer);
    keepTimer = setTimeout(() => keepPage(true), 500);
  });

  // The entry form changed by another script (the live pad morphed to its new version: a new
  // heading and the server's next number): that number is the server's now, and the kept copy
  // is stale.
  function followServer() {
    const entry = form();
    if (!entry || !entry.elements.number) return;
    const number = entry.elements.number;
    if (number.value !== entry.dataset.offlineNumber) number.defaultValue = number.value;
    numberForm();
    clearTimeout(keepTimer);
    keepTimer = setTimeout(() => keepPage(true), 500);
  }
  document.addEventListener("backscore:morphed", followServer);
  const live = document.getElementById("live");
  if (live && window.MutationObserver) {
    new MutationObserver((mutations) => {
      const replaced = mutations.some((m) =>
        [...m.addedNodes].some((node) => node.nodeType === 1 && (node.matches("h2, #entry") || node.querySelector("#entry"))),
      );
      if (replaced) followServer();
    }).observe(live.parentNode, { childList: true, subtree: true });
  }

  // --- sending ---------------------------------------------------------------------------------
  function csrfToken() {
    const cookie = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
    if (cookie) return decodeURIComponent(cookie.slice("csrftoken=".length));
    const field = document.querySelector("[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  async function post(deal) {
    const body = new URLSearchParams(deal.fields);
    if (deal.replaceVersion) body.set("replace_version", String(deal.replaceVersion));
    // "Save and remove rubber 2": the empty next rubber the server asked about (games/deals/offline.py)
    if (deal.withdrawNext) body.set("withdraw_next", String(deal.withdrawNext));
    body.set("number", String(deal.number)); // moved down by "Record as deal N" (moveDown)
    body.set("csrfmiddlewaretoken", csrfToken());
    return fetch(deal.url, {
      method: "POST",
      body,
      credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRFToken": csrfToken() },
    });
  }

  // One sender at a time for this rubber, across the phone's tabs (the Web Locks API where the
  // browser has it): two tabs would send the same deal twice, harmless but needless.
  function send() {
    if (sending) return Promise.resolve();
    if (!navigator.locks) return sendAll();
    return navigator.locks.request(`backscore-queue-${RUBBER}`, sendAll);
  }

  // A deal refused for a gap (a deal before it was deleted meanwhile, games/offline.py `next`)
  // is asked about again: another phone may have entered the missing deal since, and then it
  // goes in as it is.
  // The number a refusal offers the deal (`next`, below its own), else null.
  const gapNext = (deal, answer) =>
    answer && Number.isInteger(answer.next) && answer.next < deal.number ? answer.next : null;
  const gapRefused = (deal) => deal.state === "refused" && gapNext(deal, deal.answer) !== null;

  // Deal `deal` and the ones kept after it move down to the server's next number `next`, as
  // they are kept now; the tap that asked for it is done.
  async function moveDown(deal, next) {
    const shift = deal.number - next;
    const moved = (await queued()).filter((item) => item.number >= deal.number);
    for (const item of moved) {
      item.number -= shift;
      delete item.moveDown;
    }
    await write((deals) => moved.forEach((item) => deals.put(item)));
  }

  async function sendAll() {
    if (sending) return;
    sending = true;
    let recorded = 0;
    const asked = new Set(); // gap refusals asked about again in this round: once each
    let moved = false;
    render();
    try {
      for (;;) {
        items = await queued();
        // Deals kept for the director are never sent again, and hold nothing back: a deal kept
        // after them (on a pad still open, or its copy kept from before) is asked about, and
        // the server's answer ("closed") keeps it with them.
        const deal = items.find((item) => item.state !== "closed");
        // In order: a deal waiting for the player's choice holds back the ones after it.
        if (!deal || !(deal.state === "pending" || (gapRefused(deal) && !asked.has(deal.id)))) break;
        asked.add(deal.id);
        let response;
        try {
          response = await post(deal);
        } catch {
          failed = true;
          break;
        }
        failed = false;
        signIn = "";
        const answer = await response.json().catch(() => null);
        if (!answer || !answer.status || response.status >= 500) {
          // Not the queue's answer (a proxy's page, a restart, a stale CSRF cookie): nothing
          // was decided about this deal, so it stays and is tried again.
          failed = true;
          break;
        }
        if (answer.status === "sign in") {
          signIn = answer.detail; // kept until the player signs in again on this phone
          break;
        }
        if (answer.status === "closed") {
          // The session takes no more deals from this phone: every deal kept for the rubber stays,
          // shown for the director, and none is sent again.
          const closed = items.map((item) => ({ ...item, state: "closed", answer }));
          await write((deals) => closed.forEach((item) => deals.put(item)));
          forgetPage();
          break;
        }
        if (response.status === 200 || response.status === 201) {
          await write((deals) => deals.delete(deal.id));
          recorded += 1;
          continue;
        }
        const next = gapNext(deal, answer);
        if (deal.moveDown && next !== null) {
          // "Record as deal N" was tapped and the gap is still there: the number is the one the
          // server names now, not the one shown when the player tapped.
          await moveDown(deal, next);
          moved = true;
          asked.delete(deal.id);
          continue;
        }
        deal.state = answer.status === "conflict" || answer.status === "withdraw" ? answer.status : "refused";
        deal.answer = answer;
        delete deal.replaceVersion;
        delete deal.withdrawNext;
        delete deal.moveDown;
        await write((deals) => deals.put(deal));
      }
    } finally {
      sending = false;
      items = await queued();
      if (moved) numberForm();
      sent += recorded;
      render();
    }
    if (recorded) refreshPage();
  }

  // The pad as the server now has it (the deals just sent on it); never over a half-tapped deal.
  function refreshPage() {
    const entry = form();
    const touched =
      entry &&
      [...entry.elements].some(
        (el) => el.checked !== el.defaultChecked || (el.type === "number" && el.value !== el.defaultValue),
      );
    if (window.htmx && !touched) {
      window.htmx.ajax("GET", window.location.pathname, { target: "#live", swap: "outerHTML", select: "#live" });
    }
  }

  // --- the status and the list ------------------------------------------------------------------
  function button(text, action) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    b.addEventListener("click", action);
    return b;
  }

  function line(className, text) {
    const p = document.createElement("p");
    p.className = className;
    p.textContent = text;
    return p;
  }

  async function drop(deal) {
    await write((deals) => deals.delete(deal.id));
    items = await queued();
    numberForm();
    render();
    send();
  }

  async function replace(deal) {
    deal.state = "pending";
    deal.replaceVersion = deal.answer.server.version;
    await write((deals) => deals.put(deal));
    send();
  }

  // The correction to "mine" would withdraw the next, empty rubber: asked first, in the server's
  // words; the button sends it again with the number agreed.
  async function withdrawAndReplace(deal) {
    deal.state = "pending";
    deal.replaceVersion = deal.answer.version;
    deal.withdrawNext = deal.answer.withdraw_next;
    await write((deals) => deals.put(deal));
    send();
  }

  // "Record as deal N": the deal is asked about once more, as it is (the gap may be gone), and
  // moved down to the number the server then names (sendAll). The copy kept now, not the one the
  // list was drawn from (a retry may have written it since).
  async function recordAsNext(deal) {
    const kept = (await queued()).find((item) => item.id === deal.id);
    if (!kept || !gapRefused(kept)) return;
    kept.state = "pending";
    kept.moveDown = true;
    delete kept.answer;
    await write((deals) => deals.put(kept));
    items = await queued();
    render();
    send();
  }

  function render() {
    const offline = !navigator.onLine;
    const waiting = items.length;
    root.hidden = !offline && waiting === 0;
    root.classList.toggle("is-offline", offline);
    // "3 deals sent": said once the server has taken them, until the next deal is kept.
    const notice = document.getElementById("offline-sent");
    if (offline) sent = 0;
    if (notice) {
      notice.hidden = sent === 0;
      notice.textContent = sent === 1 ? T["sent-one"] : fmt(T["sent-other"] || "", { count: sent });
    }
    const parts = [];
    const closed = items.find((deal) => deal.state === "closed");
    // A deal the server refused is not "waiting": the line names it (its reason is on its row).
    const refused = items.filter((deal) => deal.state === "refused" && !gapRefused(deal));
    const toSend = waiting - refused.length;
    if (offline) parts.push(T.offline);
    if (closed) parts.push(closed.answer.detail);
    else {
      if (toSend === 1) parts.push(T["waiting-one"]);
      else if (toSend > 1) parts.push(fmt(T["waiting-other"], { count: toSend }));
      if (refused.length) parts.push(fmt(T.refused, { n: refused[0].number })); // the first
    }
    if (sending && !offline) parts.push(T.sending);
    else if (signIn && !offline && waiting) parts.push(signIn);
    else if (failed && !offline && waiting) parts.push(T["not-sent"]);
    status.textContent = parts.join(" ");
    root.dataset.waiting = String(waiting);
    list.replaceChildren(
      ...items.map((deal) => {
        const li = document.createElement("li");
        li.className = `offline-deal ${deal.state}`;
        li.dataset.number = String(deal.number);
        const title = document.createElement("strong");
        title.textContent = fmt(T.deal, { n: deal.number });
        const points = document.createElement("span");
        points.className = "offline-points"; // the phone's figure (static/js/offline_score.js)
        li.append(title, " ", deal.summary, points);
        if (deal.state === "pending") {
          li.append(" — ", T.pending);
        } else if (deal.state === "closed") {
          li.append(" — ", T["kept-closed"], " ");
          li.append(button(T.drop, () => drop(deal)));
        } else if (deal.state === "conflict") {
          const { server, mine } = deal.answer;
          li.append(
            line("field-error", deal.answer.detail),
            line("version server", `${T.server}: ${server.summary}` + (server.entered_by ? ` (${fmt(T["entered-by"], { name: server.entered_by })})` : "")),
            line("version mine", `${T.mine}: ${mine.summary}`),
          );
          if (deal.answer.can_correct) li.append(button(T["keep-mine"], () => replace(deal)));
          else li.append(line("muted", T["cannot-correct"]));
          li.append(button(T["drop-mine"], () => drop(deal)));
        } else if (deal.state === "withdraw") {
          li.append(line("field-error", deal.answer.detail));
          li.append(button(deal.answer.button, () => withdrawAndReplace(deal)));
          li.append(button(T["drop-mine"], () => drop(deal)));
        } else {
          li.append(line("field-error", `${T["not-recorded"]} ${deal.answer.detail}`));
          const next = gapNext(deal, deal.answer);
          if (next !== null) {
            li.append(button(fmt(T["record-as"], { n: next }), () => recordAsNext(deal)));
          }
          li.append(button(T.drop, () => drop(deal)));
        }
        return li;
      }),
    );
    // The phone's own figures for these deals (static/js/offline_score.js).
    document.dispatchEvent(new CustomEvent("offline:rendered", { detail: { items } }));
  }

  // --- the page, kept for offline -------------------------------------------------------------
  // `changed`: htmx changed the page since it loaded. Otherwise a page the worker already keeps
  // was refreshed by the worker itself on the way in, and is not asked for twice. One at a time,
  // and none once signing out has begun.
  function keepPage(changed = false) {
    if (signingOut) return keeping;
    keeping = keeping.then(() => (signingOut ? undefined : keepPageNow(changed)));
    return keeping;
  }

  // A session that takes no more deals from this phone: its kept pad (an entry form) is not
  // brought back offline. A page that still opens online is kept again as the server now has it.
  function forgetPage() {
    keeping = keeping
      .then(async () => {
        if (!("caches" in window)) return;
        const page = new URL(window.location.href);
        page.hash = "";
        await (await caches.open(CACHE)).delete(page.href);
      })
      .catch(() => {});
    return keeping;
  }

  async function keepPageNow(changed) {
    if (!("caches" in window) || !navigator.onLine) return;
    try {
      const cache = await caches.open(CACHE);
      const page = new URL(window.location.href);
      page.hash = "";
      const viaWorker = "serviceWorker" in navigator && navigator.serviceWorker.controller;
      if (changed || !viaWorker || !(await cache.match(page.href))) {
        const response = await fetch(page.href, { credentials: "same-origin", headers: { Accept: "text/html" } });
        // A redirect (signed out: the login page) is not this page.
        if (!response.ok || response.redirected) return;
        await cache.put(page.href, response);
      }
      const files = [...document.querySelectorAll("script[src], link[rel=stylesheet], link[rel=icon], link[rel=manifest]")]
        .map((el) => new URL(el.src || el.href, window.location.href))
        .filter((url) => url.origin === window.location.origin);
      await Promise.all(files.map(async (url) => (await cache.match(url)) || cache.add(url.href)));
      if ("serviceWorker" in navigator) await navigator.serviceWorker.ready;
      root.dataset.ready = "true";
    } catch {
      // Kept next time: a page that cannot be kept still works online.
    }
  }

  window.addEventListener("online", () => {
    render();
    send();
  });
  window.addEventListener("offline", render);
  setInterval(() => {
    if (navigator.onLine && items.some((deal) => deal.state === "pending" || gapRefused(deal))) send();
  }, RETRY_MS);

  queued().then((found) => {
    items = found;
    numberForm();
    render();
    if (navigator.onLine) send();
  });
  keepPage();
})();
