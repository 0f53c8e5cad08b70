/* ginlog's replay page: draws the table at each event from the JSON in #ginlog-data.
 * Record text (names, notes, reasons) is only ever set with textContent, never as
 * markup: no innerHTML, insertAdjacentHTML, document.write or eval anywhere here. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("ginlog-data").textContent);
  var M = data.match, D = data.frames, TY = data.types, P = M.players, COUNT = D.length;
  var SUITS = { S: "\u2660", C: "\u2663", D: "\u2666", H: "\u2665" };
  var VERBS = {
    offer: "to take or pass the upcard", draw: "to draw", discard: "to discard, knock or go gin",
    wall: "to take the card only to knock, or pass", show: "to show", defend: "to lay off and show"
  };
  var cur = 0, view = "both", items = [], endOf = {}, shownItem = null, hashTimer = 0, revealFrame = 0;

  /* The frames come compact (ginlog/app/pages/page_data.py, CompactFrames): each is what changed since
   * the one before. A table is the frame's table keys by their short names, as the frames left them; one
   * every KEEP frames is kept (a shallow copy: values are never changed in place), so any frame is at most
   * KEEP - 1 frames from a kept one, and stepping on by one applies one frame. */
  var KEEP = 128, CODES = {
    P: "phase", T: "totals", D: "done", d: "dealer", h: "hand", H: "handPhase", t: "turn",
    L: "knockLimit", s: "stock", p: "pile", e: "ending", r: "result", j: "just"
  };
  var NAMED = { d: true, t: true }, SPLIT = { p: true }, OWN = { n: 1, l: 1, y: 1, x: 1, u: 1, "-": 1 };
  var TX = [], N = new Array(COUNT), DEALS = new Array(COUNT), kept = [], at = null;

  function copy(o) { var c = {}; for (var k in o) c[k] = o[k]; return c; }
  /* Apply compact frame i to a position {i, n, line, y, x, table} (changed in place). */
  function step(pos, i) {
    var d = D[i], t = pos.table;
    pos.n = "n" in d ? d.n : pos.n + 1;
    pos.line = "l" in d ? d.l : pos.line + 1;
    if ("y" in d) pos.y = d.y;
    pos.x = d.x;
    pos.u = "u" in d ? d.u : null;
    if (d["-"]) d["-"].forEach(function (k) { delete t[k]; });
    for (var k in d) if (!(k in OWN)) t[k] = d[k];
    pos.i = i;
  }
  function splitCards(s) { var out = []; for (var k = 0; k < s.length; k += 2) out.push(s.substr(k, 2)); return out; }
  /* A position as the full frame page_data.frame makes. */
  function expand(pos) {
    var ty = TY[pos.y], t = pos.table;
    var f = { n: pos.n, line: pos.line, type: ty.type, kind: ty.kind, text: typeof pos.x === "number" ? TX[pos.x] : pos.x };
    if (pos.u !== null) f.undoes = pos.u;
    if (ty.deal) f.deal = true;
    for (var k in CODES) {
      if (!(k in t)) continue;
      var v = t[k];
      f[CODES[k]] = NAMED[k] ? (v === null ? null : P[v]) : SPLIT[k] ? splitCards(v) : v;
    }
    if ("k0" in t) f.seats = [0, 1].map(function (i) {
      return { known: splitCards(t["k" + i]), hidden: t["h" + i], public: splitCards(t["p" + i]) };
    });
    return f;
  }
  /* Frame i, from the current position when it is ahead and near, else from the kept one before. */
  function frameAt(i) {
    if (!at || at.i > i || i - at.i >= KEEP) {
      var base = kept[Math.floor(i / KEEP)];
      at = { i: base.i, n: base.n, line: base.line, y: base.y, x: base.x, u: base.u, table: copy(base.table) };
    }
    while (at.i < i) step(at, at.i + 1);
    return expand(at);
  }
  /* Once, at load: every frame in turn, for the list (built as it goes), the kept positions and the deals. */
  function readFrames(each) {
    var pos = { i: -1, n: 0, line: 0, y: 0, x: null, u: null, table: {} };
    for (var i = 0; i < COUNT; i++) {
      step(pos, i);
      if (typeof pos.x === "string" && TX.length < data.texts) TX.push(pos.x);
      N[i] = pos.n;
      DEALS[i] = TY[pos.y].deal;
      if (i % KEEP === 0) kept.push({ i: i, n: pos.n, line: pos.line, y: pos.y, x: pos.x, u: pos.u, table: copy(pos.table) });
      each(i, pos);
    }
  }

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function add(parent) {
    for (var k = 1; k < arguments.length; k++) {
      var c = arguments[k];
      if (c === null || c === undefined) continue;
      parent.appendChild(typeof c === "object" ? c : document.createTextNode(String(c)));
    }
    return parent;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }
  function rank(code) { var r = code.charAt(0); return r === "T" ? "10" : r; }
  function pretty(code) { return rank(code) + SUITS[code.charAt(1)]; }

  function card(code, extra) {
    var s = code.charAt(1);
    var c = el("span", "card " + (s === "H" || s === "D" ? "red" : "black") + (extra ? " " + extra : ""));
    c.setAttribute("data-card", code);
    c.setAttribute("title", pretty(code));
    add(c, el("span", "r", rank(code)), el("span", "s", SUITS[s]));
    return c;
  }
  function back() {
    var c = el("span", "card back");
    c.setAttribute("data-back", "");
    c.setAttribute("title", "a card not shown");
    return c;
  }
  function cards(codes, extra) {
    var g = el("span", "cards");
    codes.forEach(function (code) { g.appendChild(card(code, extra)); });
    return g;
  }
  function seatOf(name) { return P.indexOf(name); }
  function sees(seat) { return view === "both" || view === String(seat); }

  /* One player's hand at this frame, as the chosen view allows. */
  function drawHand(f, i) {
    var box = clear($("hand-" + i));
    var shown = f.result && !f.hand ? f.result.shown.filter(function (x) { return x.seat === i; })[0] : null;
    if (shown) { box.appendChild(layout(shown)); return; }
    var s = f.seats ? f.seats[i] : null;
    if (!s) return;
    var up = sees(i) ? s.known : s.public;
    var backs = s.known.length + s.hidden - up.length;
    up.forEach(function (code) { box.appendChild(card(code)); });
    for (var k = 0; k < backs; k++) box.appendChild(back());
  }

  /* A hand as laid out at the end: melds, lay-offs, deadwood. */
  function layout(x) {
    var g = el("span", "layout");
    x.melds.forEach(function (m) { g.appendChild(add(el("span", "group meld"), cards(m))); });
    if (x.layoffs.length) g.appendChild(add(el("span", "group layoffs"), el("span", "tag", "laid off"), cards(x.layoffs, "laid")));
    if (x.deadwood.length) g.appendChild(add(el("span", "group deadwood"), el("span", "tag", "deadwood " + x.deadwoodValue), cards(x.deadwood)));
    return g;
  }

  function who(f, i) {
    var p = add(clear(document.querySelector("#seat-" + i + " .who")), el("span", "name", P[i]));
    var s = f.seats ? f.seats[i] : null;
    if (s && f.hand) p.appendChild(el("span", "count", (s.known.length + s.hidden) + " cards"));
    if (f.dealer === P[i] && f.hand) p.appendChild(el("span", "badge dealer", "dealer"));
    if (f.turn === P[i] && f.hand) p.appendChild(el("span", "badge turn", "to play"));
    if (view === String(i)) p.appendChild(el("span", "badge you", "seen as"));
    return p;
  }

  function status(f) {
    if (f.hand) {
      var end = f.ending ? f.ending.player + " " + f.ending.how.replace("_", " ") + (f.ending.how === "knock" ? "s" : "") + "; " : "";
      return "Hand " + f.hand + " \u00b7 " + f.dealer + " dealt \u00b7 knock limit " + f.knockLimit + " \u00b7 " + end + f.turn + " " + (VERBS[f.handPhase] || f.handPhase);
    }
    if (f.phase === "setup") return "Waiting for the first dealer";
    if (f.phase === "over") return "Match over \u00b7 winner " + (M.winner === null ? "nobody" : M.winner);
    if (f.phase === "abandoned") return "Match abandoned";
    return (f.result ? "Hand " + f.result.number + " finished \u00b7 " : "") + "next: " + f.dealer + " deals";
  }

  function scoreLine(totals, done) {
    var p = clear($("score")), G = M.sheet.games;
    if (!G.length) {
      add(p, el("span", "name", P[0]), " ", el("b", null, totals[0]), " \u00b7 ", el("span", "name", P[1]), " ", el("b", null, totals[1]));
      return;
    }
    /* Hollywood: the three games after the hands finished so far (the sheet's rows), each open or closed. */
    var h = done ? M.sheet.hands[done - 1] : null;
    G.forEach(function (g, k) {
      var t = h ? h.game_totals[k] : {}, closed = h !== null && g.closed_at !== null && g.closed_at <= h.number;
      add(p, add(el("span", "game" + (closed ? " closed" : "")), "game " + g.number + ": ", el("span", "name", P[0]), " ",
        el("b", null, t[P[0]] || 0), " \u00b7 ", el("span", "name", P[1]), " ", el("b", null, t[P[1]] || 0),
        closed ? " (closed: " + g.winner + ")" : " (open)"));
    });
  }

  /* How a hand ended, saying who did it to whom: "Bob undercuts Ann", never "Ann undercut" (issue 21). */
  function ended(h) {
    if (h.outcome === "void") return "void";
    if (h.outcome === "points") return "score pad";
    if (h.outcome === "undercut") return h.winner + " undercuts " + h.out;
    if (h.outcome === "knock") return h.out + " knocks";
    return h.out + " goes " + h.outcome.replace("_", " ");
  }
  /* What a hand scored: "Dev +28", under Hollywood "Dev +28 in games 2, 3" (each of those games' totals moves by 28). */
  function scored(h) {
    if (h.winner === null) return "\u2013";
    var g = h.in_games, text = h.winner + " +" + h.points;
    if (M.sheet.games.length) text += g.length ? " in game" + (g.length > 1 ? "s " : " ") + g.join(", ") : " in no game";
    return text;
  }

  function resultBox(r, laidOut) {
    var box = el("div", "hand-result");
    box.setAttribute("data-hand", r.number);
    add(box, el("p", "summary", r.summary));
    if (laidOut) r.shown.forEach(function (x) {
      add(box, add(el("p", "shown"), el("span", "name", x.player), " ", layout(x)));
    });
    return box;
  }

  function render() {
    var f = frameAt(cur);
    $("step").textContent = String(f.n);
    scoreLine(f.totals, f.done);
    $("status").textContent = status(f);
    $("event-text").textContent = f.text;
    /* The player seen as sits at the bottom; between hands there is no stock or pile. */
    $("felt").className = (view === "0" ? "flip" : "") + (f.hand ? "" : " between");
    for (var i = 0; i < 2; i++) { who(f, i); drawHand(f, i); }
    $("stock-count").textContent = f.hand ? String(f.stock) : "\u2013";
    $("stock").className = "zone" + (f.hand && f.stock > 0 ? "" : " empty");
    var pile = clear($("pile-cards"));
    (f.hand ? f.pile : []).forEach(function (code, k, all) {
      var top = k === all.length - 1;
      var c = card(code, top ? "top" : "under");
      if (top) c.setAttribute("data-top", "");
      pile.appendChild(c);
      if (top) pile.appendChild(el("span", "top-mark", "top"));
    });
    var fd = clear($("facedown-card"));
    var e = f.hand ? f.ending : null;
    $("facedown").hidden = !(e && e.card);
    if (e && e.card) fd.appendChild(sees(seatOf(e.player)) ? card(e.card, "down") : back());
    var res = clear($("result"));
    res.hidden = !f.result || !!f.hand;
    if (f.result && !f.hand) { res.appendChild(resultBox(f.result, false)); res.className = f.just ? "just" : ""; }
    if (shownItem) shownItem.removeAttribute("aria-current");
    shownItem = items[cur];
    shownItem.setAttribute("aria-current", "step");
    if (!revealFrame) revealFrame = requestAnimationFrame(function () { revealFrame = 0; reveal(shownItem); });
    var now = $("chart-now"), chart = $("chart");
    if (now && chart) {
      var x = Number(chart.getAttribute("data-left")) + f.done * Number(chart.getAttribute("data-dx"));
      now.setAttribute("x1", String(x));
      now.setAttribute("x2", String(x));
    }
    var rows = document.querySelectorAll("#score-sheet tbody tr");
    for (var r = 0; r < rows.length; r++) rows[r].className = r === f.done - 1 ? "current" : "";
    /* The address names the event shown (#e12), once stepping pauses: browsers throttle history calls. */
    clearTimeout(hashTimer);
    hashTimer = setTimeout(function () {
      try { history.replaceState(null, "", "#e" + f.n); } catch (err) { /* a sandboxed viewer may refuse */ }
    }, 400);
  }

  /* Keep the current event in view inside the list, without scrolling the page (once a frame:
   * reading the layout while stepping would lay the page out at every key). */
  function reveal(li) {
    var box = $("events");
    if (box.scrollHeight <= box.clientHeight) return;
    var top = li.offsetTop, bottom = top + li.offsetHeight;
    if (top < box.scrollTop) box.scrollTop = top - 8;
    else if (bottom > box.scrollTop + box.clientHeight) box.scrollTop = bottom - box.clientHeight + 8;
  }

  function go(i) {
    cur = Math.max(0, Math.min(COUNT - 1, i));
    render();
  }
  function nextDeal(i) {
    for (var j = i + 1; j < COUNT; j++) if (DEALS[j]) return j;
    return COUNT - 1;
  }
  function prevDeal(i) {
    for (var j = i - 1; j >= 0; j--) if (DEALS[j]) return j;
    return 0;
  }

  /* The list of events, built as the frames are read once (one click handler on the list, not one an item). */
  function buildList() {
    var ol = $("events"), box = document.createDocumentFragment();
    readFrames(function (i, pos) {
      var ty = TY[pos.y], t = pos.table, just = "r" in t && t.j && ("j" in D[i] || "r" in D[i]);
      var li = el("li", "ev " + ty.kind + (ty.deal ? " deal" : "") + (just ? " end" : ""));
      li.setAttribute("data-i", String(i));
      li.setAttribute("data-seq", String(pos.n));
      add(li, el("span", "num", pos.n), el("span", "txt", typeof pos.x === "number" ? TX[pos.x] : pos.x));
      if (just) { li.appendChild(el("span", "sum", t.r.summary)); endOf[t.r.number] = i; }
      box.appendChild(li);
      items.push(li);
      if (pos.u !== null) {
        for (var k = i - 1; k >= 0; k--) {
          if (N[k] === pos.u) { items[k].className += " undone"; items[k].setAttribute("title", "undone by event " + pos.n); break; }
        }
      }
    });
    ol.appendChild(box);
    ol.addEventListener("click", function (e) {
      var li = e.target.closest ? e.target.closest("li[data-i]") : null;
      if (li) go(Number(li.getAttribute("data-i")));
    });
  }

  function buildHands() {
    var box = $("hand-results");
    if (!M.hands.length) box.appendChild(el("p", "none", "No hand finished yet."));
    M.hands.forEach(function (r) {
      var b = resultBox(r, true);
      var h = el("h3", null);
      var jump = el("button", "jump", "Hand " + r.number);
      jump.type = "button";
      jump.addEventListener("click", function () { if (r.number in endOf) go(endOf[r.number]); });
      h.appendChild(jump);
      b.insertBefore(h, b.firstChild);
      box.appendChild(b);
    });
  }

  function row(tag, cells, cls) {
    var tr = el("tr", cls);
    cells.forEach(function (c) { tr.appendChild(el(tag, null, c)); });
    return tr;
  }
  function buildSheet() {
    var s = M.sheet, t = $("score-sheet"), G = s.games;
    var head = el("thead"), body = el("tbody"), foot = el("tfoot");
    var games = [];
    G.forEach(function (g) { games.push("game " + g.number + " \u00b7 " + P[0], "game " + g.number + " \u00b7 " + P[1]); });
    head.appendChild(row("th", ["hand", "dealer", "ended", "scores"].concat(games, [P[0], P[1]])));
    s.hands.forEach(function (h) {
      var cells = [h.number, h.dealer, ended(h), scored(h)];
      h.game_totals.forEach(function (gt) { cells.push(gt[P[0]] || 0, gt[P[1]] || 0); });
      var tr = row("td", cells.concat([h.totals[P[0]], h.totals[P[1]]]));
      G.forEach(function (g, k) {  /* a game's cells once it is closed are grey; the hand that closed it says so */
        if (g.closed_at === null || g.closed_at > h.number) return;
        var a = tr.cells[4 + 2 * k], b = tr.cells[5 + 2 * k];
        a.className = b.className = g.closed_at === h.number ? "closes" : "closed";
        if (g.closed_at !== h.number) return;
        b.textContent += " \u2714";
        a.title = b.title = "game " + g.number + " closed by this hand";
        tr.cells[3].textContent += "; closes game " + g.number;
      });
      tr.addEventListener("click", function () { if (h.number in endOf) go(endOf[h.number]); });
      body.appendChild(tr);
    });
    var blank = games.map(function () { return ""; });
    ["game", "boxes", "shutout"].forEach(function (k) {
      var b = s.bonuses[k], per = [], any = false;
      G.forEach(function (g) {
        var gb = g.bonuses[k];
        per.push(gb[P[0]] || 0, gb[P[1]] || 0);
        if (gb[P[0]] || gb[P[1]]) any = true;
      });
      if ((b && (b[P[0]] || b[P[1]])) || any) foot.appendChild(row("td", [k + " bonus", "", "", ""].concat(G.length ? per : blank, [b[P[0]] || 0, b[P[1]] || 0])));
    });
    var finals = [];
    G.forEach(function (g) { finals.push(g.winner === null ? "open" : g.final[P[0]] || 0, g.winner === null ? "open" : g.final[P[1]] || 0); });
    foot.appendChild(row("th", [s.complete ? "final" : "so far", "", "", ""].concat(finals, [s.totals[P[0]], s.totals[P[1]]])));
    add(t, head, body, foot);
    var notes = s.complete ? "Winner: " + (s.winner === null ? "nobody" : s.winner) :
      (M.abandoned !== null ? "Abandoned: " + M.abandoned : "The match is not finished.");
    if (G.length) notes = "Hollywood: three games, each to " + s.rules.game_target + " with its own bonuses; the match goes to " +
      "the higher sum of the three (bonuses included), not to whoever won more games. " + notes;
    $("sheet-notes").textContent = notes;
  }

  function buildVerdict() {
    var v = M.verdict, box = $("verdict");
    var badge = $("verdict-badge");
    badge.textContent = v.ok ? "\u2714 valid record" : "\u2718 invalid record: " + v.errors.length + " problem" + (v.errors.length === 1 ? "" : "s");
    badge.className = v.ok ? "ok" : "bad";
    if (v.ok && v.sealed) badge.textContent += " \u00b7 " + v.sealed;
    box.className = v.ok ? "ok" : "bad";
    add(box, el("p", "word", v.ok ? "Valid: the hash chain holds, every event is legal and every score is as the rules make it." :
      "Invalid: the events shown are those that could be applied; each problem below was skipped."));
    if (v.errors.length) {
      var ol = el("ol", "errors");
      v.errors.forEach(function (e) { ol.appendChild(el("li", null, e)); });
      box.appendChild(ol);
    }
    var w = el("ul", "warnings");
    v.warnings.forEach(function (x) { w.appendChild(el("li", null, x)); });
    add(box, el("p", null, v.warnings.length ? "Warnings:" : "No warnings."), v.warnings.length ? w : null);
    /* Who sealed it: "sealed by Ann and Bob at event 214" only under a club's keys, else the keys that signed. */
    if (v.sealed) add(box, el("p", "sealed", v.sealed));
    add(box, add(el("p", "head"), "Head hash (keep it to prove later that nothing was cut off): ", el("code", null, v.head === null ? "none" : v.head)));
  }

  function buildRules() {
    var k = M.rules.knobs;
    var parts = [M.rules.preset ? M.rules.preset + " rules" : "custom rules", "knock limit " + k.knock_limit, "gin +" + k.gin_bonus];
    if (k.big_gin_bonus !== null) parts.push("big gin +" + k.big_gin_bonus);
    parts.push("undercut +" + k.undercut_bonus);
    parts.push(k.game_target === null ? "one hand" : k.hollywood ? "Hollywood: three games, each to " + k.game_target : "game to " + k.game_target);
    $("rules-summary").textContent = parts.join(" \u00b7 ");
    var t = $("rules-table");
    Object.keys(k).forEach(function (name) { t.appendChild(row("td", [name, JSON.stringify(k[name])])); });
  }

  function buildHeader() {
    var text = (M.title === P[0] + " v " + P[1] ? "" : P[0] + " v " + P[1] + " \u00b7 ") + M.sheet.hands.length + " hand" + (M.sheet.hands.length === 1 ? "" : "s");
    if (M.sheet.complete) text += " \u00b7 winner " + (M.winner === null ? "nobody" : M.winner) + " (" + M.sheet.totals[P[0]] + "\u2013" + M.sheet.totals[P[1]] + ")";
    $("players").textContent = text;
    $("count").textContent = String(N[COUNT - 1]);
    $("count").setAttribute("data-frames", String(COUNT));
    var bs = document.querySelectorAll("#seeas button");
    for (var b = 0; b < bs.length; b++) {
      var btn = bs[b], v = btn.getAttribute("data-view");
      if (v !== "both") btn.textContent = P[Number(v)];
      btn.addEventListener("click", function () {
        view = this.getAttribute("data-view");
        for (var q = 0; q < bs.length; q++) bs[q].setAttribute("aria-pressed", String(bs[q] === this));
        render();
      });
    }
    var nav = { first: function () { return 0; }, last: function () { return COUNT - 1; },
      prev: function () { return cur - 1; }, next: function () { return cur + 1; },
      "prev-hand": function () { return prevDeal(cur); }, "next-hand": function () { return nextDeal(cur); } };
    Object.keys(nav).forEach(function (id) { $(id).addEventListener("click", function () { go(nav[id]()); }); });
  }

  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var to = { ArrowRight: cur + 1, ArrowLeft: cur - 1, Home: 0, End: COUNT - 1 }[e.key];
    if (e.key === "PageDown") to = nextDeal(cur);
    if (e.key === "PageUp") to = prevDeal(cur);
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  });

  /* Printed, the page shows everything: the rules table too. */
  window.addEventListener("beforeprint", function () {
    var ds = document.querySelectorAll("details");
    for (var d = 0; d < ds.length; d++) ds[d].open = true;
  });

  buildList();
  buildHeader();
  buildHands();
  buildSheet();
  buildVerdict();
  buildRules();
  /* The address's #eN: at load, and whenever it is edited (issue 21: editing it did nothing). */
  function wantedFrame() {
    var wanted = /^#e(\d+)$/.exec(location.hash);
    if (wanted) for (var i = 0; i < COUNT; i++) if (N[i] === Number(wanted[1])) return i;
    return null;
  }
  var first = wantedFrame();
  if (first !== null) cur = first;
  window.addEventListener("hashchange", function () {
    var i = wantedFrame();
    if (i !== null && i !== cur) go(i);
  });
  render();
  /* Read-only, for the tests (and the curious): frame i as the table shows it, rebuilt from the compact form. */
  window.ginlogFrames = Object.freeze({ count: COUNT, frame: function (i) { return frameAt(i); } });
  /* Ready: drawn once; how long that took since navigation began (for the tests' timing). */
  document.body.setAttribute("data-ready-ms", String(Math.round(performance.now())));
  document.body.setAttribute("data-ready", "1");
})();
