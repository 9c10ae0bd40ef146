// The page: picks cards, asks the server, shows its answers. Every rule and every number comes
// from the server (the command line's own code); this file only lays them out.
"use strict";

const $ = (id) => document.getElementById(id);
const state = {
  deck: [], sizes: { hand: {}, chien: {} },
  players: 4, bids: [], target: "hand",
  picked: { hand: new Set(), chien: new Set(), discard: new Set() },
  play: null, // { record, answer } while a deal is being played
};
const LABELS = { pass: "Pass", prise: "Prise", garde: "Garde", garde_sans: "Garde sans", garde_contre: "Garde contre" };

// --- talking to the server --------------------------------------------------------------------

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || `the server answered ${response.status}`);
  return answer;
}

// Runs a long computation as a job, showing its progress in `box`; resolves to {result, view}.
async function job(kind, body, box) {
  const started = performance.now();
  box.hidden = false;
  const bar = box.querySelector(".bar > span"), text = box.querySelector(".text");
  const show = (status) => {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const known = status.total > 0;
    box.classList.toggle("busy", !known);
    bar.style.width = known ? `${(100 * status.done) / status.total}%` : "";
    text.textContent = (status.state === "queued" ? "waiting for a free worker…"
      : known ? `${status.done} of ${status.total} ${status.unit} · ${seconds} s` : `computing… ${seconds} s`)
      + (status.note ? ` · ${status.note}` : "");
  };
  show({ state: "queued", done: 0, total: 0 });
  try {
    const { job: number } = await post(`/api/jobs/${kind}`, body);
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const status = await (await fetch(`/api/jobs/${number}`)).json();
      if (status.state === "done") return status;
      if (status.state === "error") throw new Error(status.error);
      show(status);
    }
  } finally {
    box.hidden = true;
  }
}

function showError(id, error) {
  const p = $(id);
  p.textContent = error ? String(error.message || error) : "";
  p.hidden = !error;
}

// --- the card picker --------------------------------------------------------------------------

function order(cards) {
  const rank = new Map(state.deck.map((name, i) => [name, i]));
  return [...cards].sort((a, b) => rank.get(a) - rank.get(b));
}

function drawPicker() {
  const picker = $("picker");
  picker.textContent = "";
  const groups = [["Trumps and the Excuse", (c) => !Cards.suitOf(c)]];
  for (const suit of ["♠", "♥", "♦", "♣"]) groups.push([suit, (c) => Cards.suitOf(c) === suit]);
  for (const [name, member] of groups) {
    const row = document.createElement("div");
    row.className = "suit-row";
    row.setAttribute("aria-label", name);
    for (const card of state.deck.filter(member)) {
      const element = Cards.element(card);
      element.addEventListener("click", () => toggle(card));
      row.append(element);
    }
    picker.append(row);
  }
  refreshPicker();
}

function toggle(card) {
  showError("advise-error", null); // a sentence about the cards as they were
  const own = state.picked[state.target];
  if (own.has(card)) own.delete(card);
  else {
    for (const set of Object.values(state.picked)) if (set !== own && state.target !== "discard") set.delete(card);
    if (state.target === "discard" && !state.picked.hand.has(card) && !state.picked.chien.has(card)) return;
    own.add(card);
  }
  refreshPicker();
}

function refreshPicker() {
  const { hand, chien, discard } = state.picked;
  for (const element of $("picker").querySelectorAll(".card")) {
    const card = element.dataset.card;
    element.classList.toggle("in-hand", hand.has(card));
    element.classList.toggle("in-chien", chien.has(card));
    element.classList.toggle("in-discard", discard.has(card));
    element.setAttribute("aria-pressed", String(state.picked[state.target].has(card)));
  }
  const need = { hand: state.sizes.hand[state.players], chien: state.sizes.chien[state.players] };
  need.discard = need.chien;
  const have = state.picked[state.target].size;
  const what = { hand: "your hand", chien: "the chien", discard: "your écart" }[state.target];
  const counter = $("counter");
  counter.textContent = `${have} / ${need[state.target]} cards in ${what}`
    + (have < need[state.target] ? ` — ${need[state.target] - have} to go` : have > need[state.target] ? " — too many" : " ✓");
  counter.classList.toggle("complete", have === need[state.target]);
  strip("hand-strip", hand);
  strip("chien-strip", chien);
}

function strip(id, cards) {
  const box = $(id);
  box.textContent = "";
  if (!cards.size) box.append(Object.assign(document.createElement("em"), { textContent: "no cards yet" }));
  for (const card of order(cards)) box.append(Cards.element(card));
}

// --- the settings -----------------------------------------------------------------------------

function segmented(id, onChange) {
  const box = $(id);
  box.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    for (const b of box.querySelectorAll("button")) b.classList.toggle("on", b === button);
    onChange(button.dataset.value);
  });
}
const segmentedValue = (id) => $(id).querySelector("button.on").dataset.value;

function positionText(p, n) {
  return p === 1 ? "1 — speaks and leads first" : p === n ? `${p} — the dealer` : String(p);
}

function fillPositions() {
  const n = state.players, select = $("position"), mine = $("play-position");
  const chosen = select.value, played = mine.value;
  select.textContent = "";
  mine.textContent = "";
  select.append(new Option("Not known (averaged)", ""));
  for (let p = 1; p <= n; p++) {
    select.append(new Option(positionText(p, n), String(p)));
    mine.append(new Option(positionText(p, n), String(p)));
  }
  select.value = Number(chosen) <= n ? chosen : "";
  mine.value = select.value || (Number(played) >= 1 && Number(played) <= n ? played : "1");
  fillTakers();
  for (const element of document.querySelectorAll(".five-only")) element.hidden = n !== 5;
}

// The taker's choices, named from your chair in card play; the sentence saying who leads.
function fillTakers() {
  const n = state.players, taker = $("play-taker"), yours = Number($("play-position").value) - 1;
  const chosen = taker.value;
  taker.textContent = "";
  taker.append(new Option("You", "me"));
  for (let seat = 0; seat < n; seat++) {
    if (seat !== yours) taker.append(new Option(`${Seats.title(n, seat, yours)} (position ${seat + 1})`, String(seat)));
  }
  taker.value = [...taker.options].some((o) => o.value === chosen) ? chosen : "me";
  $("play-seat-line").textContent = leadSentence(n, yours, 0);
}

// "You lead the first trick (position 1)." or "Left leads the first trick; you are position 2."
function leadSentence(n, yours, leader) {
  const position = (yours - leader + n) % n + 1;
  if (position === 1) return "You lead the first trick (position 1).";
  return `${Seats.title(n, leader, yours)} leads the first trick; you are position ${position}.`;
}

function drawBids() {
  const box = $("bids-heard");
  box.textContent = "";
  if (!state.bids.length) box.append(Object.assign(document.createElement("em"), { textContent: "none" }));
  state.bids.forEach((bid, i) => {
    const chip = document.createElement("span");
    chip.className = "chip";
    chip.textContent = `${i + 1}: ${LABELS[bid]}`;
    box.append(chip);
  });
  const select = $("position");
  if (state.bids.length) select.value = String(Math.min(state.bids.length + 1, state.players));
  select.disabled = state.bids.length > 0;
  if (select.value) $("play-position").value = select.value;
  fillTakers();
}

// --- the bid's advice -------------------------------------------------------------------------

function adviseBody(extra) {
  return {
    hand: order(state.picked.hand).join(" "),
    players: state.players,
    position: state.bids.length || !$("position").value ? null : Number($("position").value),
    bids: state.bids.length ? state.bids.join(" ") : null,
    samples: $("samples").value ? Number($("samples").value) : null,
    taker: $("play").value,
    defence: $("play").value,
    ...extra,
  };
}

async function advise() {
  showError("advise-error", null);
  $("advise").disabled = true;
  try {
    const { view, result } = await job("advise", adviseBody({}), $("advise-progress"));
    showAdvice(view, result);
  } catch (error) {
    showError("advise-error", error);
  } finally {
    $("advise").disabled = false;
  }
}

function fillTable(table, columns, rows, marked) {
  table.textContent = "";
  table.classList.add("reflow"); // rows become cards on a phone (style.css)
  const head = table.createTHead().insertRow();
  for (const column of columns) head.append(Object.assign(document.createElement("th"), { textContent: column }));
  const body = table.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    if (marked(row)) tr.className = "advised";
    row.cells.forEach((cell, i) => {
      const td = tr.insertCell();
      td.textContent = cell;
      td.dataset.column = columns[i];
    });
  }
  return body;
}

// On a phone a long table's rows, one card each, would stack out of sight: it shows the first
// FOLDED_ROWS and the advised one, and a button unfolds the rest (style.css hides them there).
const FOLDED_ROWS = 3;

function foldOnPhone(table, body, button, noun) {
  const beyond = [...body.rows].filter((tr, i) => i >= FOLDED_ROWS && !tr.classList.contains("advised"));
  beyond.forEach((tr) => tr.classList.add("beyond"));
  table.classList.toggle("folded", beyond.length > 0);
  button.hidden = beyond.length === 0;
  button.textContent = `Show all ${body.rows.length} ${noun}`;
  button.onclick = () => {
    table.classList.remove("folded");
    button.hidden = true;
  };
}

function showAdvice(view, result) {
  $("advice-panel").hidden = false;
  $("advice-line").textContent = view.headline;
  $("advice-why").textContent = view.advice;
  $("advice-title").textContent = view.title;
  fillTable($("contracts"), view.columns, view.rows, (row) => row.advised);
  const auction = $("auction");
  auction.textContent = "";
  if (view.auction) {
    auction.append(Object.assign(document.createElement("p"), { className: "muted", textContent: `Auction: ${view.auction.heard}.` }));
    const table = document.createElement("table");
    table.id = "actions";
    const rows = view.auction.actions.map((a) => ({ cells: [a.label, a.value.trim(), a.versus], advised: a.advised }));
    fillTable(table, ["Your action", "E[score] ± 95% (overcalls counted)", "vs best, same deals"], rows, (row) => row.advised);
    const scroll = Object.assign(document.createElement("div"), { className: "scroll" });
    scroll.append(table);
    auction.append(scroll);
  }
  $("poignee-line").textContent = view.poignee;
  $("chelem-line").textContent = view.chelem;
  $("count-line").textContent = view.count;
  $("call-line").hidden = !view.call;
  $("call-line").textContent = view.call || "";
  Bars.draw($("bars"), result, LABELS);
  $("notes").textContent = "";
  for (const note of view.notes) $("notes").append(Object.assign(document.createElement("li"), { textContent: note }));
  $("advice-footer").textContent = view.footer;
  $("advice-panel").scrollIntoView({ behavior: "smooth", block: "start" });
}

// --- the écart --------------------------------------------------------------------------------

async function adviseEcart() {
  showError("ecart-error", null);
  $("ecart").disabled = true;
  try {
    const called = state.players === 5 ? $("ecart-called").value.trim() || null : null;
    const body = adviseBody({
      chien: order(state.picked.chien).join(" "), contract: segmentedValue("ecart-contract"),
      // Each écart is played out on every deal: fewer deals keep it within the server's budget.
      called, samples: $("samples").value ? Math.min(Number($("samples").value), 500) : null,
      bids: null,
    });
    const { view } = await job("advise", body, $("ecart-progress"));
    $("ecart-result").hidden = false;
    $("ecart-line").textContent = view.headline;
    $("ecart-why").textContent = view.advice;
    $("ecart-title").textContent = `${view.title} · ${view.subtitle}`;
    $("ecart-played").textContent = view.played;
    const rows = fillTable($("ecarts"), [...view.columns, ""], view.rows.map((r) => ({ ...r, cells: [...r.cells, ""] })), (row) => row.advised);
    [...rows.rows].forEach((tr, i) => {
      const use = Object.assign(document.createElement("button"), { type: "button", textContent: "Use this écart" });
      use.addEventListener("click", () => {
        state.picked.discard = new Set(view.rows[i].cards);
        $("play-taker").value = "me";
        $("play-contract").value = segmentedValue("ecart-contract");
        if (called) $("play-called").value = called;
        refreshPicker();
        $("play-panel").scrollIntoView({ behavior: "smooth" });
      });
      tr.lastChild.append(use);
    });
    foldOnPhone($("ecarts"), rows, $("ecarts-all"), "écarts");
    $("ecart-footer").textContent = view.footer;
  } catch (error) {
    showError("ecart-error", error);
  } finally {
    $("ecart").disabled = false;
  }
}

// --- wiring -----------------------------------------------------------------------------------

function setPlayers(n) {
  state.players = Number(n);
  for (const b of $("players").querySelectorAll("button")) b.classList.toggle("on", b.dataset.value === String(n));
  fillPositions();
  drawBids();
  refreshPicker();
}

async function main() {
  const deck = await (await fetch("/api/deck")).json();
  state.deck = deck.cards;
  state.sizes = { hand: deck.hand, chien: deck.chien };
  drawPicker();
  setPlayers(4);
  segmented("players", (value) => { state.bids = []; setPlayers(value); });
  segmented("target", (value) => { state.target = value; refreshPicker(); });
  segmented("ecart-contract", () => {});
  for (const button of document.querySelectorAll("[data-bid]")) {
    button.addEventListener("click", () => {
      if (state.bids.length < state.players - 1) state.bids.push(button.dataset.bid);
      drawBids();
    });
  }
  $("bids-undo").addEventListener("click", () => { state.bids.pop(); drawBids(); });
  $("clear").addEventListener("click", () => { state.picked[state.target].clear(); refreshPicker(); });
  $("position").addEventListener("change", () => {
    if ($("position").value) $("play-position").value = $("position").value;
    fillTakers();
  });
  $("play-position").addEventListener("change", fillTakers);
  $("paste-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    showError("advise-error", null);
    try {
      if (!$("paste").value.trim()) throw new Error("type or paste some cards first, e.g. 21 19 12 6 1 Excuse R♥ …");
      const { cards } = await post("/api/cards", { cards: $("paste").value });
      state.picked[state.target] = new Set(cards);
      refreshPicker();
    } catch (error) {
      showError("advise-error", error);
    }
  });
  $("advise").addEventListener("click", advise);
  $("ecart").addEventListener("click", adviseEcart);
  $("play-start").addEventListener("click", () => {
    try {
      startPlay(startRecord());
    } catch (error) {
      showError("play-error", error);
    }
  });
  $("undo").addEventListener("click", undo);
  $("download").addEventListener("click", download);
  $("play-reset").addEventListener("click", () => {
    state.play = null;
    $("play-table").hidden = true;
    $("play-setup").hidden = false;
  });
  $("load").addEventListener("change", (event) => event.target.files[0] && load(event.target.files[0]));
  $("review-start").addEventListener("click", reviewDeal);
  $("copy-link").addEventListener("click", Link.copy);
  await Link.open(new URLSearchParams(location.search));
}

main();
