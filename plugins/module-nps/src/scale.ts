/**
 * The NPS rules that need no database: what a reply is worth, which group a score falls in,
 * the score of a set of answers, and the placeholders of the survey's texts.
 *
 * Groups on a scale 0..max (spec §9: max 10 by default). The classic NPS groups of the 0–10
 * scale (promoters 9–10, passives 7–8, detractors 0–6) are kept as fractions of the maximum
 * and applied to any maximum, in whole numbers so no rounding decides a border:
 *
 *   promoter   10 × score ≥ 9 × max
 *   passive    10 × score ≥ 7 × max   (and not a promoter)
 *   detractor  the rest
 *
 * | max | detractors | passives | promoters |
 * |-----|------------|----------|-----------|
 * | 10  | 0–6        | 7–8      | 9–10      |
 * | 5   | 0–3        | 4        | 5         |
 * | 4   | 0–2        | 3        | 4         |
 * | 3   | 0–2        | —        | 3         |
 *
 * Each answer keeps the group it got when it came (the scale may change later; past answers
 * are not regrouped). NPS = % promoters − % detractors of the answers, rounded to a whole
 * number, from −100 to 100; no answers: null.
 */

export const SCALE_MIN = 3;
export const SCALE_MAX = 10;
export const DEFAULT_SCALE = 10;

export type NpsGroup = "promoter" | "passive" | "detractor";

export function groupOf(score: number, max: number): NpsGroup {
  if (10 * score >= 9 * max) return "promoter";
  if (10 * score >= 7 * max) return "passive";
  return "detractor";
}

/**
 * The score a reply gives, or null when it is not one: a whole number from 0 to max, alone
 * (spaces around it allowed, a final "." or "!" too). "9/10", "nota 9", "9.5", "-1" and a
 * media without caption are not replies.
 */
export function parseReply(body: string | null | undefined, max: number): number | null {
  const m = /^\s*(\d{1,3})\s*[.!]?\s*$/.exec(body ?? "");
  if (!m) return null;
  const n = Number(m[1]);
  return n >= 0 && n <= max ? n : null;
}

export interface NpsFigures {
  answered: number;
  promoters: number;
  passives: number;
  detractors: number;
  /** % promoters − % detractors, rounded; null without answers. */
  score: number | null;
}

export function figuresOf(groups: Iterable<NpsGroup>): NpsFigures {
  const c = { promoters: 0, passives: 0, detractors: 0 };
  for (const g of groups) {
    if (g === "promoter") c.promoters++;
    else if (g === "passive") c.passives++;
    else c.detractors++;
  }
  return figuresOfCounts(c);
}

/** The figures of answers already counted by group (the statistics' grouped query). */
export function figuresOfCounts(c: { promoters: number; passives: number; detractors: number }): NpsFigures {
  const answered = c.promoters + c.passives + c.detractors;
  return { answered, promoters: c.promoters, passives: c.passives, detractors: c.detractors, score: answered ? Math.round((100 * (c.promoters - c.detractors)) / answered) : null };
}

/** Fills {{name}} (the contact's first name) and {{max}} (the scale's maximum), any case and spacing; other braces stay. */
export function fillText(text: string, vars: { name: string; max: number }): string {
  const first = vars.name.trim().split(/\s+/)[0] ?? "";
  return text.replace(/\{\{\s*(name|max)\s*\}\}/gi, (_, k: string) => (k.toLowerCase() === "name" ? first : String(vars.max)));
}
