// Shared links: the hand, the chien and the auction in the page's address, read when the page
// opens (the advice then runs) and written by "Copy link". Cards as the command line writes
// them, separated by spaces or commas; S H D C stand for ♠ ♥ ♦ ♣. Uses app.js's state, $, post.
"use strict";

const Link = (() => {
  const KEYS = ["players", "hand", "chien", "called", "contract", "bids", "position"];
  const GAME_KEYS = ["play", "seed"]; // the deal against the computer reads these
  const LETTERS = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };

  // The link's cards under `key`, checked by the server as the paste box's are: `count` of them
  // with `players` players.
  async function cards(key, text, count, players) {
    let names;
    try {
      ({ cards: names } = await post("/api/cards", { cards: text }));
    } catch (error) {
      throw new Error(`the link's ${key}: ${error.message}`);
    }
    if (count !== null && names.length !== count) {
      throw new Error(`the link's ${key} has ${names.length} card${names.length === 1 ? "" : "s"}; ${count} ${count === 1 ? "is" : "are"} needed with ${players} players`);
    }
    return names;
  }

  function bidsOf(text, players) {
    const bids = text.toLowerCase().replace(/garde[\s_-]+(sans|contre)/g, "garde_$1")
      .replace(/\bpasse\b/g, "pass").split(/[\s,]+/).filter(Boolean);
    const wrong = bids.find((bid) => !(bid in LABELS));
    if (wrong) throw new Error(`the link's bids: "${wrong}" is not a bid (pass, prise, garde, garde_sans, garde_contre)`);
    if (bids.length > players - 1) throw new Error(`the link's bids: ${bids.length} bids heard before you, but only ${players - 1} players speak before the last`);
    return bids;
  }

  // The link read and checked whole, before anything on the page changes: a bad link is one
  // sentence, never a page half set.
  async function read(params) {
    const unknown = [...params.keys()].filter((key) => !KEYS.includes(key) && !GAME_KEYS.includes(key));
    if (unknown.length) throw new Error(`the link's "${unknown[0]}" is not understood: a link gives ${KEYS.join(", ")}`);
    const players = Number(params.get("players") ?? 4);
    if (![3, 4, 5].includes(players)) throw new Error(`the link's players=${params.get("players")}: give 3, 4 or 5`);
    const link = { players, bids: [], position: "" };
    if (params.has("hand")) link.hand = await cards("hand", params.get("hand"), state.sizes.hand[players], players);
    if (params.has("chien")) {
      if (!link.hand) throw new Error("the link gives a chien but no hand");
      link.chien = await cards("chien", params.get("chien"), state.sizes.chien[players], players);
      const both = link.chien.find((card) => link.hand.includes(card));
      if (both) throw new Error(`the link's chien holds ${both}, which is also in the hand`);
    }
    if (params.has("called")) {
      if (players !== 5) throw new Error("the link's called card is only for 5 players");
      link.called = (await cards("called card", params.get("called"), 1, players))[0];
    }
    const contract = params.get("contract") ?? "garde";
    if (!["prise", "garde"].includes(contract)) throw new Error(`the link's contract=${contract}: the écart is advised for prise or garde`);
    link.contract = contract;
    if (params.has("bids")) link.bids = bidsOf(params.get("bids"), players);
    if (params.has("position")) {
      const position = Number(params.get("position"));
      if (!Number.isInteger(position) || position < 1 || position > players) {
        throw new Error(`the link's position=${params.get("position")}: give 1 to ${players}`);
      }
      if (link.bids.length && position !== link.bids.length + 1) {
        throw new Error(`the link's position=${position} does not fit its ${link.bids.length} bids heard (you would be position ${link.bids.length + 1})`);
      }
      link.position = String(position);
    }
    return link;
  }

  function apply(link) {
    state.bids = [];
    setPlayers(link.players);
    $("position").value = link.position;
    state.bids = link.bids;
    drawBids();
    if (link.position) $("play-position").value = link.position;
    fillTakers();
    if (link.hand) state.picked.hand = new Set(link.hand);
    if (link.chien) state.picked.chien = new Set(link.chien);
    if (link.called) $("ecart-called").value = link.called;
    for (const b of $("ecart-contract").querySelectorAll("button")) b.classList.toggle("on", b.dataset.value === link.contract);
    refreshPicker();
  }

  // Opens the page at the link's state and runs its advice: the écart's when a chien is given.
  async function open(params) {
    if ([...params.keys()].every((key) => GAME_KEYS.includes(key))) return; // no link of ours
    let link;
    try {
      link = await read(params);
    } catch (error) {
      showError("link-error", `This link could not be opened: ${error.message.replace(/\.$/, "")}.`);
      return;
    }
    apply(link);
    if (link.chien) {
      $("ecart-panel").scrollIntoView({ block: "start" });
      await adviseEcart();
    } else if (link.hand) await advise();
  }

  function written(cards) {
    return order(cards).map((card) => card.replace(/[♠♥♦♣]/, (suit) => LETTERS[suit])).join(",");
  }

  // The address of the page as it stands: its players, cards and auction.
  function make() {
    const parts = [`players=${state.players}`];
    const { hand, chien } = state.picked;
    if (hand.size) parts.push(`hand=${written(hand)}`);
    if (chien.size) parts.push(`chien=${written(chien)}`, `contract=${segmentedValue("ecart-contract")}`);
    const called = $("ecart-called").value.trim();
    if (state.players === 5 && called) parts.push(`called=${encodeURIComponent(called)}`);
    if (state.bids.length) parts.push(`bids=${state.bids.join(",")}`);
    else if ($("position").value) parts.push(`position=${$("position").value}`);
    return `${location.origin}${location.pathname}?${parts.join("&")}`;
  }

  // Puts the link on the clipboard where the browser allows it, and always in a field to copy.
  async function copy() {
    const url = make();
    $("link").value = url;
    $("link-box").hidden = false;
    let copied = false;
    try {
      await navigator.clipboard.writeText(url);
      copied = true;
    } catch {
      // No clipboard here (an insecure address, or permission refused): the field is selected.
    }
    $("link-note").textContent = copied ? "Copied." : "Select the link and copy it.";
    $("link").select();
  }

  return { open, copy, make };
})();
