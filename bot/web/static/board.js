// The Cubist web board: draws what /g/<game>/state says, listens for changes, plays moves.
// No framework, no third-party request.  The link's token is read from the address once and
// then travels in a header (and, for the event stream, in the HttpOnly cookie the page set):
// never in a later URL.
"use strict";
(function () {
  const match = location.pathname.match(/^\/g\/(\d+)$/);
  if (!match || document.querySelector(".error")) return;
  const game = match[1];
  const key = "cubist-token-" + game;
  const params = new URLSearchParams(location.search);
  const token = params.get("t") || sessionStorage.getItem(key) || "";
  const lang = params.get("lang") || "";
  sessionStorage.setItem(key, token);
  if (params.has("t")) {  // keep the token out of the history and of anything copied from the bar
    params.delete("t");
    const rest = params.toString();
    history.replaceState(null, "", location.pathname + (rest ? "?" + rest : ""));
  }
  const $ = (id) => document.getElementById(id);
  const headers = { "X-Cubist-Token": token };
  if (lang) headers["X-Cubist-Lang"] = lang;
  let state = null, chosen = null, busy = false, mode = "live", ply = 0;
  let me = { seat: null, may_play: false }, play = null, playFor = -1;
  let large = null;  // what the close-up shows when the viewer chose: a seat, "museum" or "cards"
  const WHOLE = { museum: true, cards: true };  // the close-ups that are not a player's
  // The pictures' style rules arrive as text: applied through the CSS object model, since
  // the page's Content-Security-Policy allows no inline style element.
  const pictureStyle = new CSSStyleSheet();
  document.adoptedStyleSheets = [pictureStyle];

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
  }
  function say(text) { $("notice").textContent = text || ""; }
  function button(label, onClick, cls) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    if (cls) b.className = cls;
    b.addEventListener("click", onClick);
    return b;
  }
  function list(el, lines) {
    el.replaceChildren(...lines.map((line) => { const li = document.createElement("li"); li.textContent = line; return li; }));
  }

  async function whoAmI() {  // the link's seat (null: watching) and whether it may play
    const r = await fetch(`/g/${game}/me`, { headers, cache: "no-store" });
    if (r.ok) me = await r.json();
  }

  async function load() {
    const r = await fetch(`/g/${game}/state`, { headers, cache: "no-store" });
    const body = await r.json();
    if (!r.ok) { say(body.error); return; }
    await show(body);
  }

  // The player's moves in this version: given with a move's answer, else asked for.
  async function movesFor(s, given) {
    if (given && given.version === s.version) return given.play;
    if (!me.may_play || s.current !== me.seat || s.status !== "active") return null;
    if (playFor === s.version) return play;
    const r = await fetch(`/g/${game}/play`, { headers, cache: "no-store" });
    const body = await r.json();
    return r.ok && body.version === s.version ? body.play : null;
  }

  // The table comes whole with /state and a move's answer, and in pieces with each update
  // on the event stream: the page keeps the pieces it shows (by id), and a patch lists the
  // ids of all of them with the text of those that changed.
  let pieces = new Map();
  function cut(s) {
    const held = new Map();
    let at = 0;
    for (const [id, n] of s.parts || []) { held.set(id, s.table.slice(at, at + n)); at += n; }
    return held;
  }
  function patched(p) {  // the whole state a patch describes, or null when a piece is missing
    if (!state) return null;
    const held = new Map(), out = [];
    for (const [id] of p.parts) {
      const text = Object.hasOwn(p.new, id) ? p.new[id] : pieces.get(id);
      if (text === undefined) return null;
      held.set(id, text);
      out.push(text);
    }
    let css = p.css;
    if (css === undefined) {
      if (p.css_id !== state.css_id) return null;
      css = state.css;
    }
    const s = { ...p, table: out.join(""), css, ui: state.ui };
    delete s.new;
    return { s, held };
  }

  async function show(s, given, held) {
    const moves = await movesFor(s, given);
    if (state && state.version > s.version) return;  // a newer state got here first
    const moved = !state || state.version !== s.version;
    state = s;
    pieces = held || cut(s);
    play = moves;
    playFor = s.version;
    const ui = s.ui;
    document.documentElement.lang = s.lang;
    document.title = s.turn_line;
    $("turn-line").textContent = s.turn_line;
    $("board").hidden = false;
    $("modes").hidden = false;
    $("live-mode").textContent = ui.live;
    $("replay-mode").textContent = ui.replay;
    $("table-title").textContent = ui.table;
    $("scores-title").textContent = ui.scores;
    $("in-words").textContent = ui.in_words;
    $("story").textContent = s.story;
    $("so-far").textContent = s.so_far;  // once, above the pictures: on a phone the table is far down
    list($("scores"), s.scores);
    list($("text"), s.text);
    for (const [id, t] of [["r-first", ui.first], ["r-back", ui.back], ["r-forward", ui.forward], ["r-last", ui.last]]) $(id).textContent = t;
    if (mode === "live") {
      pictureStyle.replaceSync(s.css);
      $("table").innerHTML = s.table;
      drawCloseUp();
      drawWholeView();
    }
    drawWhole();
    if (moved) chosen = null;
    drawPlay();
    document.body.dataset.version = String(s.version);  // last: the page now shows this version
  }

  // The close-up: one player's part of the table (or the museum), zoomed (the same drawing,
  // so the same spaces glow and take taps).  By default the viewer's own studio, else the
  // player on turn's; any other part is a tap away, with a way back.
  function ownSeat() { return me.seat !== null ? me.seat : state.current; }
  function partLabel(which) {
    return which in WHOLE ? state.ui[which] : fill(state.ui.studio_of, { name: state.names[which] });
  }
  function drawCloseUp() {
    const ui = state.ui, own = ownSeat();
    if (large !== null && !(large in WHOLE) && !(large < state.names.length)) large = null;
    const shown = large === null ? own : large;
    const label = partLabel(shown);
    $("studio-title").textContent = label;
    $("parts").setAttribute("aria-label", ui.see_large);
    $("parts").replaceChildren(...partsOrder().map((which) => {
      const b = button(which in WHOLE ? ui[which] : state.names[which], () => showLarge(which === own ? null : which));
      b.setAttribute("aria-pressed", String(which === shown));
      b.dataset.part = String(which);
      return b;
    }));
    $("back-to").hidden = large === null;
    $("back-to").textContent = fill(ui.back_to, { name: state.names[own] });
    drawPart($("studio"), shown, label, true);
  }
  function partsOrder() { return [...state.names.keys(), ...Object.keys(WHOLE)]; }

  // On a phone the whole table is every part one under another, each as wide as the page
  // (the table itself, as wide as the page, would have words 4 px high); a tap on one shows
  // it in the close-up.  Drawn in the live view when opened, and in the replay.
  function drawWholeView() {
    const box = $("whole-view");
    const wanted = PHONE.matches && state && (mode === "replay" || document.body.classList.contains("whole"));
    if (!wanted) { box.replaceChildren(); return; }
    box.replaceChildren(...partsOrder().map((which) => {
      const section = document.createElement("section");
      section.dataset.part = String(which);
      const title = document.createElement("h3");
      title.textContent = partLabel(which);
      const drawing = document.createElement("div");
      section.append(title, drawing);
      return section;
    }));
    for (const section of box.children) {
      const which = section.dataset.part;
      drawPart(section.lastChild, which in WHOLE ? which : Number(which), partLabel(which in WHOLE ? which : Number(which)), false);
    }
  }
  $("whole-view").addEventListener("click", (e) => {
    const section = mode === "live" && e.target.closest("#whole-view section[data-part]");
    if (section) showLarge(section.dataset.part in WHOLE ? section.dataset.part : Number(section.dataset.part));
  });

  // One part of the table ("museum", "cards" or a seat) drawn apart into ``box``, as wide as
  // it; on a phone a studio is cut in pieces.  ``tappable``: on a phone its spaces are drawn
  // a finger's size both ways, and what is wider than the page scrolls sideways.
  function drawPart(box, shown, label, tappable) {
    box.replaceChildren();
    const table = $("table").querySelector("svg");
    if (shown === "cards" && table) { drawCards(box, table, label); return; }
    const part = table && table.querySelector(shown === "museum" ? ".museum" : `.player[data-seat="${shown}"]`);
    if (!part) return;
    const bb = part.getBBox();
    const view = (x, y, w, h) => {
      const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      svg.setAttribute("viewBox", `${x} ${y} ${w} ${h}`);
      for (const name of ["font-family"]) if (table.hasAttribute(name)) svg.setAttribute(name, table.getAttribute(name));
      svg.appendChild(part.cloneNode(true));
      return svg;
    };
    const rooms = shown === "museum" || !PHONE.matches ? [] : roomsOf(part, shown, bb);
    if (rooms.length === 0) {
      const svg = view(bb.x - 4, bb.y - 4, bb.width + 8, bb.height + 8);
      svg.setAttribute("role", "img");
      svg.setAttribute("aria-label", label);
      const least = tappable && PHONE.matches ? fingerScale(part) : 0;
      const scale = box.clientWidth / (bb.width + 8);
      if (least <= scale) { box.appendChild(svg); return; }
      svg.classList.add("piece");
      sized(svg, bb.width + 8, bb.height + 8, least);
      box.appendChild(scroller(svg, label));
      middle(box);
      return;
    }
    // On a phone a studio is cut in three, one above the other (the panel, then each
    // workroom, as wide as the page): side by side its words and spaces would be tiny.  A
    // workroom whose spaces would be smaller than a finger is drawn larger, and scrolls.
    const left = Math.min(...rooms.map((r) => r.x)) + 5;  // short of the first column name
    // the panel: what is drawn wholly left of the workrooms (the name, score, storeroom...)
    const panel = [...part.children].map((c, i) => ({ i, b: c.getBBox() })).filter(({ b }) => b.width > 0 && b.x + b.width <= left);
    const beside = panel.map(({ b }) => b);
    const top = Math.min(...beside.map((b) => b.y)), bottom = Math.max(...beside.map((b) => b.y + b.height));
    const pieces = beside.length ? [{ x: bb.x, y: top - 4, width: left - bb.x, height: bottom - top + 8, room: null }] : [];
    pieces.push(...rooms);
    const scale = box.clientWidth / Math.max(...pieces.map((r) => r.width));
    const roomScale = Math.max(scale, tappable ? fingerScale(part) : 0);
    const group = document.createElement("div");
    group.setAttribute("role", "img");
    group.setAttribute("aria-label", label);
    for (const r of pieces) {
      const svg = view(r.x, r.y, r.width, r.height);
      svg.classList.add("piece");
      sized(svg, r.width, r.height, r.room === null ? scale : roomScale);
      // each space in one piece only: the one it is seen in
      svg.querySelectorAll("[data-cell]").forEach((c) => {
        if (r.room === null || !c.dataset.cell.startsWith(`p${shown}.w${r.room}.`)) c.remove();
      });
      if (r.room !== null) {  // the panel's words and dice, where they reach into a workroom's area
        const children = [...svg.firstChild.children];
        for (const { i } of panel) children[i].remove();
      }
      if (r.room !== null && roomScale > scale) {
        // scrolled to its middle, the room's number in the drawing is out of sight: said above
        const title = document.createElement("p");
        title.className = "room-title";
        title.textContent = fill(state.ui.room_title, { room: r.room + 1 });
        group.append(title, scroller(svg, title.textContent));
      } else group.appendChild(svg);
    }
    box.appendChild(group);
    middle(box);
  }
  function middle(box) {
    for (const s of box.querySelectorAll(".scroller")) s.scrollLeft = (s.scrollWidth - s.clientWidth) / 2;
  }
  function sized(svg, width, height, scale) {
    svg.setAttribute("width", String(Math.floor(width * scale)));
    svg.setAttribute("height", String(Math.floor(height * scale)));
  }
  function scroller(svg, label) {  // a Tab stop of its own (the browser's): named
    const div = document.createElement("div");
    div.className = "scroller";
    div.setAttribute("role", "group");
    div.setAttribute("aria-label", label);
    div.appendChild(svg);
    return div;
  }
  // The scale at which each of the part's spaces is a finger's size both ways (a floor space,
  // seen from a corner, is half as high as wide: its height decides).
  const FINGER_PX = 46;  // 44 px and a little, as sizes are rounded down
  function fingerScale(part) {
    const boxes = [...part.querySelectorAll("[data-cell]")].map((c) => c.getBBox()).filter((b) => b.width > 0);
    if (boxes.length === 0) return 0;
    return FINGER_PX / Math.min(...boxes.map((b) => Math.min(b.width, b.height)));
  }
  // A close-up wider than the page shows its glowing spaces: each scroller is scrolled so that
  // they are in the middle.
  function showGlowing() {
    for (const s of $("studio").querySelectorAll(".scroller")) {
      const lit = [...s.querySelectorAll(".glow")].map((g) => g.getBoundingClientRect());
      if (lit.length === 0) continue;
      const box = s.getBoundingClientRect();
      const middle = (Math.min(...lit.map((r) => r.left)) + Math.max(...lit.map((r) => r.right))) / 2;
      s.scrollLeft += middle - (box.left + box.width / 2);
    }
  }
  // The cards (artists, then installations on offer), two a row: each drawn apart.
  function drawCards(box, table, label) {
    const cards = [...table.querySelectorAll(".artist, .offer")].map((node) => ({ node, bb: node.getBBox() }));
    if (cards.length === 0) return;
    const scale = (box.clientWidth - 12) / (2 * Math.max(...cards.map((c) => c.bb.width + 4)));
    const group = document.createElement("div");
    group.className = "cards";
    group.setAttribute("role", "img");
    group.setAttribute("aria-label", label);
    for (const { node, bb } of cards) {
      const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      svg.setAttribute("viewBox", `${bb.x - 2} ${bb.y - 2} ${bb.width + 4} ${bb.height + 4}`);
      if (table.hasAttribute("font-family")) svg.setAttribute("font-family", table.getAttribute("font-family"));
      svg.classList.add("piece");
      svg.setAttribute("width", String(Math.floor((bb.width + 4) * scale)));
      svg.setAttribute("height", String(Math.floor((bb.height + 4) * scale)));
      svg.appendChild(node.cloneNode(true));
      group.appendChild(svg);
    }
    box.appendChild(group);
  }
  const PHONE = matchMedia("(max-width: 599px)");
  PHONE.addEventListener("change", () => {
    if (!state) return;
    if (mode === "live") drawCloseUp();
    drawWholeView();
    glow();
  });
  // Each workroom's area in a player's part: its spaces (with their columns), and room around
  // them for the row and column names and the room's number.
  function roomsOf(part, seat, bb) {
    const rooms = [];
    for (let room = 0; ; room++) {
      const cells = [...part.querySelectorAll(`[data-cell^="p${seat}.w${room}."]`)].map((c) => c.getBBox());
      if (cells.length === 0) return rooms;
      const x0 = Math.min(...cells.map((c) => c.x)) - 14, x1 = Math.max(...cells.map((c) => c.x + c.width)) + 14;
      const y0 = Math.max(bb.y, Math.min(...cells.map((c) => c.y)) - 14), y1 = Math.max(...cells.map((c) => c.y + c.height)) + 16;
      rooms.push({ x: x0, y: y0, width: x1 - x0, height: Math.min(y1, bb.y + bb.height) - y0, room });
    }
  }
  function showLarge(which) {
    if (!state || mode !== "live") return;
    large = which;
    drawCloseUp();
    glow();
    $("studio-figure").scrollIntoView({ block: "start" });
  }
  $("back-to").addEventListener("click", () => showLarge(null));
  function drawWhole() {
    const open = document.body.classList.contains("whole");
    $("whole").textContent = open ? state.ui.hide_table : state.ui.show_table;
    $("whole").setAttribute("aria-expanded", String(open));
  }
  $("whole").addEventListener("click", () => {
    document.body.classList.toggle("whole");
    if (!state) return;
    drawWhole();
    drawWholeView();
    glow();
  });

  function targetsOf(die) {
    const d = play && play.dice.find((x) => x.die === die);
    return d ? d.targets : [];
  }

  // The chosen die's spaces glow in the close-up and in the table alike (both take taps), but
  // each is one stop in the tab order and one button for a screen reader: on a wide screen the
  // first drawn; on a phone the button of its own, in words, that each also gets there.
  function glow() {
    document.querySelectorAll(".svg .glow").forEach((g) => {
      g.classList.remove("glow"); g.removeAttribute("tabindex"); g.removeAttribute("role"); g.removeAttribute("aria-label");
    });
    const targets = mode === "live" ? targetsOf(chosen) : [];
    const inWords = PHONE.matches;  // #targets is shown on a phone only
    for (const t of targets) {
      document.querySelectorAll(`.svg [data-cell="${t.cell}"]`).forEach((g, k) => {
        g.classList.add("glow");
        if (inWords) return;
        g.setAttribute("tabindex", k === 0 ? "0" : "-1");
        if (k === 0) { g.setAttribute("role", "button"); g.setAttribute("aria-label", t.label); }
      });
    }
    $("targets").replaceChildren(...targets.map((t) => {
      const b = button(t.label, () => send(t.move));
      b.dataset.cell = t.cell;
      return b;
    }));
    showGlowing();
  }

  function drawPlay() {
    const ui = state.ui;
    $("play").hidden = !play || mode !== "live";
    if (!play) {
      glow();
      if (mode === "live") say(me.seat === null ? ui.watching : (state.status === "active" ? ui.waiting : ""));
      return;
    }
    if (play.dice.length === 1) chosen = play.dice[0].die;  // one die left: its spaces glow at once
    if (chosen && !play.dice.some((d) => d.die === chosen)) chosen = null;
    $("play-title").textContent = ui.dice;
    $("dice").replaceChildren(...play.dice.map((d) => {
      const b = button(String(d.value), () => { chosen = chosen === d.die ? null : d.die; drawPlay(); });
      b.setAttribute("aria-label", d.label);
      b.setAttribute("aria-pressed", String(chosen === d.die));
      b.dataset.die = d.die;
      return b;
    }));
    const die = play.dice.find((d) => d.die === chosen);
    say(die ? fill(ui.pick_space, { die: die.label }) : ui.your_turn);
    glow();
    $("complete").replaceChildren(...(play.complete || []).map((c) => button(c.label, () => send(c.move), "primary")));
    $("undo").hidden = !play.undo;
    $("undo").textContent = ui.undo;
    $("end").hidden = !play.end;
    $("end").textContent = ui.end;
    $("actions-box").hidden = !play.others;
    $("actions-box").open = false;
    $("actions-title").textContent = ui.actions;
    $("actions").replaceChildren();
    $("confirm").hidden = true;
  }

  async function send(move) {
    if (busy || !state) return;
    busy = true;
    say(state.ui.sending);
    try {
      const r = await fetch(`/g/${game}/move`, {
        method: "POST",
        headers: Object.assign({ "Content-Type": "application/json" }, headers),
        body: JSON.stringify({ move, version: state.version }),
      });
      const body = await r.json();
      if (body.state) await show(body.state, body.play);
      if (body.error) say(body.error);
    } catch (e) {
      say(state.ui.reconnecting);
    } finally {
      busy = false;
    }
  }

  function pickCell(el, fromTable) {
    const cell = el.closest("[data-cell].glow");
    if (!cell) {  // a tap elsewhere on the table: that player's studio, or the museum, large
      const part = fromTable && el.closest(".player[data-seat], .museum");
      if (part) showLarge(part.classList.contains("museum") ? "museum" : Number(part.dataset.seat));
      return;
    }
    const t = targetsOf(chosen).find((x) => x.cell === cell.dataset.cell);
    if (t) send(t.move);
  }
  for (const id of ["table", "studio"]) {
    $(id).addEventListener("click", (e) => pickCell(e.target, id === "table"));
    $(id).addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pickCell(e.target); } });
  }
  $("actions-box").addEventListener("toggle", async () => {  // the other moves, asked for when wanted
    if (!$("actions-box").open || !state || !play) return;
    const asked = state.version;
    const r = await fetch(`/g/${game}/others`, { headers, cache: "no-store" });
    const body = await r.json();
    if (!r.ok) { say(body.error); return; }
    if (!state || state.version !== asked || body.version !== asked) return;
    $("actions").replaceChildren(...body.moves.map((a) => button(a.label, () => send(a.move))));
  });
  $("undo").addEventListener("click", () => play && play.undo && send(play.undo));
  $("end").addEventListener("click", () => {
    const end = play && play.end;
    if (!end) return;
    $("confirm").hidden = false;
    $("confirm-text").textContent = end.confirm;
    $("confirm-yes").textContent = state.ui.confirm;
    $("confirm-yes").hidden = !end.move;  // no end to confirm: which dice stay is the question
    $("confirm-no").textContent = state.ui.not_yet;
    $("other-ends-title").hidden = end.others.length === 0 || !end.move;
    $("other-ends-title").textContent = state.ui.other_ends;
    $("other-ends").replaceChildren(...end.others.map((o) => button(o.label, () => send(o.move))));
    (end.move ? $("confirm-yes") : $("confirm-no")).focus();
  });
  $("confirm-yes").addEventListener("click", () => play && play.end && send(play.end.move));
  $("confirm-no").addEventListener("click", () => { $("confirm").hidden = true; });

  // --- replay -------------------------------------------------------------------------------
  async function step(to) {
    const r = await fetch(`/g/${game}/replay?ply=${Math.max(0, to)}`, { headers, cache: "no-store" });
    const body = await r.json();
    if (!r.ok) { say(body.error); return; }
    ply = body.ply;
    pictureStyle.replaceSync(body.css);
    $("table").innerHTML = body.table;
    drawWholeView();
    $("r-story").textContent = body.story;
    $("r-step").textContent = fill(state.ui.step, { ply: body.ply, total: body.total });
    list($("text"), body.text);
    $("r-back").disabled = $("r-first").disabled = ply === 0;
    $("r-forward").disabled = $("r-last").disabled = ply >= body.total;
    say("");
  }
  function setMode(m) {
    mode = m;
    $("live-mode").setAttribute("aria-pressed", String(m === "live"));
    $("replay-mode").setAttribute("aria-pressed", String(m === "replay"));
    $("replay").hidden = m !== "replay";
    $("studio-figure").hidden = m === "replay";
    document.body.classList.toggle("replaying", m === "replay");  // the table alone, full width
    if (m === "replay") { $("play").hidden = true; step(state ? state.version : 0).then(() => step(ply)); }
    else { state = null; load(); }
  }
  $("live-mode").addEventListener("click", () => setMode("live"));
  $("replay-mode").addEventListener("click", () => setMode("replay"));
  $("r-first").addEventListener("click", () => step(0));
  $("r-back").addEventListener("click", () => step(ply - 1));
  $("r-forward").addEventListener("click", () => step(ply + 1));
  $("r-last").addEventListener("click", () => step(1e9));
  document.addEventListener("keydown", (e) => {
    if (mode !== "replay") return;
    if (e.key === "ArrowLeft") step(ply - 1);
    if (e.key === "ArrowRight") step(ply + 1);
  });

  // --- live updates -------------------------------------------------------------------------
  // A refused stream (too many at once, the board restarting) is not retried by the browser:
  // the page tries again after 1, 2, 4… seconds, and says so plainly if it still cannot.
  const RETRY_S = [1, 2, 4, 8, 16, 30];
  let failures = 0, retry = null;
  function listen() {
    const source = new EventSource(`/g/${game}/events`);  // the token: the game's cookie
    source.addEventListener("version", (e) => {
      if (mode === "live" && (!state || String(state.version) !== e.data)) load();
    });
    // A move's new state comes on the stream itself, as a patch: gzipped JSON in base64.
    source.addEventListener("patch", async (e) => {
      try {
        const bytes = Uint8Array.from(atob(e.data), (c) => c.charCodeAt(0));
        const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
        const p = JSON.parse(await new Response(stream).text());
        if (mode !== "live" || (state && p.version === state.version && p.status === state.status)) return;
        const made = patched(p);
        if (made) await show(made.s, undefined, made.held);
        else await load();  // a piece it never had (a missed update): the whole state
      } catch (err) {
        load();  // whatever went wrong, the state is one request away
      }
    });
    source.addEventListener("expired", () => { source.close(); load(); });
    source.onerror = () => {
      if (source.readyState !== EventSource.CLOSED) { if (state) say(state.ui.reconnecting); return; }
      failures += 1;
      const lost = failures > RETRY_S.length;
      if (state) say(lost ? state.ui.lost : state.ui.reconnecting);
      clearTimeout(retry);
      retry = setTimeout(listen, 1000 * (lost ? 60 : RETRY_S[failures - 1]));
    };
    source.onopen = () => {
      failures = 0;
      if (state && !busy && mode === "live") drawPlay();
    };
  }
  whoAmI().then(load).then(listen);
})();
