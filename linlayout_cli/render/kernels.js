// The page of many kernels' audits (render/kernels.py): a table of kernels sortable by any column, and a
// click on a kernel lists its op rows. Every string of the data is set with textContent, never as HTML.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("ttl-data").textContent);
  const COLUMNS = [
    ["rank", "#", "num"], ["cost", "cost", "num"], ["name", "kernel", "str"], ["target", "target", "str"],
    ["warps", "warps", "num"], ["costliest", "costliest op", "str"], ["conversions", "conversions", "str"],
    ["shared", "shared (model)", "num"], ["compiler", "shared (compiler)", "num"], ["note", "note", "str"],
    ["asm", "asm lines", "ratio"],
  ];
  const OP_COLUMNS = ["cost", "line", "op", "python", "layouts", "verdict", "asm (its Python line)"];
  const state = {key: "rank", dir: 1, selected: -1};
  const $ = (id) => document.getElementById(id);

  function cell(tag, text, cls) {
    const el = document.createElement(tag);
    el.textContent = text === null || text === undefined ? "-" : String(text);
    if (cls) el.className = cls;
    return el;
  }

  function header() {
    const row = $("kernels").tHead.rows[0];
    COLUMNS.forEach(([key, title, type]) => {
      const th = cell("th", title, type);
      th.dataset.key = key;
      th.tabIndex = 0;
      th.title = "sort by " + title;
      th.addEventListener("click", () => sortBy(key));
      th.addEventListener("keydown", (e) => { if (e.key === "Enter") sortBy(key); });
      row.appendChild(th);
    });
  }

  function compare(a, b, key, type) {
    const x = a[key], y = b[key];
    if (type === "ratio") {                              // "7/8": lines agreeing of those compared; "-" last
      const value = (s) => { const m = /^(\d+)\/(\d+)$/.exec(s || ""); return m ? m[1] / Math.max(1, m[2]) : -1; };
      return value(x) - value(y);
    }
    if (type === "num") {
      const nx = x === null ? -Infinity : x, ny = y === null ? -Infinity : y;
      return nx - ny;
    }
    const sx = String(x === null ? "" : x), sy = String(y === null ? "" : y);
    return sx < sy ? -1 : sx > sy ? 1 : 0;              // code points, as Python sorts: no locale folding
  }

  function sortBy(key, dir) {
    const type = COLUMNS.find((c) => c[0] === key)[2];
    if (dir !== undefined) state.dir = dir;
    else if (state.key === key) state.dir = -state.dir;
    else state.dir = (type === "num" || type === "ratio") && key !== "rank" ? -1 : 1;
    state.key = key;
    draw();
  }

  function rows() {
    const type = COLUMNS.find((c) => c[0] === state.key)[2];
    return data.kernels.map((k, i) => [k, i]).sort((a, b) =>
      state.dir * compare(a[0], b[0], state.key, type) || a[0].rank - b[0].rank);
  }

  function draw() {
    const body = $("kernels").tBodies[0];
    body.textContent = "";
    for (const [k, i] of rows()) {
      const tr = document.createElement("tr");
      tr.dataset.index = i;
      tr.tabIndex = 0;
      if (i === state.selected) tr.className = "on";
      for (const [key, , type] of COLUMNS) tr.appendChild(cell("td", k[key], type));
      if (k.notes.length) tr.cells[COLUMNS.findIndex((c) => c[0] === "note")].title = k.notes.join("\n");
      tr.addEventListener("click", () => select(i));
      tr.addEventListener("keydown", (e) => { if (e.key === "Enter") select(i); });
      body.appendChild(tr);
    }
    for (const th of $("kernels").tHead.rows[0].cells) {
      const on = th.dataset.key === state.key;
      th.setAttribute("aria-sort", on ? (state.dir > 0 ? "ascending" : "descending") : "none");
    }
  }

  function select(i) {
    state.selected = i;
    const k = data.kernels[i];
    $("detail-title").textContent = k.name + " (" + k.target + ", " + (k.warps === null ? "?" : k.warps) +
      " warps): " + k.ops.length + " ops";
    $("detail-path").textContent = k.path;
    const notes = $("detail-notes");
    notes.textContent = "";
    for (const n of k.notes) notes.appendChild(cell("li", n));
    const body = $("ops").tBodies[0];
    body.textContent = "";
    for (const op of k.ops) {
      const tr = document.createElement("tr");
      op.forEach((v, j) => tr.appendChild(cell("td", v, j < 2 ? "num" : "str")));
      body.appendChild(tr);
    }
    $("ops").hidden = k.ops.length === 0;
    draw();
  }

  function failures() {
    const list = $("failures");
    list.hidden = data.failures.length === 0;
    for (const f of data.failures) {
      const li = document.createElement("li");
      li.appendChild(cell("b", f.name));
      li.appendChild(document.createTextNode(": " + f.reason));
      list.querySelector("ul").appendChild(li);
    }
  }

  document.title = "ttlayout audit: " + data.title;
  $("title").textContent = "ttlayout audit " + data.title;
  $("summary").textContent = data.summary;
  const opHead = $("ops").tHead.rows[0];
  OP_COLUMNS.forEach((c) => opHead.appendChild(cell("th", c)));
  header();
  draw();
  failures();
  window.ttlKernels = {
    sortBy, select,
    order: () => Array.from($("kernels").tBodies[0].rows, (r) => Number(r.dataset.index)),
    data,
  };
})();
