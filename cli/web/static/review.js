// The review of a finished deal: tarot-review's table and sentences for a seat, each trick drawn
// beside the card the seat played in it, the costly ones marked. Uses app.js's state, $ and job,
// and play.js's finishedRecord and seatName.
"use strict";

function offerReview() {
  const { record } = state.play;
  const mine = record.seat >= 0 ? record.seat : null;
  const select = $("review-seat");
  select.textContent = "";
  for (let seat = 0; seat < record.players; seat++) {
    select.append(new Option(`${seatName(seat)}${seat === record.taker ? " (the taker)" : ""}`, String(seat)));
  }
  select.append(new Option("Everyone", "all"));
  select.value = String(mine ?? record.taker);
  showError("review-error", null);
  $("review-result").hidden = true;
  $("review-box").hidden = false;
}

async function reviewDeal() {
  showError("review-error", null);
  $("review-start").disabled = true;
  try {
    const body = { record: finishedRecord(), seat: $("review-seat").value, samples: Number($("review-samples").value) };
    const { view } = await job("review", body, $("review-progress"));
    showReview(view);
  } catch (error) {
    showError("review-error", error);
  } finally {
    $("review-start").disabled = false;
  }
}

function element(tag, className, text) {
  return Object.assign(document.createElement(tag), { className, textContent: text ?? "" });
}

function showReview(view) {
  const box = $("review-result");
  box.textContent = "";
  box.append(element("p", "muted", view.title));
  for (const seat of view.seats) box.append(seatReview(view, seat));
  box.append(element("p", "muted small", `${view.footer}. In a trick: who played each card under it, the player's own card ringed (red: costly), “won” on the card that took the trick.`));
  box.hidden = false;
  box.scrollIntoView({ behavior: "smooth", block: "start" });
}

// `seatTitle(seat)`: how the page names a seat (the advisor's deal by default; the game its own).
function seatReview(view, seat, seatTitle = seatName) {
  const section = element("section", "seat-review");
  const hand = element("span", "cards small");
  for (const card of seat.hand) hand.append(shownCard(card));
  const title = element("h3", "", `${seatTitle(seat.seat)} (${seat.role}) `);
  title.append(hand);
  const [total, ...sentences] = seat.summary;
  const summary = element("div", "review-summary");
  summary.append(element("p", "headline", total));
  if (!sentences.length) summary.append(element("p", "muted", "No decision cost anything."));
  for (const sentence of sentences) summary.append(element("p", "sentence", sentence));
  const table = element("table", "review-table reflow");
  const columns = [view.columns[0], "The trick", ...view.columns.slice(1)];
  const head = table.createTHead().insertRow();
  for (const column of columns) head.append(element("th", "", column));
  const body = table.createTBody();
  for (const row of seat.rows) {
    const tr = body.insertRow();
    tr.className = row.significant ? "costly" : "";
    if (row.trick) tr.dataset.trick = row.trick;
    const cells = [row.cells[0], null, ...row.cells.slice(1)];
    cells.forEach((text, i) => {
      const td = tr.insertCell();
      td.dataset.column = columns[i];
      if (text === null) {
        if (row.trick) td.append(trickCards(view.tricks[row.trick - 1], seat.seat, row.significant, seatTitle));
      } else td.textContent = text;
    });
  }
  const scroll = element("div", "scroll");
  scroll.append(table);
  section.append(title, summary, scroll);
  return section;
}

// A card drawn for reading only: not a button one can press.
function shownCard(name) {
  const card = Cards.element(name);
  card.tabIndex = -1;
  card.classList.add("shown");
  return card;
}

// A trick's cards in the order played, each with who played it.
function trickCards(trick, seat, costly, seatTitle) {
  const cards = element("span", "cards small trick-cards");
  trick.cards.forEach((name, i) => {
    const card = shownCard(name);
    const who = trick.seats[i];
    card.title = `${Cards.title(name)}, played by ${seatTitle(who).toLowerCase()}${who === trick.winner ? ", won the trick" : ""}`;
    if (who === seat) card.classList.add(costly ? "costly" : "mine");
    if (who === trick.winner) card.classList.add("won");
    const place = element("figure", "played");
    place.append(card, element("figcaption", "", seatTitle(who).toLowerCase().replace("position ", "pos. ")));
    cards.append(place);
  });
  return cards;
}
