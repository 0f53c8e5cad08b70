// ginlog serve: the recorder page. No framework, no build step, nothing fetched from elsewhere.
// Every text from the record is put in the page as text (textContent), never as markup.
"use strict";
(function () {
  const TOKEN = document.querySelector('meta[name="ginlog-token"]').content;
  const SUITS = [["S", "\u2660"], ["H", "\u2665"], ["D", "\u2666"], ["C", "\u2663"]];
  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
  const $ = (id) => document.getElementById(id);
  let match = 0;
  let state = null;
  let source = null;
  let busy = false;
  let open = null; // the button whose panel is open: {word, ...}

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function pretty(card) {
    const r = card.slice(0, -1), s = card.slice(-1);
    const suit = SUITS.find((x) => x[0] === s);
    return (r === "T" ? "10" : r) + (suit ? suit[1] : s);
  }
  function tapId() {
    const b = new Uint8Array(16);
    crypto.getRandomValues(b);
    return "tap-" + Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  }
  function say(text, kind) {
    const a = $("answer");
    clear(a);
    if (!text) return;
    const lines = Array.isArray(text) ? text : [text];
    for (const t of lines) a.appendChild(el("div", t));
    a.className = "answer " + (kind || "");
  }

  // ------------------------------------------------------------------ drawing the state

  function render(s) {
    state = s;
    $("label").textContent = s.label;
    $("score").textContent = s.score;
    const g = $("games");
    clear(g);
    for (const game of s.games) {
      const parts = Object.entries(game.totals).map(([p, v]) => p + " " + v).join(", ");
      g.appendChild(el("span", "Game " + game.number + ": " + parts + (game.winner ? " (" + game.winner + ")" : ""), "game"));
    }
    $("says").textContent = s.says;
    const t = $("table");
    clear(t);
    if (s.table.hand !== null) {
      t.appendChild(el("span", "Hand " + s.table.hand));
      t.appendChild(el("span", "Stock " + s.table.stock));
      if (s.table.pile.length) t.appendChild(el("span", "Pile " + s.table.pile.map(pretty).join(" ")));
      for (const h of s.table.hands || []) {
        if (h.known.length) t.appendChild(el("span", h.player + " holds " + h.known.map(pretty).join(" ")));
      }
    }
    const r = $("recent");
    clear(r);
    for (const line of s.recent.slice().reverse()) {
      const li = el("li", line.text);
      li.value = line.seq;
      r.appendChild(li);
    }
    $("replay").href = "/api/m/" + match + "/replay";
    drawButtons();
    if (open) {
      const again = s.buttons.find((b) => b.word === open.word);
      if (again) openPanel(again, open.keep); else closePanel();
    }
  }

  function drawButtons() {
    const box = $("buttons");
    clear(box);
    if (!state) return;
    for (const b of state.buttons) {
      const btn = el("button", b.label, "act act-" + b.word);
      btn.type = "button";
      btn.dataset.word = b.word;
      btn.disabled = busy;
      btn.addEventListener("click", () => pressed(b));
      box.appendChild(btn);
    }
  }

  function pressed(b) {
    if (busy) return;
    if (b.needs === "") { send({ word: b.word }); return; }
    if (b.needs === "rematch") { rematch(); return; }
    openPanel(b, null);
  }

  // ------------------------------------------------------------------ the panel: cards, players, numbers, text

  function closePanel() {
    open = null;
    const p = $("panel");
    clear(p);
    p.hidden = true;
  }

  function row(cls) { return el("div", null, "row " + (cls || "")); }

  function button(text, cls, onClick) {
    const b = el("button", text, cls);
    b.type = "button";
    b.addEventListener("click", onClick);
    return b;
  }

  function openPanel(b, keep) {
    const p = $("panel");
    clear(p);
    p.hidden = false;
    open = { word: b.word, keep: keep };
    p.appendChild(el("h2", b.label));
    const bar = row("bar");
    if (b.needs === "card" || b.needs === "cut" || b.needs === "hand") {
      const chosen = new Set(keep && keep.cards ? keep.cards : b.chosen);
      const choosable = new Set(b.choosable);
      const count = el("p", "", "count");
      const ok = button(b.needs === "hand" ? "Preview" : "Record", "go", () => {
        const cards = Array.from(chosen);
        if (b.needs === "hand") previewShow(b, cards); else send({ word: b.word, cards: cards });
      });
      const update = () => {
        const n = chosen.size;
        count.textContent = b.needs === "card" ? "" : n + " of " + b.count + " chosen";
        ok.disabled = b.needs === "card" ? n !== 1 : n !== b.count;
      };
      for (const [s, sym] of SUITS) {
        const grid = el("div", null, "cards suit-" + s);
        for (const r of RANKS) {
          const c = r + s;
          const btn = el("button", (r === "T" ? "10" : r) + sym, "card" + (chosen.has(c) ? " on" : ""));
          btn.type = "button";
          btn.dataset.card = c;
          btn.disabled = !choosable.has(c);
          btn.setAttribute("aria-pressed", chosen.has(c) ? "true" : "false");
          btn.addEventListener("click", () => {
            if (b.needs === "card") { send({ word: b.word, cards: [c] }); return; }
            if (chosen.has(c)) chosen.delete(c); else if (chosen.size < b.count) chosen.add(c);
            btn.classList.toggle("on", chosen.has(c));
            btn.setAttribute("aria-pressed", chosen.has(c) ? "true" : "false");
            update();
          });
          grid.appendChild(btn);
        }
        p.appendChild(grid);
      }
      p.appendChild(count);
      if (b.needs === "cut") p.appendChild(el("p", "First " + state.players[0] + "'s card, then " + state.players[1] + "'s", "hint"));
      if (b.optional) bar.appendChild(button(b.word === "stock" ? "Card not seen" : b.word === "gin" ? "ginlog picks the card" : "No card", "go", () => send({ word: b.word, cards: [] })));
      if (b.needs !== "card") bar.appendChild(ok);
      update();
    } else if (b.needs === "player" || b.needs === "points") {
      const num = el("input");
      num.type = "number"; num.min = "0"; num.max = "9999"; num.inputMode = "numeric"; num.value = "0";
      if (b.needs === "points") p.appendChild(num);
      state.players.forEach((name, i) => bar.appendChild(button(name, "go", () => {
        if (b.needs === "player") send({ word: b.word, player: i });
        else send({ word: b.word, player: i, number: parseInt(num.value, 10) });
      })));
    } else if (b.needs === "result") {
      let how = "knock";
      const hows = row("bar");
      const k = el("input"); k.type = "number"; k.min = "0"; k.value = "0"; k.setAttribute("aria-label", "knocker's deadwood");
      const d = el("input"); d.type = "number"; d.min = "0"; d.value = "0"; d.setAttribute("aria-label", "defender's deadwood");
      for (const h of ["knock", "gin", "biggin", "void"]) {
        hows.appendChild(button(h, "go how-" + h, () => {
          how = h;
          k.hidden = how !== "knock";
          if (how === "void") send({ word: "result", how: "void" });
        }));
      }
      p.appendChild(hows);
      p.appendChild(k); p.appendChild(d);
      state.players.forEach((name, i) => bar.appendChild(button("out: " + name, "go", () => {
        const numbers = how === "knock" ? [parseInt(k.value, 10), parseInt(d.value, 10)] : [parseInt(d.value, 10)];
        send({ word: "result", how: how, player: i, numbers: numbers });
      })));
    } else if (b.needs === "text") {
      const t = el("input");
      t.type = "text"; t.maxLength = 2000; t.setAttribute("aria-label", b.label);
      p.appendChild(t);
      bar.appendChild(button("Record", "go", () => send({ word: b.word, text: t.value })));
    }
    bar.appendChild(button("Cancel", "cancel", closePanel));
    p.appendChild(bar);
  }

  async function previewShow(b, cards) {
    const answer = await post("preview", { word: "show", cards: cards });
    if (!answer) return;
    const p = $("panel");
    if (!answer.body.ok) { say("refused: " + answer.body.refused, "bad"); return; }
    clear(p);
    p.hidden = false;
    open = { word: b.word, keep: { cards: cards } };
    p.appendChild(el("h2", "ginlog arranges"));
    p.appendChild(el("p", answer.body.proposal, "proposal"));
    const bar = row("bar");
    bar.appendChild(button("Confirm", "go", () => send({ word: "show", cards: cards })));
    bar.appendChild(button("Change", "cancel", () => openPanel(b, { cards: cards })));
    p.appendChild(bar);
  }

  // ------------------------------------------------------------------ taps: sent by id until answered

  async function post(what, body) {
    for (let wait = 250; ; wait = Math.min(wait * 2, 2000)) {
      try {
        const r = await fetch("/api/m/" + match + "/" + what, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-Ginlog-Token": TOKEN },
          body: JSON.stringify(body),
          credentials: "same-origin",
        });
        if (r.status < 500) return { status: r.status, body: await r.json() };
      } catch (e) {
        // the network dropped it: the same id again, so a tap is written once whatever happens
      }
      $("link").textContent = "no answer yet: sending again";
      await new Promise((res) => setTimeout(res, wait));
    }
  }

  async function send(tap, again) {
    if (busy || !state) return;
    busy = true;
    drawButtons();
    const body = Object.assign({ id: tapId(), expect: state.seq }, tap);
    say("sending…", "wait");
    const answer = await post("tap", body);
    busy = false;
    const a = answer.body;
    if (a.ok) {
      closePanel();
      say(a.said, "good");
      if (source === null || source.readyState !== 1) await refresh();
    } else if (a.conflict) {
      say(["refused: " + a.refused].concat(a.won.map((w) => "won: " + w.seq + ". " + w.text)), "bad");
      const retry = button("Record mine anyway", "go", () => { say(""); refresh().then(() => send(tap)); });
      retry.classList.add("retry");
      $("answer").appendChild(retry);
      await refresh();
    } else if (a.reopen) {
      say("The match is over: undo reopens it.", "bad");
      $("answer").appendChild(button("Undo and reopen", "go retry", () => send(Object.assign({}, tap, { reopen: true }))));
    } else {
      say("refused: " + (a.refused || a.error) + (a.rule ? " [" + a.rule + "]" : "") + " (nothing written)", "bad");
    }
    drawButtons();
  }

  async function rematch() {
    const answer = await post("rematch", {});
    if (!answer.body.ok) { say("refused: " + answer.body.error, "bad"); return; }
    say("Rematch: " + answer.body.label, "good");
    await start(answer.body.match);
  }

  // ------------------------------------------------------------------ the stream

  async function refresh() {
    try {
      const r = await fetch("/api/m/" + match + "/state", { credentials: "same-origin" });
      if (r.ok) render(await r.json());
    } catch (e) { /* the stream or the next tap brings it */ }
  }

  function follow() {
    if (source) source.close();
    source = new EventSource("/api/m/" + match + "/events");
    source.addEventListener("state", (ev) => {
      $("link").textContent = "live";
      $("link").className = "link live";
      render(JSON.parse(ev.data));
    });
    source.addEventListener("open", () => { $("link").textContent = "live"; $("link").className = "link live"; });
    source.addEventListener("error", () => { $("link").textContent = "reconnecting…"; $("link").className = "link down"; });
  }

  async function start(to) {
    const m = /^#m=(\d+)$/.exec(location.hash);
    if (to !== undefined) { match = to; location.hash = "m=" + to; } else if (m) match = parseInt(m[1], 10);
    try {
      const r = await fetch("/api/matches", { credentials: "same-origin" });
      if (r.ok) {
        const list = await r.json();
        const pick = $("match");
        clear(pick);
        if (list.length > 1) {
          pick.hidden = false;
          for (const x of list) {
            const o = el("option", x.label + ": " + x.players.join(" v "));
            o.value = String(x.match);
            pick.appendChild(o);
          }
          pick.value = String(match);
          pick.onchange = () => {
            match = parseInt(pick.value, 10);
            location.hash = "m=" + match;
            closePanel(); say("");
            refresh().then(follow);
          };
        }
      } else {
        $("says").textContent = "Not joined: open the address the server printed (its QR code).";
        return;
      }
    } catch (e) { /* the stream retries */ }
    await refresh();
    follow();
  }
  start();
})();
