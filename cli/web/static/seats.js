// The players named from your chair, as a player says them. Tarot is played counter-clockwise
// (FFT rules): the player after you sits on your right, the one before you on your left.
"use strict";

const Seats = (() => {
  const AROUND = {
    3: ["you", "right", "left"],
    4: ["you", "right", "opposite", "left"],
    5: ["you", "right", "far right", "far left", "left"],
  };

  // The name of `seat` (0…players−1, in the order of play) for the player at `yours`;
  // "your partner" for `partner` (the called king's holder, 5 players, once known).
  function name(players, seat, yours, partner = null) {
    if (seat === yours) return "you";
    if (partner !== null && seat === partner) return "your partner";
    return AROUND[players][(seat - yours + players) % players];
  }

  // The same name starting with a capital, for a line or a table's first column.
  function title(players, seat, yours, partner = null) {
    const text = name(players, seat, yours, partner);
    return text[0].toUpperCase() + text.slice(1);
  }

  return { name, title };
})();
