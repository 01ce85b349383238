// Tablehand's read-only pages: the one script. It shows each <time> in the
// reader's own time zone and language; without it the page shows the same
// moments in the schedule's zone, named.
"use strict";
for (const t of document.querySelectorAll("time[datetime]")) {
  const d = new Date(t.dateTime);
  if (!isNaN(d)) {
    t.textContent = d.toLocaleString(undefined, { dateStyle: "full", timeStyle: "short" });
    t.title = "your time";
  }
}

// A live page (a fight's) follows its changes: on each, it fetches itself
// and puts the new <main> in place of the old, without a reload.
if (document.body.dataset.live && window.EventSource) {
  // since: the journal entry this page shows, so that a change made
  // before the stream opened is not missed.
  const events = new EventSource(location.pathname.replace(/\/$/, "") + "/events?since=" + encodeURIComponent(document.body.dataset.seq || ""));
  events.addEventListener("change", async () => {
    try {
      const res = await fetch(location.href, { cache: "no-store" });
      if (!res.ok) return;
      const doc = new DOMParser().parseFromString(await res.text(), "text/html");
      const main = doc.querySelector("main");
      if (main) document.querySelector("main").replaceWith(main);
    } catch (e) {
      // The next change tries again.
    }
  });
}
