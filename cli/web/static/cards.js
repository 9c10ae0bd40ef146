// The cards, drawn in HTML and CSS: a corner index, a big pip, trumps numbered on their own
// colour, the bouts (1, 21, Excuse) marked with a star. Names are the command line's ("R♥").
"use strict";

const Cards = (() => {
  const SUITS = { "♠": "spades", "♥": "hearts", "♦": "diamonds", "♣": "clubs" };
  const FACES = { R: "Roi", D: "Dame", C: "Cavalier", V: "Valet" };
  const BOUTS = new Set(["1", "21", "Excuse"]);

  function suitOf(name) {
    const last = name.slice(-1);
    return SUITS[last] ? last : null;
  }

  function title(name) {
    if (name === "Excuse") return "The Excuse (a bout)";
    const suit = suitOf(name);
    if (!suit) return `Trump ${name}` + (BOUTS.has(name) ? (name === "1" ? " (the Petit, a bout)" : " (a bout)") : "");
    const rank = name.slice(0, -1);
    return `${FACES[rank] || rank} of ${SUITS[suit]}`;
  }

  function span(cls, text) {
    const s = document.createElement("span");
    s.className = cls;
    s.textContent = text;
    return s;
  }

  // A card as a button: data-card holds its name.
  function element(name) {
    const card = document.createElement("button");
    card.type = "button";
    card.dataset.card = name;
    card.title = title(name);
    card.setAttribute("aria-label", title(name));
    const suit = suitOf(name);
    if (name === "Excuse") {
      card.className = "card trump excuse bout";
      card.append(span("corner", "★"), span("pip", "★"), span("name", "Excuse"));
    } else if (!suit) {
      card.className = "card trump" + (BOUTS.has(name) ? " bout" : "");
      card.append(span("corner", name), span("pip", name), span("name", name === "1" ? "Petit" : "atout"));
    } else {
      const rank = name.slice(0, -1);
      card.className = `card ${SUITS[suit]}` + (FACES[rank] ? " face" : "");
      card.append(span("corner", rank + suit), span("pip", FACES[rank] ? rank : suit),
                  span("name", FACES[rank] ? suit : ""));
    }
    return card;
  }

  return { element, suitOf, title };
})();
