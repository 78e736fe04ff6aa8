// Scores the differential test's cases (tests/games/test_scorer_browser.py) with the phone's
// scorer: one call, JSON text in and out.
(text) => {
  const cases = JSON.parse(text);
  const S = window.BackscoreScorer;
  const plain = (it) => [it.side, it.line, it.points, it.reason, it.count, it.deal === undefined ? null : it.deal];
  const sheet = (s) => ({
    items: s.deals.map((d) => d.items.map(plain)),
    vulnerable: s.deals.map((d) => d.vulnerable),
    totals: s.totals,
    games: s.games,
  });
  const refused = (run) => { try { return run(); } catch (e) { if (e instanceof S.Refused) return null; throw e; } };
  const rubber = (kind) => (c) => {
    const s = S.scoreMatch(kind, c.deals, { closed: c.closed, options: c.options });
    const winner = s.winner === null || kind !== "rubber" ? s.winner : ["NS", "EW"][s.winner];
    return { ...sheet(s), end: s.endItems.map(plain), complete: s.complete, winner, hundreds: s.hundreds };
  };
  const score = {
    single: (c) => refused(() => S.scoreDeal(c.deal, c.vulnerable).items.map(plain)),
    rubbers: rubber("rubber"),
    chicagos: (c) => {
      const s = S.scoreMatch("chicago", c.deals, { options: c.options });
      return { ...sheet(s), counted: s.counted, hundreds: s.hundreds };
    },
    bridge_for_two: rubber("bridge_for_two"),
    misery: rubber("misery"),
    turnover: (c) => refused(() => S.scoreTurnover(c.tricks[0], c.tricks[1])),
    draw_discard: (c) => {
      const s = S.scoreMatch("draw_discard", c.deals, { options: c.options });
      return { items: s.deals.map((d) => d.items.map(plain)), totals: s.totals, winner: s.winner };
    },
  };
  return JSON.stringify(Object.fromEntries(Object.entries(cases).map(([name, group]) => [name, group.map(score[name])])));
}
