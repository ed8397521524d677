/* ttlayout's interactive layout page. The page embeds a layout's bases (not its grid) and computes every mapping
   here: element -> holders by solving the layout's linear system over GF(2), holder -> element by XOR-ing bases.
   The same file runs under node for the tests (module.exports), which compare its text views with Triton's. */
(function (root) {
  "use strict";

  // ------------------------------------------------------------------ colours (the formulas of palette.py)
  var GOLDEN_ANGLE = 137508, FIRST_HUE = 210000, SAT = 70, LIGHTEST = 90, DARKEST = 56, BANK_L = [74, 86];
  function warpHue(g) { return ((FIRST_HUE + g * GOLDEN_ANGLE) % 360000) / 1000; }
  function laneLightness(lane, lanes) {
    if (lanes <= 1) return Math.floor((LIGHTEST + DARKEST) / 2);
    return Math.round(LIGHTEST - (LIGHTEST - DARKEST) * lane / (lanes - 1));
  }
  function threadHsl(g, lane, lanes) { return [warpHue(g), SAT, laneLightness(lane, lanes)]; }
  function bankHsl(b, banks) { banks = banks || 32; return [(b * 360 / banks) % 360, SAT, BANK_L[b % 2]]; }
  function css(hsl) { return "hsl(" + hsl[0] + "," + hsl[1] + "%," + hsl[2] + "%)"; }
  function rgb(hsl) {
    var h = hsl[0] / 360, s = hsl[1] / 100, l = hsl[2] / 100;
    var q = l < 0.5 ? l * (1 + s) : l + s - l * s, p = 2 * l - q;
    function ch(t) {
      t = t < 0 ? t + 1 : (t > 1 ? t - 1 : t);
      if (t < 1 / 6) return p + (q - p) * 6 * t;
      if (t < 1 / 2) return q;
      if (t < 2 / 3) return p + (q - p) * (2 / 3 - t) * 6;
      return p;
    }
    return [Math.round(ch(h + 1 / 3) * 255), Math.round(ch(h) * 255), Math.round(ch(h - 1 / 3) * 255)];
  }
  function faded(hsl) { return [hsl[0], 25, 94]; }

  // ------------------------------------------------------------------ GF(2) over 32-bit unsigned ints
  function lead(v) { return 31 - Math.clz32(v); }
  function log2(n) { return 31 - Math.clz32(n); }

  function spanTable(vectors) {               // entry x = XOR of vectors[i] over the set bits i of x
    var t = new Uint32Array(1 << vectors.length);
    for (var i = 0; i < vectors.length; i++) {
      var w = 1 << i;
      for (var j = 0; j < w; j++) t[w + j] = (t[j] ^ vectors[i]) >>> 0;
    }
    return t;
  }

  function Xor(cols) {                        // forward map: XOR of cols over the set bits, 8 bits per table
    this.tables = [];
    for (var i = 0; i < cols.length; i += 8) this.tables.push(spanTable(cols.slice(i, i + 8)));
  }
  Xor.prototype.apply = function (x) {
    var v = 0, t = this.tables;
    for (var i = 0; i < t.length; i++) v ^= t[i][(x >>> (8 * i)) & 255];
    return v >>> 0;
  };

  function Echelon() { this.rows = {}; this.leads = []; }   // rows keyed by leading bit: [vector, tag]
  Echelon.prototype.reduce = function (v) {
    var tag = 0;
    for (var i = 0; i < this.leads.length; i++) {
      var l = this.leads[i];
      if ((v >>> l) & 1) { var r = this.rows[l]; v = (v ^ r[0]) >>> 0; tag = (tag ^ r[1]) >>> 0; }
    }
    return [v, tag];
  };
  Echelon.prototype.insert = function (v, tag) {
    var red = this.reduce(v);
    if (red[0] === 0) return false;
    var l = lead(red[0]);
    this.rows[l] = [red[0], (red[1] ^ tag) >>> 0];
    this.leads.push(l);
    this.leads.sort(function (a, b) { return b - a; });
    return true;
  };

  function reducedEchelon(vectors) {          // every leading bit set in exactly one vector; sorted ascending
    var basis = [];
    vectors.forEach(function (v) {
      basis.forEach(function (b) { if (((v ^ b) >>> 0) < v) v = (v ^ b) >>> 0; });
      if (v) {
        var top = lead(v);
        basis = basis.map(function (b) { return ((b >>> top) & 1) ? (b ^ v) >>> 0 : b; });
        basis.push(v);
      }
    });
    return basis.sort(function (a, b) { return a - b; });
  }

  // ------------------------------------------------------------------ one layout
  var HW = ["register", "lane", "warp", "block"], SHARED = ["offset", "block", "partition"],
      TMEM = ["row", "col", "block"];

  function Layout(spec) {
    var self = this;
    this.spec = spec;
    this.shape = spec.shape.slice();
    this.rank = this.shape.length;
    this.shared = spec.kind === "shared";
    this.tmem = spec.kind === "tmem";              // Blackwell tensor memory: row, 32-bit column slot, CTA
    this.bits = spec.elementBits || 16;
    this.inDims = this.shared ? SHARED : (this.tmem ? TMEM : HW);
    this.inBits = {};
    this.inDims.forEach(function (d) { self.inBits[d] = (spec.bases[d] || []).length; });
    // row-major flat element index: the last dim in the lowest bits
    this.shift = [];
    var s = 0;
    for (var d = this.rank - 1; d >= 0; d--) { this.shift[d] = s; s += log2(this.shape[d]); }
    this.outBits = s;
    this.n = Math.pow(2, s);
    this.cols = [];
    this.inDims.forEach(function (d) {
      (spec.bases[d] || []).forEach(function (b) {
        var v = 0;
        for (var k = 0; k < self.rank; k++) v = (v | (b[k] << self.shift[k])) >>> 0;
        self.cols.push(v);
      });
    });
    if (this.cols.length > 31 || this.outBits > 31) throw new Error("layout too large for this page");
    this.fwd = new Xor(this.cols);
    this.ech = new Echelon();
    var kernel = [];
    this.cols.forEach(function (c, i) {
      var red = self.ech.reduce(c);
      if (red[0]) self.ech.insert(c, (1 << i) >>> 0);
      else kernel.push((red[1] | (1 << i)) >>> 0);
    });
    this.kernel = reducedEchelon(kernel);
    if (this.tmem) {                               // an unused row / column slot holds nothing: no holder there
      var unused = (spec.unused[0] | (spec.unused[1] << this.inBits.row)) >>> 0;
      this.kernel = this.kernel.filter(function (k) { return !((k & (k - 1)) === 0 && (k & unused)); });
    }
    this.copies = Math.pow(2, this.kernel.length);
    this.leadMask = 0;
    this.kernel.forEach(function (k) { self.leadMask = (self.leadMask | (1 << lead(k))) >>> 0; });
    if (this.shared) {
      this.offsets = 1 << this.inBits.offset;
      this.blocks = 1 << this.inBits.block;
      this.parts = 1 << this.inBits.partition;     // partitioned_shared: one buffer per partition
      this.padding = spec.padding || null;         // padded_shared: [[interval, padding], ...]
      this.bufSize = this.position(this.offsets - 1) + 1;
    } else if (this.tmem) {
      this.rows = 1 << this.inBits.row; this.tcols = 1 << this.inBits.col; this.B = 1 << this.inBits.block;
      this.rowUnused = spec.unused[0]; this.colUnused = spec.unused[1];
      this.slots = Math.max(1, Math.floor(32 / this.bits));
      this.lanes = Math.min(32, this.rows);
      this.showSlot = false;
      for (var c = 0; c < this.tcols; c++) if (!(c & this.colUnused) && c % this.slots) this.showSlot = true;
    } else {
      this.R = 1 << this.inBits.register; this.T = 1 << this.inBits.lane;
      this.W = 1 << this.inBits.warp; this.B = 1 << this.inBits.block;
      this.regBits = this.inBits.register;
      // holder threads (block * threads + thread) of an element: hi(x0) ^ span(hi(kernel))
      this.hiKernel = new Echelon();
      this.kernel.forEach(function (k) { self.hiKernel.insert(k >>> self.regBits, 0); });
      this.threadElements = Math.pow(2, new RankOf(this.cols.slice(0, this.regBits)).rank);
    }
  }
  function RankOf(vectors) { var e = new Echelon(); this.rank = 0; var self = this;
    vectors.forEach(function (v) { if (e.insert(v, 0)) self.rank++; }); }

  Layout.prototype.element = function (x) { return this.fwd.apply(x); };
  Layout.prototype.coords = function (e) {
    var out = [];
    for (var d = 0; d < this.rank; d++) out.push((e >>> this.shift[d]) & (this.shape[d] - 1));
    return out;
  };
  Layout.prototype.flat = function (coords) {
    var e = 0;
    for (var d = 0; d < this.rank; d++) e = (e | (coords[d] << this.shift[d])) >>> 0;
    return e;
  };
  // the smallest holder of element e (-1 when no input reaches it)
  Layout.prototype.firstHolder = function (e) {
    var red = this.ech.reduce(e);
    if (red[0] !== 0) return -1;
    var x = red[1];
    for (var i = 0; i < this.kernel.length; i++) {
      var k = this.kernel[i];
      if ((x >>> lead(k)) & 1) x = (x ^ k) >>> 0;
    }
    return x;
  };
  // every holder of e, ascending (at most `limit`, the smallest ones)
  Layout.prototype.holders = function (e, limit) {
    var x = this.firstHolder(e);
    if (x < 0) return [];
    var bits = this.kernel.length;
    if (limit !== undefined) bits = Math.min(bits, Math.max(0, 32 - Math.clz32(limit - 1)));
    var t = spanTable(this.kernel.slice(0, bits)), out = [];
    for (var i = 0; i < t.length; i++) out.push((x ^ t[i]) >>> 0);
    var self = this;
    if (this.tmem) out.sort(function (a, b) { return self.tmemKey(a) - self.tmemKey(b); });
    else out.sort(function (a, b) { return a - b; });
    return limit === undefined ? out : out.slice(0, limit);
  };
  Layout.prototype.hw = function (x) {            // distributed input x -> its parts
    var r = x & (this.R - 1), rest = x >>> this.regBits;
    var lane = rest & (this.T - 1), warp = (rest >>> this.inBits.lane) & (this.W - 1);
    var block = rest >>> (this.inBits.lane + this.inBits.warp);
    return {register: r, lane: lane, warp: warp, block: block, thread: lane + warp * this.T,
            group: block * this.W + warp};
  };
  Layout.prototype.holderName = function (x) {
    var h = this.hw(x);
    return (this.B > 1 ? "B" + h.block + ":" : "") + "T" + h.thread + ":" + h.register;
  };
  Layout.prototype.heldBy = function (e, hiSel) {  // does thread hiSel (= block * threads + thread) hold e?
    var x = this.firstHolder(e);
    if (x < 0) return false;
    return this.hiKernel.reduce(((x >>> this.regBits) ^ hiSel) >>> 0)[0] === 0;
  };
  Layout.prototype.bank = function (offset) { return Math.floor(offset * this.bits / 32) % 32; };
  // shared memory: the memory position of linear offset o (o plus the padding of every interval it has passed)
  Layout.prototype.position = function (o) {
    var q = o, pads = this.padding;
    if (pads) for (var i = 0; i < pads.length; i++) q += Math.floor(o / pads[i][0]) * pads[i][1];
    return q;
  };
  Layout.prototype.offsetBelow = function (q) {    // the last linear offset at or before memory position q
    var lo = 0, hi = this.offsets - 1;
    while (lo < hi) { var mid = Math.ceil((lo + hi) / 2); if (this.position(mid) <= q) lo = mid; else hi = mid - 1; }
    return lo;
  };
  Layout.prototype.offsetAt = function (q) {       // the linear offset at memory position q, -1 for padding
    if (!this.padding) return q < this.offsets ? q : -1;
    var o = this.offsetBelow(q);
    return this.position(o) === q ? o : -1;
  };
  Layout.prototype.padsBefore = function (o) {     // the (interval, padding) pairs inserting padding before o
    return o && this.padding ? this.padding.filter(function (ip) { return o % ip[0] === 0; }) : [];
  };
  Layout.prototype.buffer = function (x) {        // shared input x -> {block, partition, offset, position}
    var o = x % this.offsets, g = Math.floor(x / this.offsets);
    return {block: g % this.blocks, partition: Math.floor(g / this.blocks), offset: o, position: this.position(o)};
  };
  Layout.prototype.bankOf = function (x) { return this.bank(this.position(x % this.offsets)); };
  Layout.prototype.placeName = function (x) {     // shared tensor view label: [B<b>:][P<p>:]<position>
    var p = this.buffer(x);
    return (this.blocks > 1 ? "B" + p.block + ":" : "") + (this.parts > 1 ? "P" + p.partition + ":" : "") + p.position;
  };
  // tensor memory: input x -> {block, row, col (the slot column), column (32-bit), slot}
  Layout.prototype.tmemPlace = function (x) {
    var r = x & (this.rows - 1), c = (x >>> this.inBits.row) & (this.tcols - 1);
    var b = x >>> (this.inBits.row + this.inBits.col);
    return {block: b, row: r, col: c, column: Math.floor(c / this.slots), slot: c % this.slots, id: b * this.rows + r};
  };
  Layout.prototype.tmemName = function (x) {
    var p = this.tmemPlace(x);
    return (this.B > 1 ? "B" + p.block + ":" : "") + "R" + p.row + ":C" + p.column + (this.showSlot ? "." + p.slot : "");
  };
  Layout.prototype.tmemKey = function (x) {       // the text view's order: block, row, column
    var p = this.tmemPlace(x);
    return (p.block * this.rows + p.row) * this.tcols + p.col;
  };
  Layout.prototype.rowHsl = function (id) {       // a TMEM row's colour: hue = warp (32 rows), shade = lane
    return threadHsl(Math.floor(id / this.lanes), id % this.lanes, this.lanes);
  };
  Layout.prototype.holderHsl = function (x) {
    if (this.tmem) return this.rowHsl(this.tmemPlace(x).id);
    var h = this.hw(x);
    return threadHsl(h.group, h.lane, this.T);
  };
  Layout.prototype.isCopy = function (x) { return ((x & this.leadMask) >>> 0) !== 0; };

  // ------------------------------------------------------------------ Triton's text views (tests)
  function rjust(s, w) { while (s.length < w) s = " " + s; return s; }
  function coordText(layout, e, sep) {
    var parts = [];
    for (var d = 0; d < layout.rank; d++) parts.push(rjust(String((e >>> layout.shift[d]) & (layout.shape[d] - 1)),
                                                     String(layout.shape[d]).length));
    return "(" + parts.join(sep) + ")";
  }
  function rowsText(shape, cells, sep) {
    var rank = shape.length, rowLen = shape[rank - 1], nrows = cells.length / rowLen, strides = [], s = 1;
    for (var d = rank - 2; d >= 0; d--) { s *= shape[d]; strides.push(s); }
    function brackets(q) {
      q = q % nrows;
      var o = 1;
      strides.forEach(function (st) { if (q % st === 0) o++; });
      return o;
    }
    var out = [];
    for (var q = 0; q < nrows; q++) {
      var o = brackets(q);
      out.push(new Array(o + 1).join("[") + new Array(rank - o + 1).join(" ") +
               cells.slice(q * rowLen, (q + 1) * rowLen).join(sep) + new Array(brackets(q + 1) + 1).join("]") + "\n");
    }
    return out.join("");
  }
  function padCell(L, sep) {
    return "(" + L.shape.map(function (s) { return rjust("-", String(s).length); }).join(sep) + ")";
  }
  function memoryText(L, hwView) {               // render/memory.py's views of padded / partitioned / TMEM layouts
    var out = [], e, b, r, c;
    if (L.tmem) {
      var rows = L.rows, cols = L.tcols;
      function used(r, c) { return !(r & L.rowUnused) && !(c & L.colUnused); }
      if (!hwView) {
        var held = [], width = 0;
        for (e = 0; e < L.n; e++) held.push([]);
        for (b = 0; b < L.B; b++) for (r = 0; r < rows; r++) for (c = 0; c < cols; c++) {
          if (!used(r, c)) continue;
          var x = r + rows * (c + cols * b), name = L.tmemName(x);
          held[L.element(x)].push(name);
          width = Math.max(width, name.length);
        }
        return rowsText(L.shape, held.map(function (h) { return h.map(function (t) { return rjust(t, width); })
                                                               .join("|"); }), ", ");
      }
      var unusedText = rjust("-", coordText(L, 0, ",").length), columns = Math.ceil(cols / L.slots);
      for (b = 0; b < L.B; b++) {
        out.push("Block: " + b + ":\n");
        for (r = 0; r < rows; r++) {
          var cells = [];
          for (var k = 0; k < columns; k++) {
            var texts = [];
            for (c = k * L.slots; c < (k + 1) * L.slots; c++)
              texts.push(c >= cols || !used(r, c) ? unusedText : coordText(L, L.element(r + rows * (c + cols * b)), ","));
            cells.push(texts.join("|"));
          }
          out.push("Row " + r + ": " + cells.join(", ") + "\n");
        }
      }
      return out.join("");
    }
    if (!hwView) {
      var perBlock = Math.floor(L.n / L.blocks), pad = padCell(L, ":"), sc = [];
      for (e = 0; e < L.n; e++) {
        var bb = perBlock ? Math.floor(e / perBlock) : 0, rest = perBlock ? e % perBlock : 0;
        var p = Math.floor(rest / L.offsets), o = rest % L.offsets;
        var cell = coordText(L, L.element((p * L.blocks + bb) * L.offsets + o), ":");
        if (o + 1 < L.offsets) L.padsBefore(o + 1).forEach(function (ip) { for (var i = 0; i < ip[1]; i++) cell += "," + pad; });
        sc.push(cell);
      }
      return rowsText(L.shape, sc, ",");
    }
    for (b = 0; b < L.blocks; b++) {
      out.push("Block: " + b + ":\n");
      for (var pp = 0; pp < L.parts; pp++) {
        if (L.spec.bases.partition) out.push("Partition: " + pp + ":\n");
        for (var oo = 0; oo < L.offsets; oo++) {
          var q = L.position(oo), pads = L.padsBefore(oo);
          if (pads.length) {
            var run = 0;
            pads.forEach(function (ip) { run += ip[1]; });
            out.push("Offset: " + (run > 1 ? (q - run) + ".." + (q - 1) : String(q - 1)) + " -> padding (" +
                     pads.map(function (ip) { return ip[0] + ":+" + ip[1]; }).join(", ") + ")\n");
          }
          out.push("Offset: " + q + " -> " + coordText(L, L.element((pp * L.blocks + b) * L.offsets + oo), ",") + "\n");
        }
      }
    }
    return out.join("");
  }
  function text(layout, hwView) {
    var L = layout, out = [], e, x;
    if (L.tmem || (L.shared && (L.padding || L.spec.bases.partition))) return memoryText(L, hwView);
    if (!L.shared && !hwView) {
      var width = String(L.W * L.T).length + String(L.R).length + 2 + (L.B > 1 ? String(L.B).length + 2 : 0);
      var cells = [];
      for (e = 0; e < L.n; e++) cells.push(L.holders(e).map(function (h) { return rjust(L.holderName(h), width); })
                                             .join("|"));
      return rowsText(L.shape, cells, ", ");
    }
    if (!L.shared) {
      for (var g = 0; g < L.B * L.W; g++) {
        var b = Math.floor(g / L.W), w = g % L.W;
        out.push(L.B > 1 && w === 0 ? "Block" + b + ":\nWarp" + w + ":\n" : "Warp" + w + ":\n");
        for (var k = 0; k < L.R; k++) {
          var row = [];
          for (var lane = 0; lane < L.T; lane++) row.push(coordText(L, L.element(g * L.T * L.R + lane * L.R + k), ","));
          out.push(row.join(", ") + "\n");
        }
      }
      return out.join("");
    }
    var blockSize = Math.floor(L.n / L.blocks);
    if (!hwView) {
      var sc = [];
      for (e = 0; e < L.n; e++) sc.push(blockSize === 0 ? "" :
        coordText(L, L.element(e % blockSize + L.offsets * Math.floor(e / blockSize)), ":"));
      return rowsText(L.shape, sc, ",");
    }
    for (var bl = 0; bl < L.blocks; bl++) {
      out.push("Block: " + bl + ":\n");
      for (var o = 0; o < blockSize; o++) out.push("Offset: " + o + " -> " + coordText(L, L.element(o + L.offsets * bl), ",") + "\n");
    }
    return out.join("");
  }

  // ------------------------------------------------------------------ grids (what the canvas shows)
  var WRAP_1D = 64;
  function tensorGrid(L) {
    if (L.rank === 1) { var c = Math.min(L.shape[0], WRAP_1D); return {rows: L.shape[0] / c, cols: c}; }
    var rows = 1;
    for (var d = 0; d < L.rank - 1; d++) rows *= L.shape[d];
    return {rows: rows, cols: L.shape[L.rank - 1]};
  }
  function rowLength(L) { return Math.max(1, Math.min(L.bufSize, Math.floor(32 * 32 / L.bits))); }

  // One view of one layout as rows x cols cells: what is in cell (r, c).
  function Grid(L, hardware) {
    this.L = L; this.hardware = hardware;
    if (!hardware) {
      var g = tensorGrid(L);
      this.rows = g.rows; this.cols = g.cols;
    } else if (L.tmem) {
      this.rows = L.B * L.rows; this.cols = Math.ceil(L.tcols / L.slots);
    } else if (!L.shared) {
      this.rows = L.B * L.W * L.R; this.cols = L.T;
    } else {                                       // each buffer (CTA, then partition) as 128-byte lines
      this.perRow = rowLength(L);
      this.lines = Math.ceil(L.bufSize / this.perRow);
      this.rows = L.blocks * L.parts * this.lines; this.cols = this.perRow;
    }
  }
  // shared hardware view: the grid cell of input x, {r, c}
  Grid.prototype.placeOf = function (x) {
    var L = this.L, p = L.buffer(x), g = p.block * L.parts + p.partition;
    return {r: g * this.lines + Math.floor(p.position / this.perRow), c: p.position % this.perRow};
  };
  // {e: element, x: input or -1, ...}
  Grid.prototype.cell = function (r, c) {
    var L = this.L, x, e;
    if (!this.hardware) {
      e = r * this.cols + c;
      if (L.tmem) { var hs = L.holders(e, 64); return {e: e, x: hs.length ? hs[0] : -1}; }
      return {e: e, x: L.firstHolder(e)};
    }
    if (L.tmem) {                                  // a TMEM row, a 32-bit column: its slots' inputs (-1 unused)
      var b = Math.floor(r / L.rows), row = r % L.rows, slots = [], first = -1;
      for (var col = c * L.slots; col < (c + 1) * L.slots; col++) {
        var ok = col < L.tcols && !(col & L.colUnused) && !(row & L.rowUnused);
        x = ok ? row + L.rows * (col + L.tcols * b) : -1;
        slots.push(x);
        if (first < 0) first = x;
      }
      return {e: first < 0 ? -1 : L.element(first), x: first, slots: slots, row: b * L.rows + row};
    }
    if (L.shared) {
      var g = Math.floor(r / this.lines), q = (r % this.lines) * this.perRow + c;
      var o = q < L.bufSize ? L.offsetAt(q) : -1;
      if (o < 0) return {e: -1, x: -1, q: q, pad: q < L.bufSize};
      x = ((g % L.parts) * L.blocks + Math.floor(g / L.parts)) * L.offsets + o;
      return {e: L.element(x), x: x, q: q};
    }
    if (!L.shared) {
      var g = Math.floor(r / L.R), k = r % L.R;
      x = (g * L.T + c) * L.R + k;
    } else {
      var per = this.perRow, linesPerBlock = L.offsets / per, b = Math.floor(r / linesPerBlock);
      x = b * L.offsets + (r % linesPerBlock) * per + c;
    }
    return {e: L.element(x), x: x};
  };
  Grid.prototype.colour = function (cell, stripe) {   // hsl of a cell (stripe j of a replicated tensor cell)
    var L = this.L, x = cell.x;
    if (cell.pad) return PAD_HSL;
    if (x < 0) return null;
    if (stripe) x = L.holders(cell.e, stripe + 1)[stripe];
    if (L.shared) return bankHsl(L.bankOf(x));
    return L.holderHsl(x);
  };
  Grid.prototype.label = function (cell) {
    var L = this.L;
    if (cell.pad) return "pad";
    if (this.hardware && L.tmem) {
      return cell.x < 0 ? "-" : cell.slots.map(function (x) { return x < 0 ? "-" : "(" + L.coords(L.element(x)).join(",") + ")"; }).join("|");
    }
    if (cell.x < 0) return "";
    if (this.hardware) return "(" + L.coords(cell.e).join(",") + ")";
    if (L.shared) return L.placeName(cell.x);
    if (L.tmem) return L.tmemName(cell.x);
    return L.holderName(cell.x);
  };
  Grid.prototype.rowLabel = function (r) {
    var L = this.L;
    if (!this.hardware) {
      if (L.rank === 1) return String(r * this.cols);
      if (L.rank === 2) return String(r);
      var idx = [], rest = r;
      for (var d = L.rank - 2; d >= 0; d--) { idx.unshift(rest % L.shape[d]); rest = Math.floor(rest / L.shape[d]); }
      return idx.join(",");
    }
    if (L.tmem) return (L.B > 1 ? "B" + Math.floor(r / L.rows) + " " : "") + "R" + (r % L.rows);
    if (!L.shared) {
      var g = Math.floor(r / L.R);
      return (L.B > 1 ? "B" + Math.floor(g / L.W) + " " : "") + "w" + (g % L.W) + " r" + (r % L.R);
    }
    var buf = Math.floor(r / this.lines);
    return (L.blocks > 1 ? "B" + Math.floor(buf / L.parts) + " " : "") + (L.parts > 1 ? "P" + buf % L.parts + " " : "") +
      "@" + (r % this.lines) * this.perRow;
  };
  Grid.prototype.colLabel = function (c) {
    var L = this.L;
    if (!this.hardware) return L.rank === 1 ? "+" + c : String(c);
    if (L.tmem) return "C" + c;
    if (!L.shared) return String(c);
    return (c * L.bits) % 32 === 0 ? "b" + L.bank(c) : "";
  };
  Grid.prototype.groupSize = function () {     // rows between thicker separator lines
    var L = this.L;
    if (this.hardware) return L.tmem ? L.lanes : (L.shared ? this.lines : L.R);
    return L.rank > 2 ? L.shape[L.rank - 2] : 0;
  };
  Grid.prototype.describe = function (cell) {  // the tooltip
    var L = this.L, lines = [], el = "(" + L.coords(cell.e).join(", ") + ")";
    if (cell.pad) {
      return "position " + cell.q + ": padding (" + L.padsBefore(L.offsetBelow(cell.q) + 1).map(function (ip) {
        return ip[0] + ":+" + ip[1]; }).join(", ") + "), bank " + L.bank(cell.q);
    }
    if (L.tmem) return this.describeTmem(cell, el);
    if (L.shared) {
      if (cell.x < 0) return this.hardware ? "position " + cell.q + ": past the buffer" : "element " + el + ": not stored";
      var all = this.hardware ? [cell.x] : L.holders(cell.e, 16);
      all.forEach(function (x) {
        var p = L.buffer(x);
        lines.push((L.blocks > 1 ? "block " + p.block + ", " : "") + (L.parts > 1 ? "partition " + p.partition + ", " : "") +
                   "offset " + p.offset + (L.padding ? ", position " + p.position : "") + ", bank " +
                   L.bank(p.position) + " (" + L.bits + "-bit elements)");
      });
      if (!this.hardware && L.copies > all.length) lines.push("... " + L.copies + " offsets in all");
      return "element " + el + "\n" + lines.join("\n");
    }
    if (cell.x < 0) return "element " + el + ": held by no thread";
    var hs = this.hardware ? [cell.x] : L.holders(cell.e, 16);
    hs.forEach(function (x) {
      var h = L.hw(x);
      lines.push(L.holderName(x) + ": block " + h.block + ", warp " + h.warp + ", lane " + h.lane + ", register " +
                 h.register);
    });
    if (!this.hardware && L.copies > hs.length) lines.push("... " + L.copies + " holders in all");
    var head = "element " + el + (L.copies > 1 && !this.hardware ? " (held " + L.copies + " times)" : "");
    if (this.hardware && L.isCopy(cell.x)) lines.push("a copy: a lower index holds the same element");
    return head + "\n" + lines.join("\n");
  };
  Grid.prototype.describeTmem = function (cell, el) {
    var L = this.L, lines = [];
    function place(x) {
      var p = L.tmemPlace(x);
      return (L.B > 1 ? "block " + p.block + ", " : "") + "row " + p.row + " (warp " + Math.floor(p.row / L.lanes) % 4 +
        " of the warpgroup, lane " + p.row % L.lanes + "), 32-bit column " + p.column + ", slot " + p.slot;
    }
    if (this.hardware) {
      if (cell.x < 0) return "row " + (cell.row % L.rows) + ", 32-bit column: unused";
      cell.slots.forEach(function (x, s) {
        lines.push("slot " + s + ": " + (x < 0 ? "unused" : "element (" + L.coords(L.element(x)).join(", ") + ")"));
      });
      return place(cell.x).replace(/, slot \d+$/, "") + "\n" + lines.join("\n");
    }
    if (cell.x < 0) return "element " + el + ": in no tensor memory place";
    var hs = L.holders(cell.e, 16);
    hs.forEach(function (x) { lines.push(L.tmemName(x) + ": " + place(x)); });
    if (L.copies > hs.length) lines.push("... " + L.copies + " places in all");
    return "element " + el + (L.copies > 1 ? " (in " + L.copies + " places)" : "") + "\n" + lines.join("\n");
  };
  // is the cell part of the selection {thread: hi}, {bank: b} or {row: TMEM row id}?
  Grid.prototype.selected = function (cell, sel) {
    var L = this.L;
    if (!sel || cell.x < 0) return false;
    if (sel.row !== undefined) {
      if (this.hardware) return cell.row === sel.row;
      var rs = L.holders(cell.e, 64);
      for (var j = 0; j < rs.length; j++) if (L.tmemPlace(rs[j]).id === sel.row) return true;
      return false;
    }
    if (sel.bank !== undefined) {
      if (this.hardware) return L.bankOf(cell.x) === sel.bank;
      var hs = L.holders(cell.e, 64);
      for (var i = 0; i < hs.length; i++) if (L.bankOf(hs[i]) === sel.bank) return true;
      return false;
    }
    if (this.hardware) return (cell.x >>> L.regBits) === sel.thread;
    return L.heldBy(cell.e, sel.thread);
  };

  var PAD_HSL = [0, 0, 85];
  var api = {Layout: Layout, Grid: Grid, text: text, css: css, rgb: rgb, threadHsl: threadHsl, bankHsl: bankHsl,
             warpHue: warpHue, laneLightness: laneLightness, tensorGrid: tensorGrid, reducedEchelon: reducedEchelon};
  if (typeof module !== "undefined" && module.exports) { module.exports = api; return; }
  root.TTL = api;

  // ================================================================== the page
  var HIGHLIGHT = "#e0007a", LEFT = 64, TOP = 20, BASE_H = 18, FONT = "11px 'DejaVu Sans Mono', Menlo, monospace";
  var data = JSON.parse(document.getElementById("ttl-data").textContent);
  var canvas = document.getElementById("grid"), ctx = canvas.getContext("2d");
  var tip = document.getElementById("tip"), status = document.getElementById("status");
  // zoom: cell size relative to the readable default; fit may squeeze one axis more (zy / zx) than the other
  var state = {index: 0, hardware: data.view === "hardware", zoom: 1, zx: 1, zy: 1, px: 0, py: 0, sel: null, focus: null};
  var layouts = data.layouts.map(function (s) { return new Layout(s); });
  var grid, cw0;

  function setup() {
    var L = layouts[state.index];
    grid = new Grid(L, state.hardware);
    var chars = 4;
    for (var i = 0; i < 64; i++) {
      var r = Math.floor(i * grid.rows / 64), c = (i * 7) % grid.cols;
      chars = Math.max(chars, grid.label(grid.cell(Math.min(r, grid.rows - 1), c)).length);
    }
    chars = Math.max(chars, grid.label(grid.cell(grid.rows - 1, grid.cols - 1)).length);
    cw0 = Math.max(28, Math.ceil(chars * 6.7 + 10));
    document.getElementById("title").textContent = data.layouts[state.index].title;
    var kind = L.tmem ? "tensor memory" : L.shared ? (L.parts > 1 ? "partitioned " : "") + (L.padding ? "padded " : "") +
      "shared" : "distributed";
    document.getElementById("shape").textContent = L.shape.join("x") + " " + kind +
      " layout, " + (state.hardware ? "hardware" : "tensor") + " view: " + grid.rows + " x " + grid.cols + " cells";
    document.getElementById("v-tensor").className = state.hardware ? "" : "on";
    document.getElementById("v-hardware").className = state.hardware ? "on" : "";
    legend(L);
    clamp();
    draw();
  }

  function cellW() { return cw0 * state.zoom * state.zx; }
  function cellH() { return BASE_H * state.zoom * state.zy; }
  function viewW() { return canvas.clientWidth - LEFT; }
  function viewH() { return canvas.clientHeight - TOP; }
  function clamp() {
    var maxX = Math.max(0, grid.cols * cellW() - viewW()), maxY = Math.max(0, grid.rows * cellH() - viewH());
    state.px = Math.min(Math.max(0, state.px), maxX);
    state.py = Math.min(Math.max(0, state.py), maxY);
  }

  function resize() {
    var dpr = window.devicePixelRatio || 1, box = canvas.getBoundingClientRect();
    canvas.width = Math.round(box.width * dpr);
    canvas.height = Math.round(box.height * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    clamp();
    draw();
  }

  function draw() {
    var W = canvas.clientWidth, H = canvas.clientHeight, cw = cellW(), ch = cellH();
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, W, H);
    var r0 = Math.floor(state.py / ch), r1 = Math.min(grid.rows, Math.ceil((state.py + viewH()) / ch));
    var c0 = Math.floor(state.px / cw), c1 = Math.min(grid.cols, Math.ceil((state.px + viewW()) / cw));
    if (cw < 3 || ch < 3) drawPixels(r0, r1, c0, c1); else drawCells(r0, r1, c0, c1);
    drawAxes(r0, r1, c0, c1);
  }

  function fillFor(hsl, on) { return hsl ? css(state.sel && !on ? faded(hsl) : hsl) : "#fff"; }

  function drawCells(r0, r1, c0, c1) {
    var cw = cellW(), ch = cellH(), L = grid.L, stripes = !grid.hardware && !L.shared ? Math.min(L.copies, 8) : 1;
    if (grid.hardware && L.tmem) stripes = 1;
    var showText = ch >= 11 && cw >= 20;
    ctx.save();
    ctx.beginPath(); ctx.rect(LEFT, TOP, viewW(), viewH()); ctx.clip();
    ctx.font = FONT; ctx.textAlign = "center"; ctx.textBaseline = "middle";
    var group = grid.groupSize();
    for (var r = r0; r < r1; r++) {
      var y = TOP + r * ch - state.py;
      for (var c = c0; c < c1; c++) {
        var x = LEFT + c * cw - state.px, cell = grid.cell(r, c), on = grid.selected(cell, state.sel);
        if (stripes > 1 && cell.x >= 0) {
          var hs = L.holders(cell.e, stripes);
          for (var j = 0; j < hs.length; j++) {
            ctx.fillStyle = fillFor(L.holderHsl(hs[j]), on);
            ctx.fillRect(x + j * cw / hs.length, y, cw / hs.length + 0.5, ch);
          }
        } else {
          ctx.fillStyle = fillFor(grid.colour(cell), on);
          ctx.fillRect(x, y, cw, ch);
        }
        if (grid.hardware && cell.x >= 0 && !L.tmem && L.isCopy(cell.x)) hatch(x, y, cw, ch);
        ctx.strokeStyle = "#fff"; ctx.lineWidth = 1;
        ctx.strokeRect(x + 0.5, y + 0.5, cw - 1, ch - 1);
        if (on) { ctx.strokeStyle = HIGHLIGHT; ctx.lineWidth = 2; ctx.strokeRect(x + 1, y + 1, cw - 2, ch - 2); }
        if (state.focus !== null && cell.e === state.focus && !grid.hardware) {
          ctx.strokeStyle = "#000"; ctx.lineWidth = 3; ctx.strokeRect(x + 1.5, y + 1.5, cw - 3, ch - 3);
        }
        if (showText) {
          var t = grid.label(cell);
          if (t.length * 6.7 <= cw) { ctx.fillStyle = state.sel && !on ? "#999" : "#111"; ctx.fillText(t, x + cw / 2, y + ch / 2 + 1); }
        }
      }
      if (group && (r + 1) % group === 0) {
        ctx.fillStyle = "#333"; ctx.fillRect(LEFT + c0 * cw - state.px, y + ch - 1, (c1 - c0) * cw, 2);
      }
    }
    ctx.restore();
  }

  function hatch(x, y, w, h) {
    ctx.save();
    ctx.beginPath(); ctx.rect(x, y, w, h); ctx.clip();
    ctx.strokeStyle = "rgba(0,0,0,0.25)"; ctx.lineWidth = 1.5;
    ctx.beginPath();
    for (var d = -h; d < w; d += 6) { ctx.moveTo(x + d, y + h); ctx.lineTo(x + d + h, y); }
    ctx.stroke();
    ctx.restore();
  }

  function drawPixels(r0, r1, c0, c1) {            // cells smaller than a pixel: colour each pixel by its cell
    var cw = cellW(), ch = cellH(), dpr = window.devicePixelRatio || 1;
    var w = Math.max(1, Math.min(viewW(), Math.ceil(grid.cols * cw - state.px)));
    var h = Math.max(1, Math.min(viewH(), Math.ceil(grid.rows * ch - state.py)));
    var img = ctx.createImageData(Math.round(w * dpr), Math.round(h * dpr)), px = img.data;
    var cache = {}, lastR = -1, lastC = -1, rgbv = [255, 255, 255];
    for (var j = 0; j < img.height; j++) {
      var r = Math.min(grid.rows - 1, Math.floor((state.py + j / dpr) / ch));
      for (var i = 0; i < img.width; i++) {
        var c = Math.min(grid.cols - 1, Math.floor((state.px + i / dpr) / cw)), k = (j * img.width + i) * 4;
        if (r !== lastR || c !== lastC) {          // a cell spans several pixels: work it out once
          var cell = grid.cell(r, c), on = grid.selected(cell, state.sel), hsl = grid.colour(cell);
          rgbv = [255, 255, 255];
          if (hsl) {
            if (on) hsl = [0, 100, 44];
            else if (state.sel) hsl = faded(hsl);
            var key = hsl.join(",");
            rgbv = cache[key] || (cache[key] = rgb(hsl));
          }
          lastR = r; lastC = c;
        }
        px[k] = rgbv[0]; px[k + 1] = rgbv[1]; px[k + 2] = rgbv[2]; px[k + 3] = 255;
      }
    }
    ctx.putImageData(img, LEFT * dpr, TOP * dpr);
  }

  function drawAxes(r0, r1, c0, c1) {
    var cw = cellW(), ch = cellH(), W = canvas.clientWidth, H = canvas.clientHeight;
    ctx.fillStyle = "#f4f4f4"; ctx.fillRect(0, 0, W, TOP); ctx.fillRect(0, 0, LEFT, H);
    ctx.font = "10px 'DejaVu Sans Mono', Menlo, monospace"; ctx.fillStyle = "#555";
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    var stepC = Math.max(1, Math.pow(2, Math.ceil(Math.log2(Math.max(1, 44 / cw)))));
    for (var c = c0 - c0 % stepC; c < c1; c += stepC) {
      var x = LEFT + c * cw - state.px + cw / 2;
      if (x > LEFT) ctx.fillText(grid.colLabel(c), x, TOP / 2);
    }
    ctx.textAlign = "right";
    var stepR = Math.max(1, Math.pow(2, Math.ceil(Math.log2(Math.max(1, 14 / ch)))));
    for (var r = r0 - r0 % stepR; r < r1; r += stepR) {
      var y = TOP + r * ch - state.py + ch / 2;
      if (y > TOP) ctx.fillText(grid.rowLabel(r), LEFT - 4, y);
    }
  }

  function cellAt(mx, my) {
    if (mx < LEFT || my < TOP) return null;
    var c = Math.floor((mx - LEFT + state.px) / cellW()), r = Math.floor((my - TOP + state.py) / cellH());
    if (r < 0 || c < 0 || r >= grid.rows || c >= grid.cols) return null;
    return {r: r, c: c};
  }
  function cellRect(r, c) {
    return {x: LEFT + c * cellW() - state.px, y: TOP + r * cellH() - state.py, w: cellW(), h: cellH()};
  }
  function visibleCells() {
    var out = [], ch = cellH(), cw = cellW();
    for (var r = Math.floor(state.py / ch); r < Math.min(grid.rows, Math.ceil((state.py + viewH()) / ch)); r++)
      for (var c = Math.floor(state.px / cw); c < Math.min(grid.cols, Math.ceil((state.px + viewW()) / cw)); c++) {
        var b = cellRect(r, c);
        if (b.x >= LEFT && b.y >= TOP && b.x + b.w <= canvas.clientWidth && b.y + b.h <= canvas.clientHeight)
          out.push({r: r, c: c, x: b.x, y: b.y, w: b.w, h: b.h});
      }
    return out;
  }

  // ------------------------------------------------------------------ selection and search
  function selectionCount() {
    var L = grid.L, sel = state.sel;
    if (!sel) return 0;
    if (sel.thread !== undefined) return grid.hardware ? L.R : L.threadElements;
    if (sel.row !== undefined) {                   // a TMEM row: its used 32-bit columns, or the elements they hold
      var b = Math.floor(sel.row / L.rows), r = sel.row % L.rows, seen = {}, k = 0;
      if (r & L.rowUnused) return 0;
      for (var c = 0; c < L.tcols; c++) {
        if (c & L.colUnused) continue;
        var key = grid.hardware ? Math.floor(c / L.slots) : L.element(r + L.rows * (c + L.tcols * b));
        if (!seen[key]) { seen[key] = 1; k++; }
      }
      return k;
    }
    var n = 0;
    for (var o = 0; o < L.offsets; o++) if (L.bank(L.position(o)) === sel.bank) n++;
    return n * L.blocks * L.parts;
  }
  function describeSelection() {
    var L = grid.L, sel = state.sel;
    if (!sel) return "";
    var n = selectionCount();
    if (sel.bank !== undefined)
      return "Bank " + sel.bank + ": " + n + " offsets highlighted" + (grid.hardware ? "" : " (their elements)");
    if (sel.row !== undefined) {
      var row = sel.row % L.rows;
      return (L.B > 1 ? "B" + Math.floor(sel.row / L.rows) + ":" : "") + "R" + row + " (warp " + Math.floor(row / L.lanes) % 4 +
        ", lane " + row % L.lanes + "): " + n + (grid.hardware ? " 32-bit columns" : " elements") + " highlighted";
    }
    var threads = L.T * L.W, b = Math.floor(sel.thread / threads), t = sel.thread % threads;
    return (L.B > 1 ? "B" + b + ":" : "") + "T" + t + " (warp " + Math.floor(t / L.T) + ", lane " + (t % L.T) + "): " +
      n + (grid.hardware ? " registers" : " elements") + " highlighted";
  }
  function select(sel, message) {
    state.sel = sel;
    status.textContent = message || describeSelection();
    draw();
  }
  function selectCell(rc) {
    var cell = grid.cell(rc.r, rc.c), L = grid.L;
    if (cell.x < 0) return;
    var sel = L.shared ? {bank: L.bankOf(cell.x)} : (L.tmem ? {row: L.tmemPlace(cell.x).id} : {thread: cell.x >>> L.regBits});
    if (state.sel && JSON.stringify(state.sel) === JSON.stringify(sel)) select(null, "");
    else select(sel);
  }
  function centreOn(r, c) {
    state.px = c * cellW() - viewW() / 2 + cellW() / 2;
    state.py = r * cellH() - viewH() / 2 + cellH() / 2;
    clamp();
  }
  function rowColOfElement(e) {
    if (grid.hardware) return null;
    return {r: Math.floor(e / grid.cols), c: e % grid.cols};
  }
  function search(q) {
    var L = grid.L, m;
    q = q.trim();
    state.focus = null;
    if (!q) { select(null, ""); return; }
    if (L.tmem && (m = /^(?:B(\d+)\s*:\s*)?R(?:ow\s*)?(\d+)$/i.exec(q))) {
      var tb = +(m[1] || 0), row = +m[2];
      if (row >= L.rows || tb >= L.B) { status.textContent = "no row " + q + ": rows 0.." + (L.rows - 1) +
                                          (L.B > 1 ? ", blocks 0.." + (L.B - 1) : ""); return; }
      if (grid.hardware) centreOn(tb * L.rows + row, 0);
      select({row: tb * L.rows + row});
      return;
    }
    if (!L.shared && !L.tmem && (m = /^(?:B(\d+)\s*:\s*)?(?:T|thread\s*)(\d+)$/i.exec(q) || /^()(\d+)$/.exec(q))) {
      var b = +(m[1] || 0), t = +m[2], threads = L.T * L.W;
      if (t >= threads || b >= L.B) { status.textContent = "no thread " + q + ": threads 0.." + (threads - 1) +
                                       (L.B > 1 ? ", blocks 0.." + (L.B - 1) : ""); return; }
      var hi = b * threads + t;
      if (grid.hardware) centreOn(Math.floor(hi / L.T) * L.R, hi % L.T);
      else { var rc = rowColOfElement(L.element(hi << L.regBits)); centreOn(rc.r, rc.c); }
      select({thread: hi});
      return;
    }
    if (L.shared && (m = /^bank\s*(\d+)$/i.exec(q))) {
      if (+m[1] >= 32) { status.textContent = "banks are 0..31"; return; }
      select({bank: +m[1]});
      return;
    }
    if (L.shared && (m = /^(?:offset|o|@)\s*(\d+)$/i.exec(q))) {   // a memory position of the first buffer
      var pos = +m[1], o = L.offsetAt(pos);
      if (pos >= L.bufSize) { status.textContent = "offsets are 0.." + (L.bufSize - 1); return; }
      if (grid.hardware) centreOn(Math.floor(pos / grid.perRow), pos % grid.perRow);
      if (o < 0) { select(null, "offset " + pos + " is padding"); return; }
      if (!grid.hardware) { state.focus = L.element(o); var rc2 = rowColOfElement(state.focus); centreOn(rc2.r, rc2.c); }
      select({bank: L.bank(pos)}, "offset " + pos + (L.padding ? " (linear offset " + o + ")" : "") + " holds element (" +
             L.coords(L.element(o)).join(", ") + "), bank " + L.bank(pos));
      return;
    }
    var nums = q.replace(/^\(|\)$/g, "").split(/[\s,]+/).filter(function (s) { return s !== ""; });
    if (nums.length === L.rank && nums.every(function (s) { return /^\d+$/.test(s); })) {
      var coords = nums.map(Number);
      for (var d = 0; d < L.rank; d++) if (coords[d] >= L.shape[d]) {
        status.textContent = "element index " + coords[d] + " of dim " + d + " is out of range: valid 0.." + (L.shape[d] - 1);
        return;
      }
      var e = L.flat(coords), x = L.tmem ? (L.holders(e, 64).concat([-1]))[0] : L.firstHolder(e);
      if (grid.hardware) {
        if (x >= 0 && L.shared) { var at = grid.placeOf(x); centreOn(at.r, at.c); }
        else if (x >= 0 && L.tmem) { var tp = L.tmemPlace(x); centreOn(tp.id, tp.column); }
        else if (x >= 0) centreOn(Math.floor(x / (L.R * L.T)) * L.R + x % L.R, (x / L.R | 0) % L.T);
      } else { state.focus = e; var rc3 = rowColOfElement(e); centreOn(rc3.r, rc3.c); }
      var gridCell = {e: e, x: x};
      var sel = x < 0 ? null : (L.shared ? {bank: L.bankOf(x)} : (L.tmem ? {row: L.tmemPlace(x).id} : {thread: x >>> L.regBits}));
      var said = grid.hardware && L.tmem ? new Grid(L, false).describe(gridCell) : grid.describe(gridCell);
      select(sel, said.replace(/\n/g, "; "));
      return;
    }
    status.textContent = "search: " + (L.shared ? "an element 'i, j', 'offset N' or 'bank N'" : L.tmem ?
      "a row 'R37' (or 'B1:R37'), or an element 'i, j'" : "a thread 'T37' (or 'B1:T37'), or an element 'i, j'");
  }

  function legend(L) {
    var el = document.getElementById("legend"), parts = [];
    function sw(hsl, label) { return '<span class="sw"><i style="background:' + css(hsl) + '"></i>' + label + "</span>"; }
    if (L.tmem) {
      parts.push("<b>Colour: the TMEM row (lane): hue = the warp of a warpgroup that reaches it (rows 32w..32w+31), " +
                 "shade = the row within them</b>. ");
      for (var w = 0; w < Math.min(L.B * L.rows / L.lanes, 16); w++)
        parts.push(sw(L.rowHsl(w * L.lanes + (L.lanes >> 1)), (L.B > 1 ? "B" + Math.floor(w * L.lanes / L.rows) + " " : "") +
                      "rows " + (w * L.lanes) % L.rows + "-" + ((w * L.lanes) % L.rows + L.lanes - 1)));
      parts.push("<br>" + (state.hardware ? "Rows: TMEM rows; columns: 32-bit columns; cell: the element of each of its " +
                 L.slots + " slot" + (L.slots > 1 ? "s" : "") + " (" + L.bits + "-bit elements), '-' unused. " :
                 "Cell: the element's places R&lt;row&gt;:C&lt;32-bit column&gt;" + (L.showSlot ? ".&lt;slot&gt;" : "") + ". " +
                 (L.copies > 1 ? "Each element is in " + L.copies + " places: one stripe each. " : "")) +
                 "Click a cell to highlight its row.");
    } else if (L.shared) {
      parts.push("<b>Colour: bank</b> (32 banks of 4 bytes, " + L.bits + "-bit elements" +
                 (L.padding ? ", banks of the padded memory position" : "") + "). ");
      for (var b = 0; b < 32; b++) parts.push(sw(bankHsl(b), String(b)));
      if (L.padding) parts.push(sw(PAD_HSL, "padding (" + L.padding.map(function (ip) { return ip[0] + ":+" + ip[1]; }).join(", ") + ")"));
      parts.push("<br>" + (state.hardware ? "Cell: the element stored at that offset; rows are 128-byte lines" +
                 (L.parts > 1 || L.blocks > 1 ? " of each buffer (CTA, partition)" : "") + "." :
                 "Cell: the element's " + (L.padding ? "memory position (offset plus padding)" : "offset") +
                 (L.parts > 1 ? " in its partition's buffer (P&lt;p&gt;:)" : "") + ". Click a cell to highlight its bank."));
    } else {
      parts.push("<b>Colour: hue = warp, shade = lane</b> (lane 0 lightest). ");
      for (var g = 0; g < Math.min(L.B * L.W, 16); g++)
        parts.push(sw(threadHsl(g, L.T >> 1, L.T), (L.B > 1 ? "B" + Math.floor(g / L.W) + " " : "") + "warp " + (g % L.W)));
      parts.push("<br>" + (state.hardware ? "Rows: registers of each warp; columns: lanes; cell: the element held. " +
                 (L.copies > 1 ? "Hatched: a copy of an element a lower index holds. " : "")
                 : "Cell: T&lt;thread&gt;:&lt;register&gt;, thread = lane + warp &times; " + L.T + ". " +
                 (L.copies > 1 ? "Each element has " + L.copies + " holders: one stripe each. " : "")) +
                 "Click a cell to highlight its thread.");
    }
    el.innerHTML = parts.join("");
  }

  // ------------------------------------------------------------------ events
  var drag = null;
  canvas.addEventListener("mousedown", function (ev) { drag = {x: ev.clientX, y: ev.clientY, px: state.px, py: state.py, moved: false}; });
  window.addEventListener("mouseup", function (ev) {
    if (drag && !drag.moved) {
      var b = canvas.getBoundingClientRect(), rc = cellAt(ev.clientX - b.left, ev.clientY - b.top);
      if (rc) selectCell(rc);
    }
    drag = null;
  });
  canvas.addEventListener("mousemove", function (ev) {
    var b = canvas.getBoundingClientRect(), mx = ev.clientX - b.left, my = ev.clientY - b.top;
    if (drag) {
      var dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
      if (drag.moved) { state.px = drag.px - dx; state.py = drag.py - dy; clamp(); draw(); tip.style.display = "none"; return; }
    }
    var rc = cellAt(mx, my);
    if (!rc) { tip.style.display = "none"; return; }
    tip.textContent = grid.describe(grid.cell(rc.r, rc.c));
    tip.style.display = "block";
    tip.style.left = Math.min(mx + 14, canvas.clientWidth - tip.offsetWidth - 4) + "px";
    tip.style.top = (my + 16) + "px";
  });
  canvas.addEventListener("mouseleave", function () { tip.style.display = "none"; });
  canvas.addEventListener("wheel", function (ev) {
    ev.preventDefault();
    var b = canvas.getBoundingClientRect();
    zoomAt(ev.deltaY < 0 ? 1.25 : 0.8, ev.clientX - b.left, ev.clientY - b.top);
  }, {passive: false});
  function zoomAt(f, mx, my) {
    var ax = (mx - LEFT + state.px) / cellW(), ay = (my - TOP + state.py) / cellH();
    var least = Math.min(1, viewW() / (grid.cols * cw0 * state.zx), viewH() / (grid.rows * BASE_H * state.zy));
    state.zoom = Math.min(4 / Math.min(state.zx, state.zy), Math.max(least, state.zoom * f));
    state.px = ax * cellW() - (mx - LEFT); state.py = ay * cellH() - (my - TOP);
    clamp(); draw();
  }
  function fit() {                 // the whole grid in view (each axis at most the readable default size)
    state.zoom = 1;
    state.zx = Math.min(1, viewW() / (grid.cols * cw0));
    state.zy = Math.min(1, viewH() / (grid.rows * BASE_H));
    state.px = state.py = 0; clamp(); draw();
  }
  document.getElementById("v-tensor").onclick = function () { state.hardware = false; state.focus = null; select(null, ""); setup(); };
  document.getElementById("v-hardware").onclick = function () { state.hardware = true; state.focus = null; select(null, ""); setup(); };
  document.getElementById("fit").onclick = fit;
  document.getElementById("zin").onclick = function () { zoomAt(1.25, LEFT, TOP); };
  document.getElementById("zout").onclick = function () { zoomAt(0.8, LEFT, TOP); };
  document.getElementById("search").addEventListener("keydown", function (ev) { if (ev.key === "Enter") search(this.value); });
  document.getElementById("go").onclick = function () { search(document.getElementById("search").value); };
  var chooser = document.getElementById("layout");
  if (layouts.length > 1) {
    data.layouts.forEach(function (s, i) { chooser.appendChild(new Option(s.name, String(i))); });
    chooser.onchange = function () { state.index = +chooser.value; state.sel = null; state.focus = null; state.zoom = state.zx = state.zy = 1; setup(); };
  } else chooser.style.display = "none";
  window.addEventListener("keydown", function (ev) { if (ev.key === "Escape") { state.focus = null; select(null, ""); } });
  window.addEventListener("resize", resize);

  root.ttl = {state: state, layouts: layouts, grid: function () { return grid; }, cellAt: cellAt, cellRect: cellRect,
              visibleCells: visibleCells, search: search, fit: fit, draw: draw, highlight: HIGHLIGHT,
              centreOn: function (r, c) { centreOn(r, c); draw(); },
              setView: function (hw) { state.hardware = hw; state.sel = null; state.focus = null; setup(); },
              selectionCount: selectionCount};
  setup();
  resize();
})(typeof window !== "undefined" ? window : this);
