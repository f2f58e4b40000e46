/**
 * How a person (contact or user) and other named things look in lists: one colour and one pair
 * of initials for the same record on every screen (attendance, contacts, settings, dashboard).
 */

/** Colours of avatars and of things without a colour of their own (queues). */
const PALETTE = ["#0a7d4f", "#2563eb", "#9333ea", "#db2777", "#ea580c", "#0891b2", "#4f46e5", "#65a30d", "#c2410c", "#0d9488", "#7c3aed", "#be123c"];

/**
 * A stable colour for a record: pass its id (a contact's, a user's, a queue's), so a rename
 * keeps the colour and neighbours get different ones. A string (a name, when there is no id)
 * is hashed by code point.
 */
export function avatarColor(seed: number | string): string {
  const n = typeof seed === "number" ? seed : [...seed].reduce((a, c) => (a * 31 + (c.codePointAt(0) ?? 0)) >>> 0, 7);
  return PALETTE[Math.abs(Math.trunc(n)) % PALETTE.length];
}

/** Initials of a name: first letter of the first and last words, by code point (an emoji or 𝒜 stays whole). */
export function initials(name: string | null | undefined): string {
  const parts = (name ?? "").trim().split(/\s+/).filter(Boolean);
  if (!parts.length) return "?";
  const first = [...parts[0]][0] ?? "";
  const last = parts.length > 1 ? ([...parts[parts.length - 1]][0] ?? "") : "";
  return (first + last).toUpperCase();
}
