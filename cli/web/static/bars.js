// The advice's bars: each contract's P(make) and E[score] with its 95% interval, drawn in HTML
// from the result's JSON (the numbers of the table above), so that they fit any width.
"use strict";

const Bars = (() => {
  const Z95 = 1.96;

  function element(tag, className, text) {
    return Object.assign(document.createElement(tag), { className, textContent: text ?? "" });
  }

  // A bar from `from` to `to` (percentages of the track) and, optionally, a whisker and the
  // zero line.
  function track(from, to, whisker) {
    const box = element("span", "track");
    const fill = element("span", "fill");
    fill.style.left = `${Math.min(from, to)}%`;
    fill.style.width = `${Math.abs(to - from)}%`;
    box.append(fill);
    if (whisker) {
      const line = element("span", "whisker");
      line.style.left = `${whisker[0]}%`;
      line.style.width = `${whisker[1] - whisker[0]}%`;
      const zero = element("span", "zero");
      zero.style.left = `${from}%`;
      box.append(line, zero);
    }
    return box;
  }

  // `result`: tarot-advise's JSON; `labels`: each contract's name on the page.
  function draw(box, result, labels) {
    box.textContent = "";
    const contracts = Object.entries(result.contracts);
    const ends = contracts.flatMap(([, c]) => [c.expected_score - Z95 * c.expected_score_se, c.expected_score + Z95 * c.expected_score_se]);
    const low = Math.min(0, ...ends), high = Math.max(0, ...ends);
    const at = (score) => (100 * (score - low)) / (high - low || 1);
    const countBid = result.heuristic.calibrated?.bid ?? result.heuristic.bid;
    box.append(element("p", "bars-title", "P(make) and E[score] ± 95% for each contract; the green one is the advice"));
    for (const [name, c] of contracts) {
      const row = element("div", "bar-row" + (name === result.recommendation ? " advised" : ""));
      row.dataset.contract = name;
      const label = element("span", "bar-label", labels[name]);
      if (name === countBid) label.append(element("span", "tag", "the point count's bid"));
      const margin = Z95 * c.expected_score_se;
      const score = `${c.expected_score >= 0 ? "+" : "−"}${Math.abs(c.expected_score).toFixed(1)} ± ${margin.toFixed(1)}`;
      row.append(
        label,
        element("span", "bar-name", "P(make)"),
        track(0, 100 * c.p_make, null),
        element("span", "value", `${(100 * c.p_make).toFixed(1)}%`),
        element("span", "bar-name", "E[score]"),
        track(at(0), at(c.expected_score), [at(c.expected_score - margin), at(c.expected_score + margin)]),
        element("span", "value", score),
      );
      box.append(row);
    }
  }

  return { draw };
})();
