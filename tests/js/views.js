// Reads [{id, spec, hw}] as JSON on stdin; prints {id: text of that view} computed by page.js (the page's code).
const TTL = require(process.argv[2]);
let input = "";
process.stdin.on("data", (d) => { input += d; });
process.stdin.on("end", () => {
  const out = {};
  for (const c of JSON.parse(input)) {
    try { out[c.id] = TTL.text(new TTL.Layout(c.spec), c.hw); } catch (e) { out[c.id] = "ERROR: " + e.message; }
  }
  process.stdout.write(JSON.stringify(out));
});
