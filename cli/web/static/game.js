// A deal against the computer: /?players=N&play=computer[&seed=S][&table=greedy]. The server
// replays the deal from its seed and your moves (POST /api/game) and answers what you may see
// and what is asked of you, with the options the rules allow; this file lays that out, asks the
// advice's own jobs for hints, the advised écart and the review, and keeps a running score in
// the browser. Uses app.js's $, post, job and showError, review.js's seatReview, Seats, Cards.
"use strict";

const GameTable = (() => {
  const game = { players: 4, seed: 0, table: "lookahead", moves: [], answer: null, ecart: null };
  const BID_LABELS = { pass: "Pass", prise: "Prise", garde: "Garde", garde_sans: "Garde sans", garde_contre: "Garde contre" };
  const FROM_CHAIR = "Seats are named from your chair: right plays after you, left before you.";

  // --- the page's parts -----------------------------------------------------------------------

  function make(tag, attributes = {}, text = "") {
    const node = Object.assign(document.createElement(tag), attributes);
    if (text) node.textContent = text;
    return node;
  }

  function button(label, testid, onClick, className = "") {
    const node = make("button", { type: "button", className }, label);
    if (testid) node.dataset.testid = testid;
    node.addEventListener("click", onClick);
    return node;
  }

  function who(seat, capital = false) {
    const { players, seat: yours, your_partner: partner } = game.answer;
    return (capital ? Seats.title : Seats.name)(players, seat, yours, partner);
  }

  function cards(names, { small = true, onClick = null, testid = null } = {}) {
    const row = make("span", { className: small ? "cards small" : "cards" });
    for (const name of names) {
      const card = Cards.element(name);
      if (onClick) {
        card.addEventListener("click", () => onClick(name, card));
        if (testid) card.dataset.testid = testid;
      } else {
        card.tabIndex = -1;
        card.classList.add("shown");
      }
      row.append(card);
    }
    return row;
  }

  function line(text, className = "") {
    return make("p", { className }, text);
  }

  function signed(value) {
    return `${value > 0 ? "+" : value < 0 ? "−" : ""}${Math.abs(value)}`;
  }

  function decimal(value) {
    return signed(Number(value.toFixed(1)));
  }

  // --- talking to the server ------------------------------------------------------------------

  async function advance(move) {
    showError("game-error", null);
    if (move) game.moves.push(move);
    // A first deal after the engine changed waits for it to compile: say so after a moment.
    const waiting = setTimeout(() => busy("the computer is playing…"), 400);
    try {
      game.answer = await post("/api/game", { players: game.players, seed: game.seed, table: game.table, moves: game.moves });
    } catch (error) {
      if (move) game.moves.pop();
      if (game.answer) render(); // the choices as they were, to choose again
      showError("game-error", error);
      return;
    } finally {
      clearTimeout(waiting);
      $("game-progress").hidden = true;
    }
    render();
  }

  function busy(text) {
    const box = $("game-progress");
    box.classList.add("busy");
    box.querySelector(".text").textContent = text;
    box.hidden = false;
  }

  // --- drawing the deal -----------------------------------------------------------------------

  function render() {
    const answer = game.answer;
    if (!answer.asked || answer.asked.kind !== "ecart") game.ecart = null; // the advice of this chien only
    $("game-title").textContent = `Deal ${answer.seed} · ${answer.players} players · you speak in`
      + ` position ${answer.seat + 1}, the dealer is ${who(answer.dealer)}`;
    drawAuction(answer);
    drawTable(answer);
    drawAsked(answer);
    $("game-hint").textContent = "";
    if (answer.over) finish(answer);
  }

  function drawAuction(answer) {
    const box = $("game-auction");
    box.textContent = "";
    const bids = make("p", { className: "chips" });
    answer.bids.forEach((bid, seat) => bids.append(make("span", { className: "chip" }, `${who(seat, true)}: ${BID_LABELS[bid]}`)));
    if (answer.bids.length) box.append(bids);
    if (answer.taker !== null) {
      const called = answer.called ? `, calling ${Cards.title(answer.called)}` : "";
      const chelem = answer.chelem_announced ? ", chelem announced" : "";
      box.append(line(`${who(answer.taker, true)} ${answer.taker === answer.seat ? "take" : "takes"}: ${BID_LABELS[answer.contract]}${called}${chelem}.`, "headline"));
    }
    if (answer.chien) {
      const chien = make("div", { className: "strip" });
      chien.append(make("span", { className: "label" }, "The chien"), cards(answer.chien));
      box.append(chien);
    }
    if (answer.discard && answer.taker !== answer.seat) {
      const shown = make("div", { className: "strip" });
      shown.append(make("span", { className: "label" }, "Trumps shown in the écart"), cards(answer.discard));
      box.append(shown);
    }
    for (const { seat, cards: shown } of answer.poignees) {
      const row = make("div", { className: "strip" });
      row.append(make("span", { className: "label" }, `${who(seat, true)} ${seat === answer.seat ? "show" : "shows"} a poignée`), cards(shown));
      box.append(row);
    }
  }

  function trickFigure(names, seats, winner = null) {
    const trick = make("div", { className: "trick" });
    names.forEach((name, i) => {
      const figure = make("figure");
      figure.append(cards([name]), make("figcaption", {}, who(seats[i], true) + (seats[i] === winner ? " ✓" : "")));
      trick.append(figure);
    });
    return trick;
  }

  function drawTable(answer) {
    const box = $("game-table");
    box.textContent = "";
    const { current, tricks } = answer;
    if (current.cards.length || answer.to_play !== null) {
      const number = tricks.length + 1;
      box.append(line(`Trick ${number}${answer.to_play === answer.seat ? ": your turn" : ""}`, "label"));
      const trick = trickFigure(current.cards, current.seats);
      if (!current.cards.length) trick.append(make("span", { className: "empty" }, `${who(answer.to_play, true)} ${answer.to_play === answer.seat ? "lead" : "leads"}`));
      box.append(trick);
    }
    if (tricks.length) {
      const last = tricks[tricks.length - 1];
      box.append(line(`Trick ${tricks.length}, won by ${who(last.winner)}`, "label"));
      const done = trickFigure(last.cards, last.seats, last.winner);
      done.classList.add("done");
      box.append(done);
    }
    const hand = $("game-hand");
    hand.textContent = "";
    const asked = answer.asked;
    if (asked && asked.kind === "card") {
      hand.append(cards(answer.hand, { small: false, onClick: (name) => playCard(name), testid: "legal-card" }));
      for (const card of hand.querySelectorAll(".card")) {
        const legal = asked.legal.includes(card.dataset.card);
        card.disabled = !legal;
        card.classList.toggle("legal", legal);
        if (!legal) delete card.dataset.testid;
      }
    } else if (!(asked && asked.kind === "ecart")) {
      hand.append(cards(answer.hand, { small: false }));
    }
  }

  // --- what is asked of you -------------------------------------------------------------------

  function drawAsked(answer) {
    const box = $("game-ask");
    box.textContent = "";
    const asked = answer.asked;
    if (!asked) return;
    const draw = { bid: askBid, call: askCall, ecart: askEcart, card: askCard }[asked.kind];
    draw(box, asked, answer);
  }

  function offer(id, label) {
    const box = make("label", { className: "offer" });
    box.append(make("input", { type: "checkbox", id }), make("span", {}, label));
    return box;
  }

  function chelemBox(label) {
    return offer("game-chelem", label);
  }

  function askBid(box, asked) {
    box.append(line("Your bid:", "headline"));
    const buttons = make("div", { className: "bid-buttons" });
    for (const bid of asked.options) {
      buttons.append(button(BID_LABELS[bid], `bid-${bid}`, () => {
        const chelem = $("game-chelem");
        advance({ bid, chelem: Boolean(chelem && chelem.checked && bid.startsWith("garde_")) });
      }));
    }
    box.append(buttons);
    if (asked.options.some((bid) => bid.startsWith("garde_"))) box.append(chelemBox("Announce a chelem with a Garde sans or contre (you then lead the first trick)"));
    box.append(hintButton(() => job("advise", asked.advice, hintProgress()).then(({ view }) => {
      $("game-hint").append(line(view.headline, "headline advised"), line(view.advice));
    })));
  }

  function askCall(box, asked) {
    box.append(line("Call a card: its holder is your secret partner (you play alone if you hold it).", "headline"));
    const buttons = make("div", { className: "bid-buttons" });
    for (const card of asked.options) buttons.append(button(Cards.title(card), `call-${card}`, () => advance({ call: card })));
    box.append(buttons);
  }

  function askEcart(box, asked, answer) {
    box.append(line(`You take the chien: put ${asked.count} cards aside (your écart).`, "headline"));
    const chosen = new Set();
    const discard = button(`Discard the ${asked.count} cards chosen`, "ecart-chosen", () => sendEcart([...chosen]), "primary");
    discard.disabled = true;
    const pool = cards(asked.pool, {
      small: false,
      onClick: (name, card) => {
        if (chosen.has(name)) chosen.delete(name);
        else chosen.add(name);
        card.classList.toggle("in-discard", chosen.has(name));
        discard.disabled = chosen.size !== asked.count;
      },
    });
    for (const card of pool.querySelectorAll(".card")) if (answer.chien.includes(card.dataset.card)) card.classList.add("in-chien");
    const advised = button("Use the advised écart", "ecart-advised", async () => {
      advised.disabled = true;
      try {
        sendEcart(await game.ecart);
      } catch (error) {
        showError("game-error", error);
        advised.disabled = false;
      }
    }, "primary");
    const note = line("The advised écart is being computed…", "muted small");
    box.append(line("Click the cards to put aside (the chien's are ringed in purple), or use the advice:", "muted"),
      pool, make("div", { className: "actions" }), chelemBox("Announce a chelem (you then lead the first trick)"), note);
    box.querySelector(".actions").append(advised, discard);
    game.ecart = game.ecart || job("advise", asked.advice, hintProgress()).then(({ result }) => result.ecart.recommended);
    game.ecart.then((names) => {
      note.textContent = `Advised: discard ${names.join(" ")} (ringed in gold).`;
      for (const card of pool.querySelectorAll(".card")) card.classList.toggle("best", names.includes(card.dataset.card));
    }, (error) => { note.textContent = `No advice: ${error.message}`; });
  }

  function sendEcart(names) {
    const chelem = $("game-chelem");
    advance({ ecart: names, chelem: Boolean(chelem && chelem.checked) });
  }

  function askCard(box, asked) {
    box.append(line("Your turn: play one of the ringed cards.", "headline"));
    if (asked.poignees.length) box.append(poigneeChoice(asked.poignees));
    box.append(hintButton(() => job("play", asked.hint, hintProgress()).then(({ result }) => {
      const list = make("ol", { className: "game-ranking" });
      result.cards.forEach((estimate, rank) => {
        const gap = rank === 0 ? "best" : `${decimal(estimate.versus_best)} against the best`;
        const item = make("li", { className: rank === 0 ? "advised" : "" });
        item.append(cards([estimate.card]), make("span", {}, `${decimal(estimate.expected_score)} expected (${gap})`));
        list.append(item);
      });
      $("game-hint").append(line("Your cards, best first (expected score of the deal for you):", "muted"), list);
    })));
  }

  // Every poignée the hand allows, none by default: a smaller one tells the defence less. The
  // trumps of the one chosen show below (three rows of cards would not fit a phone).
  function poigneeChoice(offers) {
    const box = make("fieldset", { className: "poignees" });
    box.append(make("legend", {}, "Show a poignée with this card?"));
    const shown = make("div", { className: "poignee-cards" });
    const choice = (value, label) => {
      const row = make("label", { className: "offer" });
      const input = make("input", { type: "radio", name: "game-poignee", value, checked: value === "none" });
      input.dataset.testid = `poignee-${value}`;
      input.addEventListener("change", () => {
        shown.textContent = "";
        const offer = offers.find((o) => o.name === value);
        if (offer) shown.append(cards(offer.cards));
      });
      row.append(input, make("span", {}, label));
      return row;
    };
    box.append(choice("none", "No"));
    for (const { name, cards: trumps, bonus } of offers) {
      const title = name[0].toUpperCase() + name.slice(1);
      box.append(choice(name, `${title}: ${trumps.length} trumps, +${bonus} to the side that wins the contract`));
    }
    box.append(shown);
    return box;
  }

  function playCard(name) {
    const picked = document.querySelector('input[name="game-poignee"]:checked');
    const offer = picked && game.answer.asked.poignees.find((o) => o.name === picked.value);
    advance(offer ? { card: name, poignee: offer.cards } : { card: name });
  }

  function hintProgress() {
    return $("game-progress");
  }

  function hintButton(ask) {
    return button("Hint", "hint", async (event) => {
      event.target.disabled = true;
      $("game-hint").textContent = "";
      try {
        await ask();
      } catch (error) {
        showError("game-error", error);
      } finally {
        event.target.disabled = false;
      }
    }, "quiet");
  }

  // --- the end of the deal --------------------------------------------------------------------

  function finish(answer) {
    const box = $("game-over");
    box.textContent = "";
    const headline = answer.void ? "Everybody passed: the deal is void." : outcome(answer.result);
    box.append(line(headline, "headline"));
    const scores = make("ul", { className: "game-scores" });
    answer.scores.forEach((score, seat) => {
      const item = make("li", {}, `${who(seat, true)} `);
      const value = make("strong", {}, signed(score));
      value.dataset.testid = "score";
      item.append(value);
      scores.append(item);
    });
    box.append(scores, line(running(answer), "muted"));
    const actions = make("div", { className: "actions" });
    actions.append(button("Next deal", "next-deal", nextDeal, "primary"));
    if (answer.record) actions.append(button("Download the deal record", "download-record", () => download(answer)));
    box.append(actions);
    box.dataset.testid = "deal-over"; // only once the deal is over, for a script to wait for
    box.hidden = false;
    if (!answer.void) review(answer);
  }

  // The referee's score sheet in a sentence: every figure is the server's.
  function outcome(result) {
    const made = result.made ? `made by ${result.difference}` : `lost by ${-result.difference}`;
    const petit = result.petit_au_bout ? `, Petit au bout to the ${result.petit_au_bout}` : "";
    const chelem = result.chelem ? `, chelem by the ${result.chelem}` : "";
    const poignees = result.poignees.map(({ seat, bonus }) =>
      `, ${seat === game.answer.seat ? "your" : `${who(seat)}'s`} poignée (${bonus})`).join("");
    const each = result.per_defender;
    return `${BID_LABELS[result.contract]} ${made}: ${result.taker_points} points with ${result.bouts}`
      + ` bout${result.bouts === 1 ? "" : "s"}, ${result.needed} needed${petit}${poignees}${chelem};`
      + ` each defender ${each >= 0 ? "pays" : "receives"} ${Math.abs(each)}.`;
  }

  // The running score, by chair (you, right, …), over the deals finished in this browser.
  function running(answer) {
    const key = `tarot-game-${answer.players}`;
    const saved = JSON.parse(localStorage.getItem(key) || "null") || { deals: 0, totals: [], counted: [] };
    if (!saved.counted.includes(answer.seed)) {
      answer.scores.forEach((score, seat) => {
        const chair = (seat - answer.seat + answer.players) % answer.players;
        saved.totals[chair] = (saved.totals[chair] || 0) + score;
      });
      saved.deals += 1;
      saved.counted = [...saved.counted.slice(-99), answer.seed];
      localStorage.setItem(key, JSON.stringify(saved));
    }
    const parts = saved.totals.map((total, chair) => `${Seats.name(answer.players, chair, 0)} ${signed(total)}`);
    return `Running score over ${saved.deals} deal${saved.deals === 1 ? "" : "s"}: ${parts.join(", ")}.`;
  }

  async function review(answer) {
    const box = $("game-review");
    box.textContent = "";
    box.hidden = true;
    try {
      const { view } = await job("review", answer.review, $("game-progress"));
      box.append(line("The review of your decisions", "headline"));
      for (const seat of view.seats) box.append(seatReview(view, seat, (s) => who(s, true)));
      box.dataset.testid = "review";
      box.hidden = false;
    } catch (error) {
      showError("game-error", error);
    }
  }

  // The deal record, as tarot-replay and tarot-review read it.
  function download(answer) {
    const blob = new Blob([JSON.stringify(answer.record, null, 1)], { type: "application/json" });
    const link = make("a", { href: URL.createObjectURL(blob), download: `tarot-deal-${answer.players}p-${answer.seed}.json` });
    link.click();
    URL.revokeObjectURL(link.href);
  }

  function nextDeal() {
    const url = new URL(location.href);
    url.searchParams.set("seed", String(randomSeed()));
    location.assign(url.toString());
  }

  function randomSeed() {
    return Math.floor(Math.random() * 2 ** 31);
  }

  // --- the start ------------------------------------------------------------------------------

  function start() {
    const params = new URLSearchParams(location.search);
    if (params.get("play") !== "computer") return;
    for (const section of document.querySelectorAll("main > section")) section.hidden = section.id !== "game-panel";
    $("game-invite").hidden = true;
    $("game").hidden = false;
    game.players = params.get("players") || "4";
    game.table = params.get("table") || "lookahead";
    if (!params.has("seed")) {
      params.set("seed", String(randomSeed()));
      history.replaceState(null, "", `${location.pathname}?${params}`);
    }
    game.seed = params.get("seed");
    $("game-chair").textContent = FROM_CHAIR;
    advance(null);
  }

  return { start };
})();

GameTable.start();
