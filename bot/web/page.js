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
