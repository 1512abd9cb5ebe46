// Chance-corrected agreement. Raw agreement flatters a verifier on an unbalanced set (if 90% of
// trajectories truly pass, "always pass" agrees 90% of the time), so we report κ next to it.

export type HumanLabel = 'pass' | 'fail' | 'unsure';
export const HUMAN_LABELS: readonly HumanLabel[] = ['pass', 'fail', 'unsure'];

/**
 * κ, or null with the reason when it is undefined. Never NaN: a NaN would silently poison any
 * comparison or chart downstream, while a null forces the caller to show the reason.
 */
export type Kappa = { value: number; items: number; reason: null } | { value: null; items: number; reason: string };

const DEGENERATE =
  'chance agreement is 1 (every rating falls in one and the same category), so κ = 0/0 is undefined; ' +
  'observed agreement is 100% but says nothing about discrimination';

/**
 * Cohen's κ from a square contingency table `table[i][j]` = items rater A put in category i and
 * rater B in category j.  κ = (p_o − p_e) / (1 − p_e), with p_o = Σ n_ii / N and
 * p_e = Σ_i (row_i · col_i) / N².  Multiplying through by N² gives the integer form
 *   κ = (N · Σ n_ii − Σ row_i·col_i) / (N² − Σ row_i·col_i)
 * which we use so that the degenerate test "p_e = 1" is an exact integer comparison, not a float
 * compared against 1. p_e = 1 happens iff both raters used one and the same single category
 * (then p_o = 1 too); we return null with the reason rather than pick 0 or 1 arbitrarily.
 */
export function cohenKappaTable(table: readonly (readonly number[])[]): Kappa {
  const k = table.length;
  let n = 0;
  let diag = 0;
  const rows = new Array<number>(k).fill(0);
  const cols = new Array<number>(k).fill(0);
  table.forEach((row, i) => {
    if (row.length !== k) throw new RangeError('cohenKappaTable: table must be square');
    row.forEach((c, j) => {
      if (!Number.isInteger(c) || c < 0) throw new RangeError(`cohenKappaTable: bad count ${c}`);
      n += c;
      rows[i]! += c;
      cols[j]! += c;
      if (i === j) diag += c;
    });
  });
  if (n === 0) return { value: null, items: 0, reason: 'no items rated by both raters' };
  const chance = rows.reduce((s, r, i) => s + r * cols[i]!, 0); // = p_e · N²
  if (chance === n * n) return { value: null, items: n, reason: DEGENERATE };
  return { value: (n * diag - chance) / (n * n - chance), items: n, reason: null };
}

/**
 * Inter-annotator Cohen's κ over the items BOTH annotators labelled (keyed by item id). Categories
 * are pass / fail / unsure: "unsure" is a real answer an annotator gave, so for agreement between
 * annotators it counts as a category (unlike the verifier metrics, where it is excluded).
 */
export function cohenKappaAnnotators(a: ReadonlyMap<string, HumanLabel>, b: ReadonlyMap<string, HumanLabel>): Kappa {
  const table = HUMAN_LABELS.map(() => HUMAN_LABELS.map(() => 0));
  for (const [id, la] of a) {
    const lb = b.get(id);
    if (lb === undefined) continue;
    table[HUMAN_LABELS.indexOf(la)]![HUMAN_LABELS.indexOf(lb)]! += 1;
  }
  return cohenKappaTable(table);
}

/**
 * Fleiss' κ for m ≥ 2 raters from per-item category counts `counts[i][j]` (how many raters put
 * item i in category j). Every item must carry the same number of ratings m — Fleiss' formula
 * assumes it; callers select the items with complete overlap. With N items:
 *   P_i = (Σ_j n_ij² − m) / (m(m − 1))    agreement among the pairs of raters on item i
 *   P̄  = mean P_i,   p_j = Σ_i n_ij / (N m),   P̄_e = Σ_j p_j²
 *   κ   = (P̄ − P̄_e) / (1 − P̄_e)
 * The raters need not be the same people on every item (that is what Fleiss allows over Cohen).
 */
export function fleissKappaCounts(counts: readonly (readonly number[])[]): Kappa {
  const items = counts.length;
  if (items === 0) return { value: null, items: 0, reason: 'no items with overlapping ratings' };
  const k = counts[0]!.length;
  const m = counts[0]!.reduce((s, c) => s + c, 0);
  if (m < 2) throw new RangeError(`fleissKappa: each item needs at least 2 ratings, got ${m}`);
  let sumP = 0;
  const colTotals = new Array<number>(k).fill(0);
  for (const row of counts) {
    if (row.length !== k) throw new RangeError('fleissKappa: every item needs the same categories');
    let ratings = 0;
    let sq = 0;
    row.forEach((c, j) => {
      if (!Number.isInteger(c) || c < 0) throw new RangeError(`fleissKappa: bad count ${c}`);
      ratings += c;
      sq += c * c;
      colTotals[j]! += c;
    });
    if (ratings !== m) throw new RangeError(`fleissKappa: every item needs ${m} ratings, one has ${ratings}`);
    sumP += (sq - m) / (m * (m - 1));
  }
  const pBar = sumP / items;
  const pe = colTotals.reduce((s, t) => s + (t / (items * m)) ** 2, 0);
  // P̄_e = 1 exactly iff every rating is in one category (one column holds all N·m ratings); test
  // that on the integer totals rather than on the float sum of squares.
  if (colTotals.some((t) => t === items * m)) return { value: null, items, reason: DEGENERATE };
  return { value: (pBar - pe) / (1 - pe), items, reason: null };
}

/** Fleiss' κ over pass / fail / unsure from each item's list of labels (same number per item). */
export function fleissKappa(labelsPerItem: readonly (readonly HumanLabel[])[]): Kappa {
  return fleissKappaCounts(labelsPerItem.map((ls) => HUMAN_LABELS.map((c) => ls.filter((l) => l === c).length)));
}
