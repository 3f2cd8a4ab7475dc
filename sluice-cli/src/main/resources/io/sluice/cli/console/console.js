// The Sluice console: reads /api/ about every second and shows it. Every value is user data
// (flow names, payloads, errors): it goes into the page as text nodes only, never as markup.
"use strict";

const POLL_MILLIS = 1000;
const TOKEN_KEY = "sluice.managementToken";
const seen = {}; // what each section last showed, to redraw only what changed
let openQueue = null; // the queue whose dead letters are shown
// The batch instance whose failed records are shown: { id, job, list: the records shown, from:
// where the next page begins, more: whether the API said there is one, failed: the instance's
// failed count when last read }. At the last page it reads on from the last position shown as
// the failed count grows: records failed later at an earlier position (blocks commit out of input
// order) are not added until the panel is opened again.
let openFailures = null;
const FAILURES_PAGE = 50;
// The history of finished jobs as shown: the filters it was read with (a query string), its
// entries newest first, and the `before` of the page after them (null at the last).
const jobHistory = { filters: null, list: [], next: null, loading: false };
const HISTORY_PAGE = 50;
// While the user edits the filters, the history waits until they rest this long, so typing a
// search reads it once, not at every key or every poll.
const HISTORY_SETTLE_MILLIS = 400;
let historyEdit = null;
let waitingForToken = false;

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (key === "class") node.className = value;
    else if (key === "onclick") node.addEventListener("click", value);
    else if (key.startsWith("data-")) node.setAttribute(key, String(value));
    else node[key] = value;
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function num(value, digits) {
  if (value === null || value === undefined) return "–";
  return digits === undefined ? Number(value).toLocaleString("en") : Number(value).toFixed(digits);
}

function cell(value, className) {
  return el("td", className ? { class: className } : {}, value);
}

function headers(extra) {
  const all = Object.assign({}, extra);
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) all["Authorization"] = "Bearer " + token;
  return all;
}

class Unauthorized extends Error {}

// GETs an API path: its JSON, or an Error whose message is the API's reason.
async function get(path) {
  const response = await fetch("/api/" + path, { headers: headers(), cache: "no-store" });
  return answer(response);
}

async function answer(response) {
  let body = null;
  try {
    body = await response.json();
  } catch (e) {
    body = null;
  }
  if (response.status === 401) throw new Unauthorized("the token is missing or wrong");
  if (!response.ok) {
    const error = new Error(body && body.error ? body.error : "HTTP " + response.status);
    error.status = response.status;
    error.body = body;
    throw error;
  }
  return body;
}

// POSTs an action; shows its message, then redraws at once.
async function act(path) {
  try {
    const response = await fetch("/api/" + path, {
      method: "POST",
      headers: headers({ "Content-Type": "application/json" }),
      body: "{}",
    });
    let message;
    try {
      const body = await answer(response);
      message = body.message;
    } catch (e) {
      if (e instanceof Unauthorized) throw e;
      message = (e.body && e.body.message) || e.message;
    }
    status(message);
  } catch (e) {
    if (e instanceof Unauthorized) askForToken();
    else status("The action could not be sent: " + e.message);
  }
  poll();
}

function status(text) {
  const node = document.getElementById("status");
  node.textContent = text;
  node.hidden = !text;
}

function banner(problems) {
  const node = document.getElementById("banner");
  node.replaceChildren(...problems.map((p) => el("div", {}, p)));
  node.hidden = problems.length === 0;
}

function askForToken() {
  waitingForToken = true;
  sessionStorage.removeItem(TOKEN_KEY);
  document.getElementById("token-form").hidden = false;
  document.getElementById("token").focus();
}

// Fills tbody with a row per item. A row whose item did not change is kept as it is, so a
// button under the pointer is not replaced by a copy of itself while it is clicked.
function rows(tbody, list, columns, row, emptyText) {
  if (list.length === 0) {
    tbody.replaceChildren(el("tr", {}, el("td", { class: "empty", colSpan: columns }, emptyText)));
    return;
  }
  const old = new Map();
  for (const tr of tbody.children) {
    if (tr.sluiceItem) old.set(tr.sluiceItem, tr);
  }
  const next = list.map((item) => {
    const text = JSON.stringify(item);
    const kept = old.get(text);
    if (kept) {
      old.delete(text);
      return kept;
    }
    const tr = row(item);
    tr.sluiceItem = text;
    return tr;
  });
  if (next.length !== tbody.children.length || next.some((tr, i) => tbody.children[i] !== tr)) {
    tbody.replaceChildren(...next);
  }
}

function changed(key, data) {
  const text = JSON.stringify(data);
  if (seen[key] === text) return false;
  seen[key] = text;
  return true;
}

function drawFlows(flows) {
  if (!changed("flows", flows)) return;
  rows(document.querySelector("#flows tbody"), flows, 12, (f) =>
    el("tr", { "data-flow": f.name },
      cell(f.name), cell(f.strategy), cell(f.stopped ? "stopped" : "running"),
      cell(num(f.inFlight), "num"), cell(num(f.completed), "num completed"),
      cell(num(f.failed), "num"), cell(num(f.refused), "num"), cell(num(f.rate, 1), "num rate"),
      cell(num(f.p50Millis, 1), "num"), cell(num(f.p99Millis, 1), "num"),
      cell(num(f.limit), "num"),
      el("td", {}, el("button", {
        class: f.stopped ? "" : "danger",
        onclick: () => act("flows/" + encodeURIComponent(f.name) + (f.stopped ? "/start" : "/stop")),
      }, f.stopped ? "Start" : "Stop"))),
    "no flow");
}

function drawQueues(queues) {
  if (!changed("queues", queues)) return;
  rows(document.querySelector("#queues > table tbody"), queues, 6, (q) =>
    el("tr", { "data-queue": q.name },
      cell(q.name), cell(q.flow), cell(num(q.depth), "num"), cell(num(q.inFlight), "num"),
      cell(num(q.deadLetters), "num"),
      el("td", {}, el("button", { onclick: () => { openQueue = q.name; poll(); } },
        "Dead letters"))),
    "no flow takes from a durable queue");
}

function drawDeadLetters(queue, letters) {
  const box = document.getElementById("dead-letters");
  if (queue === null) {
    box.hidden = true;
    return;
  }
  if (!changed("dead:" + queue, letters)) return;
  box.hidden = false;
  box.querySelector("h3").replaceChildren("Dead letters of " + queue + " ",
    el("button", { onclick: () => { openQueue = null; seen["dead:" + queue] = null; poll(); } },
      "Close"));
  const path = "queues/" + encodeURIComponent(queue) + "/dead-letters/";
  rows(box.querySelector("tbody"), letters, 5, (d) =>
    el("tr", { "data-dead-letter": d.id },
      cell(d.id, "num"), cell(d.deliveries, "num"), cell(d.reason, "error"),
      cell(d.payload === null ? "(unreadable)" : d.payload, "payload"),
      el("td", {},
        el("button", { onclick: () => act(path + d.id + "/requeue") }, "Requeue"), " ",
        el("button", { class: "danger", onclick: () => act(path + d.id + "/drop") }, "Drop"))),
    "no dead letter");
}

function drawJobs(jobs) {
  if (!changed("jobs", jobs)) return;
  rows(document.querySelector("#jobs-waiting tbody"), jobs.waiting, 3, (w) =>
    el("tr", {}, cell(w.type), cell(w.priority, "num"), cell(num(w.waiting), "num")),
    "no job waits");
  rows(document.querySelector("#jobs-running tbody"), jobs.running, 2, (r) =>
    el("tr", {}, cell(r.node), cell(num(r.running), "num")), "no job runs");
  rows(document.querySelector("#jobs-nodes tbody"), jobs.nodes, 3, (n) =>
    el("tr", {}, cell(n.node), cell(n.epoch, "num"),
      cell(n.live ? (n.leaseLeftMillis / 1000).toFixed(1) + " s left" : "lapsed",
        n.live ? "live" : "lapsed")),
    "no node registered");
  rows(document.querySelector("#jobs-incidents tbody"), jobs.incidents, 5, (i) =>
    el("tr", { "data-job": i.id },
      cell(i.id, "num"), cell(i.type), cell(i.attempts, "num"), cell(i.error, "error"),
      el("td", {}, el("button", { class: "retry", onclick: () => act("jobs/" + i.id + "/retry") },
        "Retry"))),
    "no incident");
  drawRetryAll(jobs.stats);
}

// A "Retry all of <type>" button per type that has incidents.
function drawRetryAll(stats) {
  const types = (stats || []).filter((t) => t.incidents > 0).map((t) => t.type);
  if (!changed("retry-all", types)) return;
  document.getElementById("jobs-retry-all").replaceChildren(...types.map((type) =>
    el("button", { class: "retry-all", "data-type": type, onclick: () => retryAll(type) },
      "Retry all of " + type)));
  document.getElementById("history-types").replaceChildren(...(stats || []).map((t) =>
    el("option", { value: t.type })));
}

function retryAll(type) {
  if (confirm("Make every incident of type " + type + " wait again, due now?")) {
    act("jobs/retry?type=" + encodeURIComponent(type));
  }
}

// The history's filters as a query string.
function historyFilters() {
  const params = new URLSearchParams();
  const type = document.getElementById("history-type").value.trim();
  const state = document.getElementById("history-state").value;
  const text = document.getElementById("history-search").value.trim();
  if (type) params.set("type", type);
  if (state) params.set("state", state);
  if (text) params.set("q", text);
  return params.toString();
}

function editHistory() {
  clearTimeout(historyEdit);
  historyEdit = setTimeout(() => {
    historyEdit = null;
    loadHistory(false);
  }, HISTORY_SETTLE_MILLIS);
}

// Reads the newest page of the history (more: the page after those shown). With the filters it
// was read with, the entries that are new go on top of those shown (an entry never changes); with
// other filters, or when more than a page is new, the page replaces them.
async function loadHistory(more) {
  if (historyEdit !== null || jobHistory.loading) return;
  const filters = historyFilters();
  const same = filters === jobHistory.filters;
  if (more && (!same || jobHistory.next === null)) return;
  const params = new URLSearchParams(filters);
  params.set("max", HISTORY_PAGE);
  if (more) params.set("before", jobHistory.next);
  jobHistory.loading = true;
  try {
    const page = await get("jobs/history?" + params);
    if (historyEdit !== null || historyFilters() !== filters) return; // read again once they rest
    const shown = jobHistory.list;
    const newest = same && shown.length > 0 ? shown[0].id : null;
    if (more) {
      jobHistory.list = shown.concat(page.history);
      jobHistory.next = page.next;
    } else if (newest === null || (page.next !== null && page.next > newest)) {
      jobHistory.list = page.history;
      jobHistory.next = page.next;
    } else {
      jobHistory.list = page.history.filter((e) => e.id > newest).concat(shown);
    }
    jobHistory.filters = filters;
    drawHistory(page.retention, filters);
  } catch (e) {
    if (e instanceof Unauthorized) askForToken();
    else status("The history could not be read: " + e.message);
  } finally {
    jobHistory.loading = false;
  }
}

function drawHistory(retention, filters) {
  const cut = (text) => (text.length > 200 ? text.slice(0, 199) + "…" : text);
  rows(document.querySelector("#jobs-history tbody"), jobHistory.list, 9, (e) =>
    el("tr", { "data-entry": e.id, "data-state": e.state },
      cell(e.id, "num"), cell(e.jobId, "num"), cell(e.type), cell(e.state, "state"),
      cell(e.attempts, "num"), cell(e.node === null ? "–" : e.node),
      cell(e.finishedAt.slice(0, 19).replace("T", " ")),
      cell(e.error === null ? "" : cut(e.error), "error"),
      el("td", { class: "payload", title: e.payload === null ? "" : e.payload },
        e.payload === null ? "" : cut(e.payload))),
    retention === "PT0S" ? "no history is kept: sluice.jobs.history is 0ms"
      : filters ? "no finished job matches" : "no finished job");
  document.getElementById("jobs-history-more").hidden = jobHistory.next === null;
}

function drawBatch(instances) {
  followFailures(instances);
  if (!changed("batch", instances)) return;
  rows(document.querySelector("#batch > table tbody"), instances, 9, (b) => {
    const done = b.loaded === 0 ? 0 : b.processed / b.loaded;
    const running = b.state === "LOADING" || b.state === "RUNNING";
    return el("tr", { "data-instance": b.id },
      cell(b.id, "num"), cell(b.job),
      cell(b.state + (b.stopRequested && running ? " (stop asked)" : "")),
      el("td", {}, el("progress", { max: 1, value: done }), " " + Math.floor(done * 100) + "%"),
      cell(num(b.loaded) + (b.inputDone ? "" : "+"), "num"), cell(num(b.processed), "num"),
      cell(num(b.failed), "num"), cell(b.updated),
      el("td", {},
        running
          ? el("button", { class: "danger", onclick: () => act("batch/" + b.id + "/stop") }, "Stop")
          : null,
        b.state === "STOPPED"
          ? el("button", { class: "resume", onclick: () => act("batch/" + b.id + "/resume") },
            "Resume")
          : null,
        " ",
        b.failed > 0
          ? el("button", { class: "failures", onclick: () => showFailures(b) }, "Failed records")
          : null));
  }, "no batch instance");
}

function showFailures(instance) {
  openFailures = { id: instance.id, job: instance.job, list: [], from: 0, more: true, failed: -1 };
  const box = document.getElementById("batch-failures");
  box.querySelector("h3").replaceChildren(
    "Failed records of instance " + instance.id + " (" + instance.job + ") ",
    el("button", { onclick: () => { openFailures = null; box.hidden = true; } }, "Close"));
  box.querySelector("tbody").replaceChildren();
  box.hidden = false;
  loadFailures();
}

// Reads the next page of the open instance's failed records and adds it to those shown.
async function loadFailures() {
  const open = openFailures;
  if (open === null || open.loading) return;
  open.loading = true;
  try {
    const page = await get("batch/" + open.id + "/failures?from=" + open.from + "&max=" +
      FAILURES_PAGE);
    if (openFailures !== open) return;
    open.list = open.list.concat(page.failures);
    open.more = page.next !== null;
    open.from = page.next !== null ? page.next
      : open.list.length > 0 ? open.list[open.list.length - 1].position + 1 : 0;
    open.failed = page.failed;
    rows(document.querySelector("#batch-failures tbody"), open.list, 4, (f) =>
      el("tr", { "data-position": f.position },
        cell(f.position, "num"), cell(f.step), cell(f.error, "error"),
        cell(f.payload === null ? "" : f.payload, "payload")),
      "no failed record kept");
    document.getElementById("batch-failures-more").hidden = !open.more;
  } catch (e) {
    if (e instanceof Unauthorized) askForToken();
    else status("The failed records could not be read: " + e.message);
  } finally {
    open.loading = false;
  }
}

// At the last page, the records an instance fails from now on are added as it counts them.
function followFailures(instances) {
  const open = openFailures;
  if (open === null || open.more || open.loading) return;
  const now = instances.find((b) => b.id === open.id);
  if (now && now.failed !== open.failed) loadFailures();
}

// A section whose store keeps nothing (404) says so; an outage (503) goes to the banner.
function section(id, error, problems) {
  const note = document.querySelector("#" + id + " .note");
  if (error && error.status === 404) {
    note.textContent = error.message;
    note.hidden = false;
    return;
  }
  if (note) note.hidden = true;
  if (error) problems.push(id + ": " + error.message);
}

let polling = false;

async function poll() {
  // A tab nobody looks at asks nothing: the port's four threads serve /health and /metrics too.
  if (polling || waitingForToken || document.hidden) return;
  polling = true;
  try {
    const asks = ["flows", "queues", "jobs", "batch"].map((path) =>
      get(path).then((data) => ({ data }), (error) => ({ error })));
    const queue = openQueue;
    if (queue !== null) {
      asks.push(get("queues/" + encodeURIComponent(queue) + "/dead-letters").then(
        (data) => ({ data }), (error) => ({ error })));
    }
    const [flows, queues, jobs, batch, dead] = await Promise.all(asks);
    const all = [flows, queues, jobs, batch, dead].filter((a) => a);
    if (all.some((a) => a.error instanceof Unauthorized)) {
      askForToken();
      return;
    }
    const problems = [];
    if (flows.error) problems.push("flows: " + flows.error.message); else drawFlows(flows.data);
    if (queues.error) problems.push("queues: " + queues.error.message); else drawQueues(queues.data);
    section("jobs", jobs.error, problems);
    if (!jobs.error) {
      drawJobs(jobs.data);
      loadHistory(false);
    }
    section("batch", batch.error, problems);
    if (!batch.error) drawBatch(batch.data);
    if (dead) {
      if (dead.error) {
        problems.push("dead letters: " + dead.error.message);
        if (dead.error.status === 404) openQueue = null;
      } else drawDeadLetters(queue, dead.data);
    } else drawDeadLetters(null, null);
    banner(problems);
    document.getElementById("updated").textContent =
      "updated " + new Date().toLocaleTimeString("en-GB");
  } catch (e) {
    banner(["The management port does not answer: " + e.message]);
  } finally {
    polling = false;
  }
}

document.addEventListener("DOMContentLoaded", () => {
  document.getElementById("batch-failures-more").addEventListener("click", loadFailures);
  document.getElementById("jobs-history-more").addEventListener("click", () => loadHistory(true));
  const form = document.getElementById("history-form");
  form.addEventListener("input", editHistory);
  form.addEventListener("submit", (event) => event.preventDefault());
  document.getElementById("token-form").addEventListener("submit", (event) => {
    event.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, document.getElementById("token").value.trim());
    document.getElementById("token").value = "";
    document.getElementById("token-form").hidden = true;
    waitingForToken = false;
    poll();
  });
  poll();
  setInterval(poll, POLL_MILLIS);
  document.addEventListener("visibilitychange", () => poll());
});
