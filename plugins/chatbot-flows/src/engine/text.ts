/**
 * What the bot writes and how it reads what the customer wrote (unit-tested in ./text.test.ts):
 * the placeholders of its texts, the numbered menu a channel without buttons or lists gets, and
 * the comparison of an answer with a menu option or an auto-reply key (trimmed, case- and
 * accent-insensitive).
 */
import type { MenuOption, NodeData } from "../model";

/** What the placeholders of a flow's text stand for. */
export interface TextValues {
  /** The contact's first name (the first word of its name). */
  name: string;
  /** The ticket's protocol ("" when it has none). */
  protocol: string;
  /** The session's variables (question answers saved to `var.<name>`). */
  vars: Record<string, string>;
}

/** The first name a text calls the contact by: the first word of the name. */
export function firstNameOf(name: string | null | undefined): string {
  return (name ?? "").trim().split(/\s+/)[0] ?? "";
}

/**
 * Fills `{{name}}`, `{{protocol}}` and `{{var.<name>}}` (any case for name and protocol, spaces
 * allowed inside the braces). A variable never set is empty; anything else in braces stays as
 * written, so a text that means braces keeps them.
 */
export function fillText(text: string, v: TextValues): string {
  return text.replace(/\{\{\s*(name|protocol|var\.([A-Za-z0-9_-]{1,64}))\s*\}\}/gi, (_m, key: string, varName: string | undefined) => {
    if (varName !== undefined) return Object.prototype.hasOwnProperty.call(v.vars, varName) ? v.vars[varName] : "";
    return key.toLowerCase() === "name" ? v.name : v.protocol;
  });
}

/** Lower case, no accents, inner spaces collapsed, trimmed: how answers are compared. */
export function normalise(s: string): string {
  return s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();
}

type MenuData = Extract<NodeData, { type: "menu" }>;

/** A menu's options in the order they are numbered: the buttons, or the list's rows section by section. */
export function menuOptions(menu: Pick<MenuData, "style" | "options" | "sections">): MenuOption[] {
  if (menu.style === "list") return menu.sections.flatMap((s) => s.rows);
  return menu.options;
}

/**
 * The menu as text: title, text, then one line per option ("1 — Vendas", with its description
 * after a dash), a list's section titles above their rows, then the footer. Empty parts are left
 * out. Placeholders are filled by `fill`.
 */
export function renderMenu(menu: Pick<MenuData, "style" | "title" | "text" | "footer" | "options" | "sections">, fill: (s: string) => string = (s) => s): string {
  const head = [menu.title, menu.text].map((s) => fill(s ?? "").trim()).filter(Boolean);
  const lines: string[] = [];
  let n = 0;
  const line = (o: MenuOption) => {
    n++;
    const desc = o.description?.trim() ? ` - ${fill(o.description.trim())}` : "";
    return `${n} — ${fill(o.title)}${desc}`;
  };
  if (menu.style === "list") {
    for (const s of menu.sections) {
      if (!s.rows.length) continue;
      if (s.title.trim()) lines.push(`*${fill(s.title.trim())}*`);
      for (const o of s.rows) lines.push(line(o));
    }
  } else {
    for (const o of menu.options) lines.push(line(o));
  }
  const footer = fill(menu.footer ?? "").trim();
  return [head.join("\n"), lines.join("\n"), footer].filter(Boolean).join("\n\n");
}

/**
 * The option an answer picks: its number ("2", "2.", "2)", " 2 "), or its title compared
 * normalised; null when it picks none.
 */
export function pickOption(options: MenuOption[], answer: string): MenuOption | null {
  const a = normalise(answer);
  if (!a) return null;
  const num = /^(\d{1,3})\s*[.)-]?$/.exec(a);
  if (num) {
    const i = Number(num[1]) - 1;
    if (i >= 0 && i < options.length) return options[i];
  }
  return options.find((o) => normalise(o.title) === a) ?? null;
}

/** Does the customer's answer equal an auto-reply action's key (normalised on both sides)? */
export function keyMatches(key: string, answer: string): boolean {
  const k = normalise(key);
  return k !== "" && k === normalise(answer);
}

/** A phone number's digits, for comparing a contact's number with a flow's test phone. */
export function digitsOf(s: string | null | undefined): string {
  return (s ?? "").replace(/\D/g, "");
}

/**
 * Is `number` the test phone? Digits compared, and a number written without its country code
 * matches the same number with it (the test phone "11 98765-4321" is the contact 5511987654321).
 */
export function isTestPhone(testPhone: string, number: string | null | undefined): boolean {
  const t = digitsOf(testPhone);
  const n = digitsOf(number);
  if (!t || !n) return false;
  if (t === n) return true;
  const [short, long] = t.length < n.length ? [t, n] : [n, t];
  return short.length >= 8 && long.endsWith(short);
}
