/**
 * A contact's name bucket: its first two letters as an ordinal, so that the reports read the
 * contacts by name a batch of buckets at a time (report-kit's batched read) — the plugin's
 * repository compares by equality only, so there is no "after this name" to continue from, and
 * an OFFSET over 100,000 contacts re-reads every earlier one on each page.
 *
 * A letter is folded (case, accents: "Á" is "a", "й" is "и"), digits come first, then the Latin and the
 * Cyrillic alphabets, then anything else; no second letter sorts before any ("Al" before "Ala").
 * The reports' order is (bucket, name, id): by name for every name these alphabets start.
 */
const ALPHABET = [..."0123456789abcdefghijklmnopqrstuvwxyzабвгдежзиклмнопрстуфхцчшщъыьэюя"];
const RANK = new Map(ALPHABET.map((c, i) => [c, i + 1]));
/** Ranks a letter may take: none (0), the alphabet's, anything else (last). */
const RANKS = ALPHABET.length + 2;

function rank(c: string | undefined): number {
  if (c === undefined) return 0;
  const folded = c.normalize("NFD").replace(/\p{M}+/gu, "").toLowerCase();
  return RANK.get(folded) ?? RANKS - 1;
}

export function nameBucket(name: string): number {
  const letters = [...name.trim()];
  return rank(letters[0]) * RANKS + rank(letters[1]);
}

/** Every bucket, in order: the keys of a read by name. */
export const NAME_BUCKETS: readonly number[] = Array.from({ length: RANKS * RANKS }, (_, i) => i);

/** A bucket no name has (report-kit's `pad`: keeps a read of one bucket on the bucket's index). */
export const NO_BUCKET = -1;
