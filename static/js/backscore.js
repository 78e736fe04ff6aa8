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

// What the answer to a form of the pad says (another phone entered the deal, an error to put
// right) sits at the pad's top, while the answer replaced the pad under the finger on Record,
// Confirm or a correction: brought into view when it is off the screen.
document.addEventListener("htmx:afterSettle", (event) => {
  const source = event.detail.requestConfig && event.detail.requestConfig.elt;
  if (!source || source.tagName !== "FORM") return;
  const said = document.querySelector("#live [role=alert]");
  if (!said) return;
  const box = said.getBoundingClientRect();
  if (box.top < 0 || box.bottom > window.innerHeight) said.scrollIntoView({ block: "center" });
});

// Live pads and the console (issue 28). A page hears "this changed" as a `backscore:changed`
// event (the push channel's script sets <html data-push="up"> while it is connected); then it
// fetches its live part once (a burst of events, one fetch; a version already shown, none) and
// morphs it in (vendored idiomorph). While no push is heard it asks on its own, an ETag poll every
// data-poll-ms (a 304 costs one query). The morph keeps what the player holds, by rule rather
// than by part: a form being filled in (taps not sent, focus in a field) keeps its controls as
// they are and loses nothing, while the words around them follow (a substitute's name on a
// declarer button, the totals); an element whose request is on its way is left to its answer; every
// <details> keeps its open state, and an open one holding a form the live part does not carry (a
// correction's form, fetched when opened or served with the page that opened it) keeps it. A form holding taps names its deal number to the server: if another
// phone recorded that deal, the notice says so at once ("Deal 2 was already entered by …"),
// and Record would get the same conflict, never a duplicate (games.pad.live.rubber_live).
const DEFAULT_POLL_MS = 5000;
const tags = new Map(); // url -> the ETag of the version shown
const shownVersion = new Map(); // url -> the pushed version last fetched
const heldBack = new Map(); // url -> the elements the last morph left alone
const fetching = new Map(); // url -> the fetch on its way (a burst of events waits for it)
const again = new Set(); // urls whose version changed while their fetch was on its way

const editable = (el) => el.type !== "hidden" && el.type !== "submit" && el.type !== "button";
// A list's choice differs from the one it was served with: marked `selected`, else (one choice
// at a time) its first, which the browser shows and sends with no mark.
function reselected(select) {
  const options = [...select.options];
  if (select.multiple || options.some((o) => o.defaultSelected)) return options.some((o) => o.selected !== o.defaultSelected);
  return select.selectedIndex > 0;
}
// What the player entered and has not sent: a control that differs from what the page served.
function edited(form) {
  return [...form.elements].some(
    (el) =>
      editable(el) &&
      (el.checked !== el.defaultChecked ||
        (el.tagName === "TEXTAREA" || el.tagName === "INPUT" ? el.value !== el.defaultValue : false) ||
        (el.tagName === "SELECT" && reselected(el))),
  );
}
const focusedIn = (el) => {
  const active = document.activeElement;
  return !!active && active !== document.body && el.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName);
};
// A form the player holds: being sent (htmx marks it), filled in, typed in, or served back
// holding their taps (data-held: an error to put right, taps moved by a conflict) until sent.
function holds(el) {
  return (
    el.tagName === "FORM" &&
    (el.classList.contains("htmx-request") || el.hasAttribute("data-held") || edited(el) || focusedIn(el))
  );
}
// A form of the pad being sent (Record, Confirm, Dispute, a correction): its answer replaces the
// whole pad with the rubber as written, so nothing is morphed until then; a morph that moved the
// entry form to the next deal before that answer invited taps on a form about to be replaced
// (tests/games/test_chicago_browser.py).
const sending = (part) => !!part.querySelector("form.htmx-request");

// A form's controls, and its <output>s, which say what the controls hold (the live line).
const CONTROL = /^(INPUT|SELECT|TEXTAREA|OUTPUT)$/;
const openForm = (el) => el.tagName === "DETAILS" && el.open && !!el.querySelector("form");

function morphConfig(held, heldForms) {
  const inHeldForm = (node) => node.nodeType === 1 && heldForms.has(node.closest("form"));
  return {
    morphStyle: "outerHTML",
    ignoreActiveValue: true,
    callbacks: {
      beforeNodeMorphed(old, fresh) {
        if (old.nodeType !== 1) return true;
        // A request on its way (the live line): its answer fills it.
        if (old.classList.contains("htmx-request")) {
          held.push(old);
          return false;
        }
        if (heldForms.has(old)) held.push(old);
        // The taps of a form the player holds, the deal number they are for and their live line.
        if (CONTROL.test(old.tagName) && inHeldForm(old)) return false;
        // An open correction keeps the form in it (fetched when opened, or served with the page
        // that opened it), which the live part does not carry.
        if (openForm(old) && !(fresh.nodeType === 1 && fresh.querySelector("form"))) {
          held.push(old);
          return false;
        }
        return true;
      },
      beforeAttributeUpdated(name, node) {
        if (name === "data-held" && heldForms.has(node)) return false;
        return !(name === "open" && node.tagName === "DETAILS");
      },
      beforeNodeRemoved(node) {
        // A form the player holds and all in it (a note that their taps moved), or a correction
        // they opened, stays until they are done with it.
        if (inHeldForm(node)) {
          held.push(node.closest("form"));
          return false;
        }
        if (node.nodeType === 1 && openForm(node)) {
          held.push(node);
          return false;
        }
        // What the pad said (another phone recorded the deal held, a deal was deleted, the phone
        // is North's again) stays until the player's next action replaces the pad, as a page's
        // message does: a change heard meanwhile never takes it away unread.
        if (node.nodeType === 1 && node.getAttribute("role") === "alert") return false;
        return true;
      },
      // htmx processes only what came in: processing the whole pad re-initialised an element
      // whose request was on its way and dropped the request waiting behind it
      // (tests/games/test_table_browser.py).
      afterNodeAdded(node) {
        if (node.nodeType === 1 && window.htmx) window.htmx.process(node);
      },
    },
  };
}

// Still held: every element the last morph left alone is still the player's.
function stillHeld(url) {
  const held = heldBack.get(url) || [];
  return held.every((el) => el.isConnected && (holds(el) || el.classList.contains("htmx-request") || (el.tagName === "DETAILS" && el.open)));
}

function livePart(url) {
  return [...document.querySelectorAll("[data-poll-url]")].find((el) => el.dataset.pollUrl === url);
}

async function refresh(url) {
  let part = livePart(url);
  if (!part || (part.id === "live" && sending(part))) return;
  // Something held back is no longer held (a form sent or cleared, a correction closed): the
  // version shown is not whole, so ask for it again.
  if (!stillHeld(url)) tags.delete(url);
  const headers = tags.has(url) ? { "If-None-Match": tags.get(url) } : {};
  let ask = url;
  const entry = part.querySelector("#entry");
  const number = entry && entry.querySelector("input[name=number]");
  if (number && holds(entry)) ask += (ask.includes("?") ? "&" : "?") + "number=" + encodeURIComponent(number.value);
  let response;
  try {
    response = await fetch(ask, { headers, cache: "no-store", credentials: "same-origin" });
  } catch (error) {
    return;
  }
  if (response.status !== 200) return;
  const tag = response.headers.get("ETag");
  const html = await response.text();
  part = livePart(url);
  if (!part || (part.id === "live" && sending(part))) return;
  const fresh = document.createElement("template");
  fresh.innerHTML = html;
  const next = fresh.content.querySelector("[data-poll-url]");
  if (!next) return;
  const held = [];
  const heldForms = new Set([...part.querySelectorAll("form")].filter(holds));
  window.Idiomorph.morph(part, next, morphConfig(held, heldForms));
  heldBack.set(url, held);
  if (tag) tags.set(url, tag);
  // A deal was deleted since these taps were made (games.pad.live.rubber_live): they are the
  // rubber's next deal now, as the notice says; the form follows, still unrecorded.
  const notice = document.getElementById("notice");
  const form = document.getElementById("entry");
  if (notice && notice.dataset.moveTo && form && form.elements.number) form.elements.number.value = notice.dataset.moveTo;
  (livePart(url) || document).dispatchEvent(new CustomEvent("backscore:morphed", { bubbles: true }));
}

// One fetch at a time per part; an event during it asks for one more after it.
function refreshOnce(url) {
  if (fetching.has(url)) {
    again.add(url);
    return fetching.get(url);
  }
  const done = refresh(url).finally(() => {
    fetching.delete(url);
    if (again.delete(url)) refreshOnce(url);
  });
  fetching.set(url, done);
  return done;
}
const liveUrls = () => [...document.querySelectorAll("[data-poll-url]")].map((el) => el.dataset.pollUrl);

document.addEventListener("backscore:changed", (event) => {
  const version = event.detail && event.detail.version;
  liveUrls().forEach((url) => {
    if (version !== undefined && version !== null && shownVersion.get(url) === version) return;
    if (version !== undefined && version !== null) shownVersion.set(url, version);
    refreshOnce(url);
  });
});

// The fallback: while the push channel is not up, ask at the page's pace.
function pollMs() {
  const part = document.querySelector("[data-poll-ms]");
  return (part && Number(part.dataset.pollMs)) || DEFAULT_POLL_MS;
}
function tick() {
  if (!document.hidden && document.documentElement.dataset.push !== "up") liveUrls().forEach(refreshOnce);
  setTimeout(tick, pollMs());
}
tick();

// A part that ages (the room's "3 minutes ago") asks again at its own pace, push or not: its
// ETag holds the minute, so within one a poll is a 304.
document.querySelectorAll("[data-refresh-ms]").forEach((part) => {
  const every = Number(part.dataset.refreshMs);
  if (every > 0) setInterval(() => { if (!document.hidden) refreshOnce(part.dataset.pollUrl); }, every);
});
