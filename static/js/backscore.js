// Small progressive enhancements; every page works without them.
document.addEventListener("change", (event) => {
  const el = event.target;
  if (el.matches && el.matches("[data-autosubmit]")) el.form.submit();
});

// A choice the level hides (a result it cannot have; all but the level after Pass): untick it,
// so that what is sent is what the page shows (the server refuses it anyway).
function untickHidden(form) {
  form.querySelectorAll(".if-contract input:checked").forEach((radio) => {
    if (radio.closest("label").offsetParent === null) radio.checked = false;
  });
}
// In the capture phase, on the document: before htmx's listeners on the form read its values
// (the live line's `change from:#entry`, Record's submit), so neither sends a hidden choice.
document.addEventListener(
  "change",
  (event) => {
    const el = event.target;
    if (el.matches && el.matches(".deal-form input[name$=level]")) untickHidden(el.form);
  },
  true,
);
document.addEventListener(
  "submit",
  (event) => {
    const form = event.target;
    if (form.matches && form.matches(".deal-form")) untickHidden(form);
  },
  true,
);

// "Correct it": open the correction of the deal named.
document.addEventListener("click", (event) => {
  const link = event.target.closest && event.target.closest("a[data-open]");
  if (!link) return;
  const summary = document.getElementById(link.dataset.open);
  if (summary) summary.closest("details").open = true;
});

// Live pads: every 2 s the pad asks whether its rubber changed (ETag / If-None-Match: a 304
// costs one query); a change replaces the pad and the deal list, and moves an untouched entry
// form to the next deal (games.pad.live.rubber_live). A form holding taps keeps its number: the
// poll names it, and if another phone recorded that deal the server's notice says so at once
// ("Deal 2 was already entered by …"); Record would get the same conflict, never a duplicate.
const POLL_MS = 2000;
let etag = null;
// Taps not yet sent.
function holdsTaps(form) {
  if (!form) return false;
  return [...form.querySelectorAll("input:checked")].some((i) => i.value !== "");
}
// A form of the pad being sent (Record, Confirm, Dispute, a correction; htmx marks the form
// while it waits): its answer replaces the whole pad with the rubber as written, so the poll
// leaves the pad alone until then. A poll that moved the entry form to the next deal before that
// answer invited taps on a form about to be replaced: they were lost
// (tests/games/test_chicago_browser.py).
function recording(live) {
  return !!live.querySelector("form.htmx-request");
}
// htmx processes only what came in: processing the whole pad re-initialised an element whose
// request was on its way (htmx marks it, so its attributes had "changed") and dropped the request
// waiting behind it; the live line stayed on an earlier tap
// (tests/games/test_table_browser.py).
function htmxProcess(node) {
  if (window.htmx) window.htmx.process(node);
}
// An explanation the player opened stays open when its part is replaced by a change: the same
// item (its reason and its words, in order) is opened in the new part
// (tests/games/test_browser.py).
function openKeys(part) {
  const seen = new Map();
  return [...part.querySelectorAll("details:not(.correction)")].map((details) => {
    const item = details.closest("[data-reason]");
    const summary = details.querySelector("summary");
    const key = `${item ? item.dataset.reason : ""}|${summary ? summary.textContent.trim() : ""}`;
    const n = (seen.get(key) || 0) + 1;
    seen.set(key, n);
    return { details, key: `${key}|${n}` };
  });
}
function keepOpen(old, neu) {
  const open = new Set(openKeys(old).filter((d) => d.details.open).map((d) => d.key));
  if (open.size) openKeys(neu).forEach((d) => { if (open.has(d.key)) d.details.open = true; });
}
function swapPart(live, fresh, selector) {
  const old = live.querySelector(selector);
  const neu = fresh.querySelector(selector);
  if (old && neu) {
    keepOpen(old, neu);
    old.replaceWith(neu);
    htmxProcess(neu);
  }
}
async function poll() {
  const live = document.getElementById("live");
  if (!live || !live.dataset.pollUrl || document.hidden || recording(live)) return;
  const headers = etag ? { "If-None-Match": etag } : {};
  const form = live.querySelector("#entry");
  const numberInput = form && form.querySelector("input[name=number]");
  const dirty = !!numberInput && holdsTaps(form);
  let url = live.dataset.pollUrl;
  if (dirty) url += (url.includes("?") ? "&" : "?") + "number=" + encodeURIComponent(numberInput.value);
  let response;
  try {
    response = await fetch(url, { headers, cache: "no-store", credentials: "same-origin" });
  } catch (error) {
    return;
  }
  const tag = response.headers.get("ETag");
  if (response.status !== 200) return;
  const fresh = document.createElement("div");
  fresh.innerHTML = await response.text();
  const next = fresh.querySelector("#live");
  if (!next || document.getElementById("live") !== live || recording(live)) return;
  const entry = live.querySelector("#entry");
  const nextEntry = next.querySelector("#entry");
  // A correction being made (open: its form on the way, or being tapped) stays as it is.
  const correcting = !!live.querySelector("details.correction[open]");
  if (!entry || !nextEntry) {
    if (!correcting) {
      etag = tag;
      keepOpen(live, next);
      live.replaceWith(next);
      htmxProcess(next);
      return;
    }
    // Replacing the whole pad closed the correction and lost its taps (a finished rubber has no
    // entry form; tests/games/test_browser.py). The entry form coming or going waits for the
    // correction to be saved or closed (the tag is not taken); otherwise the pad follows.
    if (entry || nextEntry) return;
    etag = tag;
    swapPart(live, next, ".live-title");
    swapPart(live, next, ".pad-col-wrap");
    swapPart(live, next, "#awaiting-box");
    return;
  }
  swapPart(live, next, ".pad-col-wrap");
  swapPart(live, next, "#awaiting-box");
  if (!correcting) swapPart(live, next, ".deals-col");
  swapPart(live, next, "#mini-totals");
  const taps = holdsTaps(entry);
  const notice = next.querySelector("#notice");
  if (taps && notice) {
    const old = live.querySelector("#notice");
    if (old) old.replaceWith(notice);
    else live.querySelector("#awaiting-box").before(notice);
    htmxProcess(notice);
  }
  // A deal was deleted since these taps were made (games.pad.live.rubber_live): they are the
  // rubber's next deal now, as the notice says; the form follows, still unrecorded.
  if (taps && notice && notice.dataset.moveTo) entry.querySelector("input[name=number]").value = notice.dataset.moveTo;
  const nextNumber = nextEntry.querySelector("input[name=number]").value;
  // The number stays while the taps do; the tag is not taken, so that the next poll moves an
  // emptied form (recorded, or reset by the offline queue) to the server's number.
  if (taps && entry.querySelector("input[name=number]").value !== nextNumber) return;
  etag = tag;
  swapPart(live, next, "#entry-title");
  entry.querySelector("input[name=number]").value = nextNumber;
}
// The director's console: the sessions part is replaced whole when it changed, unless a form
// in it is being used.
const tags = new Map();
async function pollPart(part) {
  const url = part.dataset.pollUrl;
  const headers = tags.has(url) ? { "If-None-Match": tags.get(url) } : {};
  let response;
  try {
    response = await fetch(url, { headers, cache: "no-store", credentials: "same-origin" });
  } catch (error) {
    return;
  }
  if (response.status !== 200) return;
  tags.set(url, response.headers.get("ETag"));
  if (part.contains(document.activeElement) && document.activeElement !== document.body) return;
  const fresh = document.createElement("div");
  fresh.innerHTML = await response.text();
  const next = fresh.firstElementChild;
  if (next) part.replaceWith(next);
}
function pollAll() {
  if (document.hidden) return;
  poll();
  document.querySelectorAll("[data-poll-url]:not(#live)").forEach(pollPart);
}
setInterval(pollAll, POLL_MS);
pollAll();
