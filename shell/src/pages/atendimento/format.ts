/** Small display helpers of the attendance screen: times, sizes, links (colours and initials: ui/person.ts). */

const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();

/** Time of a list row: hour today, "yesterday", weekday this week, date before. */
export function listTime(ms: number, locale: string, yesterday: string, now = Date.now()): string {
  if (!ms) return "";
  const d = new Date(ms);
  const today = startOfDay(new Date(now));
  const day = startOfDay(d);
  if (day === today) return d.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit" });
  if (today - day <= 86400_000 + 3600_000 && today - day > 0) return yesterday;
  if (today - day < 6 * 86400_000) return d.toLocaleDateString(locale, { weekday: "short" });
  return d.toLocaleDateString(locale, { day: "2-digit", month: "2-digit", year: "2-digit" });
}

export function clockTime(ms: number, locale: string): string {
  return new Date(ms).toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit" });
}

/** The day separator's label: today, yesterday or the full date. */
export function dayLabel(ms: number, locale: string, words: { today: string; yesterday: string }, now = Date.now()): string {
  const today = startOfDay(new Date(now));
  const day = startOfDay(new Date(ms));
  if (day === today) return words.today;
  if (today - day > 0 && today - day <= 86400_000 + 3600_000) return words.yesterday;
  return new Date(ms).toLocaleDateString(locale, { weekday: "long", day: "numeric", month: "long", year: new Date(ms).getFullYear() === new Date(now).getFullYear() ? undefined : "numeric" });
}

export function dayKey(ms: number): number {
  return startOfDay(new Date(ms));
}

export function fileSize(bytes: number, locale: string): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toLocaleString(locale, { maximumFractionDigits: v < 10 ? 1 : 0 })} ${units[i]}`;
}

/** Splits text into plain parts and links (http, https, www). */
export function linkify(text: string): Array<{ text: string; href?: string }> {
  const out: Array<{ text: string; href?: string }> = [];
  const re = /\b((?:https?:\/\/|www\.)[^\s<]+[^\s<.,;:!?)\]'"])/gi;
  let last = 0;
  for (const m of text.matchAll(re)) {
    const i = m.index ?? 0;
    if (i > last) out.push({ text: text.slice(last, i) });
    out.push({ text: m[0], href: m[0].startsWith("www.") ? `https://${m[0]}` : m[0] });
    last = i + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}

/**
 * Who wrote a group message, as the chat shows it above the bubble: the member's name, else
 * their number, else their id on the channel without its domain ("5511…@s.whatsapp.net").
 */
export function memberName(p: { externalId: string; name?: string; phone?: string } | null | undefined): string | null {
  if (!p) return null;
  return p.name?.trim() || p.phone?.trim() || p.externalId.split("@")[0] || null;
}

/**
 * A failed message's reason as the agent reads it: a catalogue code translated by `line`, with
 * the provider's own words after it when the channel gave them ("ERR_WABA_SEND_REFUSED: 131026
 * Message undeliverable" → "<translated> (131026 Message undeliverable)"); free text as it is.
 */
export function failureLine(reason: string | null | undefined, line: (code: string) => string | null): string | null {
  if (!reason) return null;
  const m = /^(ERR_[A-Z0-9_]+)(?::\s*([\s\S]+))?$/.exec(reason);
  if (!m) return reason;
  // A code the catalogue does not know (yet) shows as it is.
  const text = line(m[1]!) ?? m[1]!;
  return m[2] ? `${text} (${m[2]})` : text;
}
