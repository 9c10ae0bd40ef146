// Card play: the tricks entered card by card, the legal cards and the ranking asked of the
// server, the deal record downloaded and loaded. Uses app.js's state, $, post and job.
"use strict";

// --- card play --------------------------------------------------------------------------------

function startRecord() {
  const n = state.players;
  const seat = Number($("play-position").value) - 1; // stated beside the select (play-seat-line)
  const takerChoice = $("play-taker").value;
  const taker = takerChoice === "me" ? seat : Number(takerChoice);
  const contract = $("play-contract").value;
  const withChien = contract === "prise" || contract === "garde";
  const record = {
    players: n, taker, contract, called: n === 5 ? $("play-called").value.trim() || null : null,
    first_leader: 0, tricks: [], seat, hand: order(state.picked.hand),
  };
  if (withChien && state.picked.chien.size) record.chien = order(state.picked.chien);
  if (withChien && taker === seat) {
    if (state.picked.discard.size !== state.sizes.chien[n]) {
      throw new Error(`you took the chien: pick your écart (${state.sizes.chien[n]} cards) above, or use one the écart advice ranks`);
    }
    const all = new Set([...state.picked.hand, ...state.picked.chien]);
    for (const card of state.picked.discard) all.delete(card);
    record.hand = order(all);
    record.discard = order(state.picked.discard);
  }
  return record;
}

async function startPlay(record) {
  showError("play-error", null);
  try {
    const answer = await post("/api/legal", { record });
    state.play = { record, answer, mine: [] };
    $("play-setup").hidden = true;
    $("play-table").hidden = false;
    drawPlay();
  } catch (error) {
    showError("play-error", error);
  }
}

// A seat named from your chair ("You", "Right", "Your partner" once the deal shows it), or by its
// position in a loaded deal, where no seat is yours.
function seatName(seat) {
  const { record } = state.play, n = record.players, leader = record.first_leader ?? 0;
  if (record.seat >= 0) return Seats.title(n, seat, record.seat, partnerOf(record.seat));
  return `Position ${(seat - leader + n) % n + 1}`;
}

// The partner of `seat` in a finished 5-player deal (the taker and the called card's holder).
function partnerOf(seat) {
  const outcome = state.play.outcome;
  if (!outcome || outcome.partner === null || outcome.partner === outcome.taker) return null;
  return seat === outcome.taker ? outcome.partner : seat === outcome.partner ? outcome.taker : null;
}

// Who sits where, said once above the tricks; changed in the setup while no card is played.
function drawSeats() {
  const { record } = state.play, line = $("seats-line");
  const taker = seatName(record.taker), contract = LABELS[record.contract];
  line.textContent = record.seat >= 0
    ? `${leadSentence(record.players, record.seat, record.first_leader)} ${contract}, taken by ${taker === "You" ? "you" : taker.toLowerCase()}.`
    : `${contract}, taken by ${taker.toLowerCase()}; the seats are named by position (position 1 led the first trick).`;
  if (record.seat >= 0 && !record.tricks.length) {
    const change = Object.assign(document.createElement("button"), { type: "button", className: "quiet", textContent: "Change" });
    change.addEventListener("click", () => { $("play-table").hidden = true; $("play-setup").hidden = false; });
    line.append(" ", change);
  }
}

function drawPlay() {
  const { record, answer } = state.play;
  const trick = $("trick");
  trick.textContent = "";
  const tricks = record.tricks, last = tricks[tricks.length - 1];
  const current = last && last.length < record.players ? tricks.length - 1 : null;
  const shown = current ?? (tricks.length ? tricks.length - 1 : null);
  const seats = answer.seats || [];
  if (shown !== null) {
    tricks[shown].forEach((card, i) => {
      const place = document.createElement("figure");
      place.append(Cards.element(card), Object.assign(document.createElement("figcaption"), { textContent: seats[shown] ? seatName(seats[shown][i]) : "" }));
      trick.append(place);
    });
    trick.classList.toggle("done", current === null);
  } else {
    trick.append(Object.assign(document.createElement("p"), { className: "empty", textContent: `Nothing played yet: ${seatName(record.first_leader).toLowerCase()} ${record.first_leader === record.seat ? "lead" : "leads"} the first trick.` }));
  }
  drawSeats();
  const hand = $("play-hand");
  hand.textContent = "";
  const legal = new Set(answer.cards || []);
  for (const card of record.hand) {
    const element = Cards.element(card);
    element.disabled = !(answer.yours && legal.has(card));
    element.classList.toggle("legal", !element.disabled);
    element.addEventListener("click", () => playCard(card));
    hand.append(element);
  }
  drawHistory();
  $("ranked").hidden = true;
  $("undo").hidden = false;
  $("score-sheet").hidden = true;
  $("review-box").hidden = true;
  if (answer.over) {
    $("turn").textContent = "The deal is over. Its score sheet:";
    if (!state.play.outcome) {
      scoreSheet();
      return;
    }
    drawSheet(state.play.outcome);
    offerReview();
    return;
  }
  const trickNumber = current === null ? tricks.length + 1 : current + 1;
  const winner = answer.to_play === record.seat ? "you" : seatName(answer.to_play).toLowerCase();
  const lead = current === null && shown !== null ? ` Trick ${shown + 1} was won by ${winner}.` : "";
  if (answer.yours) {
    $("turn").textContent = `Trick ${trickNumber}: your turn — click one of your highlighted cards.${lead}`;
    rank();
  } else {
    $("turn").textContent = `Trick ${trickNumber}: ${seatName(answer.to_play)} plays — click the card played.${lead}`;
    const others = document.createElement("div");
    others.className = "others";
    others.append(Object.assign(document.createElement("p"), { className: "muted small", textContent: `The cards ${seatName(answer.to_play)} may still play, as far as the rules and what you have seen tell:` }));
    for (const card of order(answer.cards)) {
      const element = Cards.element(card);
      element.classList.add("legal");
      element.addEventListener("click", () => playCard(card));
      others.append(element);
    }
    trick.after(others);
  }
}

function drawHistory() {
  for (const old of document.querySelectorAll(".others")) old.remove();
  const { record, answer } = state.play;
  const list = $("history");
  list.textContent = "";
  record.tricks.forEach((trick, t) => {
    const seats = (answer.seats || [])[t] || [];
    const text = trick.map((card, i) => `${card} (${seats[i] === undefined ? "?" : seatName(seats[i])})`).join(", ");
    list.append(Object.assign(document.createElement("li"), { textContent: text }));
  });
}

async function playCard(card) {
  const { record, answer } = state.play;
  const tricks = record.tricks, last = tricks[tricks.length - 1];
  if (last && last.length < record.players) last.push(card);
  else tricks.push([card]);
  if (answer.yours) {
    record.hand = record.hand.filter((c) => c !== card);
    state.play.mine.push(card);
  }
  await refreshPlay();
}

// Takes back the last card; the user's own goes back to the hand.
async function undo() {
  const { record, answer, mine } = state.play;
  const tricks = record.tricks;
  if (!tricks.length) return;
  const t = tricks.length - 1, trick = tricks[t];
  const seat = (answer.seats || [])[t]?.[trick.length - 1];
  const card = trick.pop();
  if (!trick.length) tricks.pop();
  if (seat === record.seat || card === mine.at(-1)) {
    record.hand = order([...record.hand, card]);
    if (card === mine.at(-1)) mine.pop();
  }
  await refreshPlay();
}

async function refreshPlay() {
  showError("play-error", null);
  try {
    state.play.answer = await post("/api/legal", { record: state.play.record });
    state.play.outcome = null; // a card taken back: the deal is no longer over
  } catch (error) {
    showError("play-error", error);
  }
  drawPlay();
}

async function rank() {
  const play = state.play, played = play.record.tricks.flat().length;
  try {
    const { view } = await job("play", { record: play.record, samples: 500 }, $("play-progress"));
    // A late answer for an earlier turn (the user clicked on) is dropped.
    if (state.play !== play || play.record.tricks.flat().length !== played) return;
    $("ranked").hidden = false;
    // Green marks the advised card only, as in the other tables; the engine's habit is a word.
    const body = fillTable($("ranked-table"), view.columns, view.rows, (row) => row === view.rows[0]);
    [...body.rows].forEach((tr, i) => {
      tr.classList.toggle("best", i === 0);
      tr.classList.toggle("habit", view.rows[i].greedy && i !== 0);
      tr.addEventListener("click", () => playCard(view.rows[i].card));
    });
    $("ranked-line").textContent = `Play the ${view.rows[0].card}.`;
    $("ranked-notes").textContent = `${view.notes.join("\n")}\nIn green: the card to play (also ringed in gold in your hand); in italics: the card a player of plain habits would play.`;
    $("play-hand").querySelector(`[data-card="${view.rows[0].card}"]`)?.classList.add("best");
  } catch (error) {
    showError("play-error", error);
  }
}

// The finished deal's record: the card-play keys of the user (seat, hand) left out.
function finishedRecord() {
  const full = { ...state.play.record };
  delete full.seat;
  delete full.hand;
  return full;
}

// The finished deal scored, then drawn again with who played each card.
async function scoreSheet() {
  try {
    const { outcome, seats } = await post("/api/score", { record: finishedRecord() });
    state.play.outcome = outcome;
    state.play.answer.seats = seats;
    drawPlay();
  } catch (error) {
    showError("play-error", error);
  }
}

// The score sheet in a player's words: what the taker's side took, and each player's score.
function drawSheet(outcome) {
  state.play.outcome = outcome;
  const box = $("score-sheet"), line = (className, text) => Object.assign(document.createElement("p"), { className, textContent: text });
  box.textContent = "";
  const points = (value) => String(value).replace(".5", "½");
  let taker = seatName(outcome.taker);
  if (outcome.partner !== null && outcome.partner !== outcome.taker) taker += ` with ${seatName(outcome.partner).toLowerCase()} (called ${outcome.called})`;
  else if (outcome.called) taker += ` alone (called ${outcome.called})`;
  box.append(
    line("headline", `${LABELS[outcome.contract]} ${outcome.made ? "made" : "lost"} by ${Math.abs(outcome.difference)}: ${points(outcome.taker_points)} points with ${outcome.bouts} bout${outcome.bouts === 1 ? "" : "s"}, ${outcome.needed} needed.`),
    line("", `Taker: ${taker}.`),
    line("", `Petit au bout: ${outcome.petit_au_bout ? `the ${outcome.petit_au_bout}'s` : "no"} · Poignées: ${outcome.poignees.map((p) => `${seatName(p.seat)} (${p.bonus})`).join(", ") || "none"} · Chelem: ${outcome.chelem ? `the ${outcome.chelem}'s` : "none"}.`),
  );
  const table = document.createElement("table");
  table.className = "scores";
  outcome.scores.forEach((score, seat) => {
    const row = table.insertRow();
    row.dataset.seat = seat;
    row.insertCell().textContent = seatName(seat);
    const cell = row.insertCell();
    cell.textContent = `${score > 0 ? "+" : score < 0 ? "−" : ""}${Math.abs(score)}`;
    cell.dataset.testid = "score";
  });
  box.append(table);
  box.hidden = false;
}

function download() {
  const record = { ...state.play.record };
  if (state.play.answer.over) {
    delete record.seat;
    delete record.hand;
  }
  const blob = new Blob([JSON.stringify(record, null, 1)], { type: "application/json" });
  const link = Object.assign(document.createElement("a"), { href: URL.createObjectURL(blob), download: "tarot-deal.json" });
  document.body.append(link);
  link.click();
  link.remove();
}

async function load(file) {
  showError("play-error", null);
  try {
    const record = JSON.parse(await file.text());
    if (!("seat" in record) || !("hand" in record)) {
      const { outcome, seats } = await post("/api/score", { record });
      $("play-table").hidden = false;
      $("play-setup").hidden = true;
      state.play = { record: { ...record, seat: -1, hand: [] }, answer: { over: true, seats }, mine: [] };
      $("turn").textContent = "A finished deal, and its score sheet:";
      drawSeats();
      for (const old of document.querySelectorAll(".others")) old.remove();
      $("ranked").hidden = true;
      $("undo").hidden = true; // nothing to take back in a finished deal
      drawHistory();
      $("play-hand").textContent = "";
      $("trick").textContent = "";
      $("trick").append(Object.assign(document.createElement("p"), { className: "empty", textContent: `A finished deal loaded from ${file.name}: ${record.tricks.length} tricks.` }));
      drawSheet(outcome);
      offerReview();
      return;
    }
    setPlayers(record.players);
    await startPlay(record);
  } catch (error) {
    showError("play-error", error instanceof SyntaxError ? "that file is not a JSON deal record" : error);
  }
}

