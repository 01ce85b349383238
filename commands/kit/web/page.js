// Tablehand's read-only pages: the one script. It shows each <time> in the
// reader's own time zone and language; without it the page shows the same
// moments in the schedule's zone, named. A live page (a fight's) it keeps
// up to date. Without it every page is whole, as of its load.
"use strict";
for (const t of document.querySelectorAll("time[datetime]")) {
  const d = new Date(t.dateTime);
  if (!isNaN(d)) {
    t.textContent = d.toLocaleString(undefined, { dateStyle: "full", timeStyle: "short" });
    t.title = "your time";
  }
}

// A live page follows its changes: on each, it fetches itself and puts
// the new <main> and title in place of the old, without a reload. It says
// whether it is following (#conn), and why it stopped or stalled
// (#notice): the fight has ended, the link no longer opens the page (the
// stream says "gone"; the page then answers 404), or Tablehand cannot be
// reached (it retries).
if (document.body.dataset.live && window.EventSource && window.fetch) {
  const conn = document.getElementById("conn");
  const notice = document.getElementById("notice");
  const stream = location.pathname.replace(/\/$/, "") + "/events?since=" + encodeURIComponent(document.body.dataset.seq || "");
  let events = null;
  let over = false;
  let busy = false;
  let again = false;
  let retry = 0;

  const show = (el, cls, text) => {
    if (!el) return;
    el.hidden = !text;
    el.className = el.id + " " + cls;
    el.textContent = text;
  };
  const state = (cls, text) => show(conn, cls, text);
  const say = (cls, text) => show(notice, cls, text);
  // stop ends the following for good, with why.
  const stop = (why, title) => {
    over = true;
    if (events) events.close();
    say("over", why);
    state("closed", "Not following: " + why.charAt(0).toLowerCase() + why.slice(1));
    if (title) document.title = title;
  };
  const ended = () => stop("The fight has ended.", "Fight · ended");
  const revoked = () => stop("This link no longer opens the page: ask your GM for the current one.", "Fight · link closed");
  const outage = () => {
    state("down", "Reconnecting…");
    say("outage", "Cannot reach Tablehand: retrying…");
  };

  // The reader's own combatant, chosen once and kept in this browser: its
  // row is marked, wherever it stands.
  const key = "tablehand.me:" + location.pathname;
  const remembered = () => {
    try { return localStorage.getItem(key) || ""; } catch (e) { return ""; }
  };
  let picker = null;
  const mark = () => {
    const me = remembered();
    const names = [...document.querySelectorAll("tr[data-combatant]")].map(tr => tr.dataset.combatant);
    for (const tr of document.querySelectorAll("tr[data-combatant]")) {
      tr.classList.toggle("mine", me !== "" && tr.dataset.combatant === me);
    }
    if (!picker) {
      const label = document.createElement("label");
      label.className = "me";
      label.textContent = "You play ";
      picker = document.createElement("select");
      picker.id = "me";
      picker.addEventListener("change", () => {
        try { localStorage.setItem(key, picker.value); } catch (e) { /* private mode: this page alone */ }
        mark();
      });
      label.append(picker);
      const p = document.createElement("p");
      p.append(label);
      document.querySelector("header").append(p);
    }
    picker.replaceChildren(...["", ...names].map(n => new Option(n || "(no one)", n, false, n === me)));
  };
  mark();

  const ended404 = res => res.status === 410 || (res.status === 404 && events && events.readyState === EventSource.OPEN);
  const refresh = async () => {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const res = await fetch(location.href, { cache: "no-store" });
      if (res.status === 404 || res.status === 410) {
        // A fight that ended leaves its link's stream open; a revoked
        // link's is gone.
        if (ended404(res)) ended(); else revoked();
        return;
      }
      if (!res.ok) { outage(); setTimeout(refresh, 2000); return; }
      const doc = new DOMParser().parseFromString(await res.text(), "text/html");
      const main = doc.querySelector("main");
      if (main) document.querySelector("main").replaceWith(main);
      if (doc.title) document.title = doc.title;
      mark();
      if (doc.body.dataset.ended || /The fight has ended/.test(main ? main.textContent : "")) { ended(); return; }
      if (!notice.hidden && notice.classList.contains("outage")) say("", "");
    } catch (e) {
      outage();
      setTimeout(refresh, 2000);
    } finally {
      busy = false;
      if (again && !over) { again = false; refresh(); }
    }
  };

  const listen = () => {
    events = new EventSource(stream);
    events.addEventListener("open", () => {
      retry = 0;
      state("up", "Live: it follows the fight");
      if (notice.classList.contains("outage")) say("", "");
    });
    events.addEventListener("change", refresh);
    events.addEventListener("gone", revoked);
    events.addEventListener("error", () => {
      if (over) return;
      outage();
      if (events.readyState === EventSource.CLOSED) {
        // The server answered, but not with a stream: ask the page why,
        // and listen again after a while.
        refresh();
        setTimeout(() => { if (!over) listen(); }, Math.min(30000, 2000 * ++retry));
      }
    });
  };
  if (document.body.dataset.ended) ended(); else listen();
}
