// The scoring engine's figures in JavaScript, for a phone without a connection (docs/offline.md).
//
// A transcription of scoring/rules (RULES.md sections named beside each rule): one deal (RULES 3),
// a rubber (RULES 2), a Chicago (RULES 5), and the two-player games (RULES 7). Inputs are the
// engine's own JSON (`DealInput.to_dict`, `TwoPlayerDeal.to_dict`, `DrawDiscardDeal.to_dict`);
// items are {side | player, line, points, reason, count, deal}. The server stays the authority:
// these figures are shown "not yet sent" and replaced by the server's. A plain script (no module,
// no dependency) that sets `window.BackscoreScorer`; tests/games/test_scorer_browser.py proves its
// figures equal to the Python engine's, figure by figure.
(() => {
  "use strict";

  const ABOVE = "above";
  const BELOW = "below";
  const STRAINS = ["C", "D", "H", "S", "NT"];
  const DEFAULT = {
    unfinished_partscore: 100,
    insult_redoubled: 100,
    old_undertricks: false,
    chicago_vulnerable: "dealer",
    chicago_honours: true,
    rubber_bonus_two_player: 100,
    draw_and_discard_target: 500,
  };

  class Refused extends Error {
    constructor(field, message) {
      super(message);
      this.field = field;
    }
  }

  const options = (given) => ({ ...DEFAULT, ...(given || {}) });
  const other = (side) => (side === "NS" ? "EW" : "NS");
  const minor = (strain) => strain === "C" || strain === "D";
  // RULES 3.1: the first odd trick and each later one, undoubled.
  const firstTrick = (strain) => (minor(strain) ? 20 : strain === "NT" ? 40 : 30);
  const laterTrick = (strain) => (minor(strain) ? 20 : 30);
  const trickValue = (strain, odd, multiplier) => (firstTrick(strain) + laterTrick(strain) * (odd - 1)) * multiplier;

  // "4SX" → {level: 4, strain: "S", doubling: 2}; "pass" → {level: 0, strain: null, doubling: 1}.
  function parseContract(text) {
    const cleaned = String(text).trim().toUpperCase();
    if (cleaned === "PASS") return { level: 0, strain: null, doubling: 1 };
    const match = /^([1-7])\s*(NT|N|S|H|D|C)\s*(XX|X|R)?$/.exec(cleaned);
    if (!match) throw new Refused("contract", `${text} is not a contract`);
    const strain = match[2] === "N" ? "NT" : match[2];
    const doubling = match[3] === undefined ? 1 : match[3] === "X" ? 2 : 4;
    return { level: Number(match[1]), strain, doubling };
  }

  // RULES 3.7: the fewest tricks the side holding honours takes, one card a trick or two.
  const ONE_CARD = { five: 5, four: 3, aces: 1 };
  const TWO_CARDS = { five: 3, four: 1, aces: 1 };
  const claim = (strain, points) => (strain === "NT" ? "aces" : points === 150 ? "five" : "four");

  function checkTricks(tricks) {
    if (!Number.isInteger(tricks) || tricks < 0 || tricks > 13) throw new Refused("tricks", "tricks are 0 to 13 (RULES 1)");
  }

  // RULES 3.4: cumulative undertricks.
  function undertricks(down, doubling, vulnerable, old) {
    if (doubling === 1) return down * (vulnerable ? 100 : 50);
    let total = 0;
    for (let n = 1; n <= down; n += 1) {
      if (vulnerable) total += n === 1 ? 200 : 300;
      else if (n === 1) total += 100;
      else if (n <= 3) total += 200;
      else total += old ? 200 : 300;
    }
    return total * (doubling / 2);
  }

  const item = (side, line, points, reason, count = null) => ({ side, line, points, reason, count });

  // One deal (RULES 3.1–3.6): {below, items} for the declaring side `declarer` ("NS" or "EW").
  // A passed-out deal scores nothing (RULES 3.8).
  function scoreDeal(deal, vulnerable, given) {
    const opts = options(given);
    const contract = parseContract(deal.contract);
    if (contract.strain === null) {
      if (deal.declarer != null || deal.tricks != null || deal.honours != null) {
        throw new Refused("contract", "a passed-out deal has no declarer, tricks or honours (RULES 3.8)");
      }
      return { below: 0, items: [] };
    }
    const { level, strain, doubling } = contract;
    const declarer = deal.declarer;
    if (declarer !== "NS" && declarer !== "EW") throw new Refused("declarer", "declarer is NS or EW");
    const tricks = deal.tricks;
    checkTricks(tricks);
    const honours = deal.honours;
    if (honours) {
      if (strain === "NT" && honours.points !== 150) throw new Refused("honours", "at no trumps only the four aces count (RULES 3.6)");
      const taken = honours.side === declarer ? tricks : 13 - tricks;
      if (taken < ONE_CARD[claim(strain, honours.points)]) throw new Refused("honours", "the play makes these honours impossible (RULES 3.7)");
    }
    const items = [];
    let below = 0;
    const needed = level + 6;
    if (tricks >= needed) {
      below = trickValue(strain, level, doubling); // RULES 3.1
      items.push(item(declarer, BELOW, below, "trick_points", level));
      const over = tricks - needed;
      if (over) {
        // RULES 3.2
        const each = doubling === 1 ? laterTrick(strain) : (vulnerable ? 200 : 100) * (doubling / 2);
        items.push(item(declarer, ABOVE, over * each, "overtricks", over));
      }
      if (doubling !== 1) items.push(item(declarer, ABOVE, doubling === 2 ? 50 : opts.insult_redoubled, "insult")); // RULES 3.3
      if (level >= 6) {
        // RULES 3.5
        const slam = level === 6 ? (vulnerable ? 750 : 500) : vulnerable ? 1500 : 1000;
        items.push(item(declarer, ABOVE, slam, "slam", level));
      }
    } else {
      const down = needed - tricks; // RULES 3.4
      items.push(item(other(declarer), ABOVE, undertricks(down, doubling, vulnerable, opts.old_undertricks), "undertricks", down));
    }
    if (honours) {
      // RULES 3.6: to the side holding them, made or not, never doubled.
      const held = honours.points === 100 || strain === "NT" ? 4 : 5;
      items.push(item(honours.side, ABOVE, honours.points, "honours", held));
    }
    return { below, items };
  }

  // RULES 4.1: a margin in hundreds, half up on the absolute margin.
  function hundreds(margin) {
    const count = Math.floor((Math.abs(margin) + 50) / 100);
    return margin >= 0 ? count : -count;
  }

  // A rubber's game loop (RULES 2.1–2.6, 8.1–8.4), shared by bridge and the two-player rubbers:
  // `entry(deal, vulnerable)` gives {side, below, items} with side 0 or 1.
  function playRubber(deals, entry, { closed, bonus, unfinished, names }) {
    const part = [0, 0];
    const games = [0, 0];
    const totals = [0, 0];
    const played = [];
    let winner = null;
    let rubberBonus = 0;
    const endItems = [];
    deals.forEach((deal, i) => {
      const number = i + 1;
      if (winner !== null) throw new Refused(`deals[${i}]`, `the rubber ended at deal ${i}; this deal belongs to the next rubber (RULES 8.1)`);
      const vulnerable = [games[0] > 0, games[1] > 0]; // RULES 2.3, read before the deal
      const scored = entry(deal, vulnerable);
      const items = scored.items.map((it) => ({ ...it, deal: number }));
      for (const it of items) totals[names.indexOf(it.side)] += it.points;
      played.push({ number, vulnerable, items });
      if (!scored.below) return;
      const side = scored.side;
      part[side] += scored.below;
      if (part[side] < 100) return; // RULES 2.1–2.2
      games[side] += 1;
      part[0] = 0;
      part[1] = 0;
      if (games[side] === 2) {
        // RULES 2.4
        winner = side;
        rubberBonus = bonus[games[1 - side]];
        totals[side] += rubberBonus;
        endItems.push({ ...item(names[side], ABOVE, rubberBonus, "rubber_bonus", games[1 - side]), deal: null });
      }
    });
    const unfinishedBonus = [0, 0];
    if (winner === null && closed && deals.length) {
      // RULES 2.6, 8.4
      for (const side of [0, 1]) {
        if (games[side] === 1 && games[1 - side] === 0 && unfinished[0]) {
          unfinishedBonus[side] += unfinished[0];
          endItems.push({ ...item(names[side], ABOVE, unfinished[0], "unfinished_game"), deal: null });
        }
        if (part[side] && !part[1 - side] && unfinished[1]) {
          unfinishedBonus[side] += unfinished[1];
          endItems.push({ ...item(names[side], ABOVE, unfinished[1], "unfinished_partscore"), deal: null });
        }
      }
      totals[0] += unfinishedBonus[0];
      totals[1] += unfinishedBonus[1];
    }
    const done = winner !== null || closed;
    return {
      deals: played,
      endItems,
      totals,
      games,
      complete: winner !== null,
      winner,
      rubberBonus,
      unfinishedBonus,
      vulnerable: done ? [false, false] : [games[0] > 0, games[1] > 0],
      hundreds: hundreds(totals[0] - totals[1]),
    };
  }

  // A rubber of bridge (RULES 2): deals as `DealInput.to_dict`, each at its declarer's vulnerability.
  function scoreRubber(deals, { closed = false, options: given } = {}) {
    const opts = options(given);
    const sides = ["NS", "EW"];
    const entry = (deal, vulnerable) => {
      const side = sides.indexOf(deal.declarer);
      const scored = scoreDeal(deal, side < 0 ? false : vulnerable[side], opts);
      return { side: Math.max(side, 0), below: scored.below, items: scored.items };
    };
    return playRubber(deals, entry, {
      closed,
      bonus: [700, 500],
      unfinished: [300, opts.unfinished_partscore],
      names: sides,
    });
  }

  // Chicago (RULES 5): four counted deals; a passed-out deal is redealt and does not count.
  function chicagoVulnerability(counted, opts) {
    if (counted === 1) return [false, false];
    if (counted === 4) return [true, true];
    let side = counted % 2 ? 0 : 1; // the dealer's side: N, E, S, W deal in turn
    if (opts.chicago_vulnerable === "non_dealer") side = 1 - side;
    return [side === 0, side === 1];
  }

  function scoreChicago(deals, { options: given } = {}) {
    const opts = options(given);
    const part = [0, 0];
    const games = [0, 0];
    const totals = [0, 0];
    const played = [];
    let counted = 0;
    deals.forEach((deal, i) => {
      if (counted === 4) throw new Refused(`deals[${i}]`, "the Chicago ended after four counted deals (RULES 5)");
      if (deal.honours && !opts.chicago_honours) throw new Refused(`deals[${i}].honours`, "honours do not count here (RULES 5)");
      const number = i + 1;
      const ours = counted + 1;
      const vulnerable = chicagoVulnerability(ours, opts);
      if (deal.declarer == null) {
        scoreDeal(deal, false, opts);
        played.push({ number, counted: null, vulnerable, items: [] });
        return;
      }
      counted = ours;
      const side = deal.declarer === "NS" ? 0 : 1;
      const scored = scoreDeal(deal, vulnerable[side], opts);
      const items = scored.items.slice();
      if (scored.below) {
        const reached = part[side] + scored.below;
        if (reached >= 100) {
          part[0] = 0;
          part[1] = 0;
          games[side] += 1;
          items.push(item(deal.declarer, ABOVE, vulnerable[side] ? 500 : 300, "game_bonus"));
        } else {
          part[side] = reached;
          if (ours === 4) items.push(item(deal.declarer, ABOVE, 100, "partscore_bonus"));
        }
      }
      for (const it of items) {
        it.deal = number;
        totals[it.side === "NS" ? 0 : 1] += it.points;
      }
      played.push({ number, counted: ours, vulnerable, items });
    });
    return {
      deals: played,
      endItems: [],
      totals,
      games,
      counted,
      complete: counted === 4,
      hundreds: hundreds(totals[0] - totals[1]),
    };
  }

  // --- the two-player games (RULES 7) ----------------------------------------------------------

  const pitem = (player, line, points, reason, count = null) => ({ side: player, line, points, reason, count });

  // One deal of Bridge for Two (RULES 7.1) or Misery Bridge (RULES 7.2), as `TwoPlayerDeal.to_dict`.
  function scoreTwoPlayerDeal(deal, { misery = false } = {}) {
    const declarer = deal.declarer;
    const strain = deal.strain === "N" ? "NT" : deal.strain;
    const tricks = deal.tricks;
    const declaration = deal.declaration || "ordinary";
    const doubled = Boolean(deal.doubled);
    checkTricks(tricks);
    if (declaration !== "ordinary" && doubled) throw new Refused("doubled", "there is no doubling in Misery Bridge (RULES 7.2)");
    if (declaration === "misery" && (strain !== "NT" || deal.honours)) throw new Refused("strain", "misery is played at no trumps, without honours (RULES 7.2)");
    const honours = deal.honours;
    if (honours) {
      if (strain === "NT" && honours.points !== 150) throw new Refused("honours", "at no trumps only the four aces count (RULES 3.6)");
      const taken = honours.player === declarer ? tricks : 13 - tricks;
      if (taken < (misery ? ONE_CARD : TWO_CARDS)[claim(strain, honours.points)]) throw new Refused("honours", "the play makes these honours impossible (RULES 3.7)");
    }
    const opponent = 1 - declarer;
    const items = [];
    if (declaration === "ordinary") {
      const [player, odd, reason] = tricks >= 7 ? [declarer, tricks - 6, "two_player_declarer_tricks"] : [opponent, 7 - tricks, "two_player_opponent_tricks"];
      items.push(pitem(player, BELOW, trickValue(strain, odd, doubled ? 2 : 1), reason, odd));
    } else if (declaration === "eight") {
      if (tricks >= 8) items.push(pitem(declarer, BELOW, trickValue(strain, tricks - 6, 2), "eight_tricks", tricks - 6));
      else items.push(pitem(opponent, ABOVE, 10, "eight_tricks_failed", tricks));
    } else if (tricks > 1) {
      items.push(pitem(opponent, ABOVE, 5 * tricks, "misery_penalty", tricks));
    } else {
      items.push(pitem(declarer, ABOVE, 5 * (7 - tricks), "misery_made", 7 - tricks));
    }
    const failedEight = declaration === "eight" && tricks < 8;
    if (honours && !(failedEight && honours.player === declarer)) {
      const held = honours.points === 150 && strain !== "NT" ? 5 : 4;
      items.push(pitem(honours.player, ABOVE, honours.points, "two_player_honours", held));
    }
    const below = items.find((it) => it.line === BELOW);
    return { side: below ? below.side : 0, below: below ? below.points : 0, items };
  }

  const END_REASONS = {
    rubber_bonus: "two_player_rubber_bonus",
    unfinished_game: "two_player_unfinished_game",
    unfinished_partscore: "two_player_unfinished_partscore",
  };

  function twoPlayerRubber(deals, { closed = false, options: given, misery = false } = {}) {
    const opts = options(given);
    if (!misery && deals.some((deal) => (deal.declaration || "ordinary") !== "ordinary")) {
      throw new Refused("declaration", "a Misery Bridge declaration (RULES 7.1)");
    }
    if (misery && deals.some((deal) => deal.doubled)) throw new Refused("doubled", "there is no doubling in Misery Bridge (RULES 7.2)");
    const standard = opts.rubber_bonus_two_player !== 100;
    const played = playRubber(deals, (deal) => scoreTwoPlayerDeal(deal, { misery }), {
      closed,
      bonus: standard ? [700, 500] : [100, 100],
      unfinished: standard ? [300, opts.unfinished_partscore] : [50, 0], // RULES 7.1
      names: [0, 1],
    });
    played.endItems = played.endItems.map((it) => ({ ...it, reason: END_REASONS[it.reason] }));
    return played;
  }

  // Turnover (RULES 7.3): the first to 14 of 26 tricks, or all 26 played out; 13–13 a tie.
  function scoreTurnover(first, second) {
    const playedOut = first + second === 26 && Math.min(first, second) >= 0;
    const stopped = Math.max(first, second) === 14 && Math.min(first, second) >= 0 && Math.min(first, second) <= 12;
    if (!Number.isInteger(first) || !Number.isInteger(second) || !(playedOut || stopped)) {
      throw new Refused("tricks", `${first}–${second} is not a Turnover result (RULES 7.3)`);
    }
    if (first === second) return { tricks: [13, 13], winner: null };
    return { tricks: [first, second], winner: first > second ? 0 : 1 };
  }

  // Draw and Discard (RULES 7.4): a made contract scores every trick over six; first to the target.
  function scoreDrawDiscard(deals, { target = null, options: given } = {}) {
    const goal = target === null ? options(given).draw_and_discard_target : target;
    const scores = [0, 0];
    let winner = null;
    const played = deals.map((deal, i) => {
      if (winner !== null) throw new Refused(`deals[${i}]`, "the game is over (RULES 7.4)");
      const number = i + 1;
      const contract = parseContract(deal.contract);
      const items = [];
      if (contract.strain !== null) {
        checkTricks(deal.tricks);
        if (deal.tricks >= contract.level + 6) {
          const over = deal.tricks - 6;
          items.push({ ...pitem(deal.declarer, BELOW, trickValue(contract.strain, over, contract.doubling), "draw_discard_tricks", over), deal: number });
        }
      }
      for (const it of items) {
        scores[it.side] += it.points;
        if (scores[it.side] >= goal) winner = it.side;
      }
      return { number, items };
    });
    return { deals: played, totals: scores, target: goal, winner, complete: winner !== null };
  }

  // A match of any game from its deals, as the server keeps them (games/offline data).
  function scoreMatch(kind, deals, { closed = false, options: given } = {}) {
    if (kind === "rubber") return scoreRubber(deals, { closed, options: given });
    if (kind === "chicago") return scoreChicago(deals, { options: given });
    if (kind === "bridge_for_two") return twoPlayerRubber(deals, { closed, options: given });
    if (kind === "misery") return twoPlayerRubber(deals, { closed, options: given, misery: true });
    if (kind === "draw_discard") return scoreDrawDiscard(deals, { options: given });
    if (kind === "turnover") {
      const result = deals.length ? scoreTurnover(deals[0].tricks[0], deals[0].tricks[1]) : { tricks: [0, 0], winner: null };
      return { deals: [], totals: result.tricks, winner: result.winner, complete: deals.length > 0 };
    }
    throw new Refused("kind", `${kind} is not a game`);
  }

  const api = {
    Refused,
    STRAINS,
    parseContract,
    hundreds,
    scoreDeal,
    scoreRubber,
    scoreChicago,
    scoreTwoPlayerDeal,
    twoPlayerRubber,
    scoreTurnover,
    scoreDrawDiscard,
    scoreMatch,
  };
  if (typeof window !== "undefined") window.BackscoreScorer = api;
  if (typeof module !== "undefined" && module.exports) module.exports = api;
})();
