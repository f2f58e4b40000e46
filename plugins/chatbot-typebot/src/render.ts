/**
 * What Typebot answers, as a channel's customer reads it (INTEGRATIONS.md §1.4):
 *
 * - a text bubble's richText (a Slate tree: paragraphs, leaves with bold/italic/strikethrough,
 *   links, inline variables, lists) or markdown becomes WhatsApp-style text: *bold*, _italic_,
 *   ~strike~, a link as "text (url)";
 * - image, video and audio bubbles are media (sent as files when reachable, else their URL);
 *   an embed is its URL;
 * - a choice input is a numbered menu, and a customer's number maps back to the choice's
 *   content (what Typebot matches a reply against).
 */
import type { ChatBubble, ChatInput, ChatResponse } from "./typebot-client";

type Node = { type?: string; text?: string; url?: string; bold?: boolean; italic?: boolean; strikethrough?: boolean; underline?: boolean; code?: boolean; children?: Node[] };

const BLOCKS = new Set(["p", "paragraph", "h1", "h2", "h3", "blockquote", "li", "lic", "ul", "ol", "variable"]);

function wrap(s: string, mark: string): string {
  // A mark around spaces is not a mark in WhatsApp: keep them outside it.
  const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(s)!;
  return m[2] ? `${m[1]}${mark}${m[2]}${mark}${m[3]}` : s;
}

function leaf(n: Node): string {
  let s = n.text ?? "";
  if (!s) return s;
  if (n.code) s = wrap(s, "```");
  if (n.bold) s = wrap(s, "*");
  if (n.italic) s = wrap(s, "_");
  if (n.strikethrough) s = wrap(s, "~");
  return s;
}

function inline(nodes: Node[] | undefined): string {
  return (nodes ?? []).map(node).join("");
}

function node(n: Node): string {
  if (!n || typeof n !== "object") return "";
  if (n.type === "a") {
    const label = inline(n.children).trim();
    if (!n.url) return label;
    return !label || label === n.url ? n.url : `${label} (${n.url})`;
  }
  if (n.type === "ul" || n.type === "ol") {
    return (n.children ?? []).map((li, i) => `${n.type === "ol" ? `${i + 1}.` : "•"} ${blocks(li.children ?? [li]).trim()}`).join("\n");
  }
  if (n.children) {
    // An inline variable holds its value as paragraphs: read them inline.
    return n.children.some((c) => c.type && BLOCKS.has(c.type)) ? blocks(n.children) : inline(n.children);
  }
  return leaf(n);
}

function blocks(nodes: Node[]): string {
  return nodes.map(node).join("\n");
}

/** A richText value (Slate nodes) as WhatsApp-style text. */
export function richTextToText(richText: unknown): string {
  const nodes = Array.isArray(richText) ? (richText as Node[]) : [];
  return blocks(nodes).replace(/\n{3,}/g, "\n\n").trim();
}

/** Typebot's markdown as WhatsApp-style text: **b** → *b*, *i* / _i_ → _i_, ~~s~~ → ~s~, [t](u) → t (u). */
export function markdownToText(md: string): string {
  const BOLD = "\u0000";
  // Escaped marks are literal: set aside before the marks are read, put back at the end.
  const literal: string[] = [];
  return md
    .replace(/\\([*_~`[\]()#>+\-.!\\])/g, (_, c: string) => `\u0001${literal.push(c) - 1}\u0001`)
    .replace(/\[([^\]]*)\]\(([^)\s]+)\)/g, (_, t: string, u: string) => (!t || t === u ? u : `${t} (${u})`))
    .replace(/\*\*([^*\n]+)\*\*|__([^_\n]+)__/g, (_, a?: string, b?: string) => `${BOLD}${a ?? b}${BOLD}`)
    .replace(/(^|[^\w*])\*([^*\n]+)\*(?!\w)/g, "$1_$2_")
    .replace(/~~([^~\n]+)~~/g, "~$1~")
    .split(BOLD)
    .join("*")
    .replace(/\u0001(\d+)\u0001/g, (_, i: string) => literal[Number(i)])
    .trim();
}

export type Outgoing = { kind: "text"; text: string } | { kind: "media"; url: string; media: "image" | "video" | "audio" | "file"; bubbleId: string };

/** A bubble as what goes to the customer (null: nothing to send). */
export function bubbleOut(b: ChatBubble): Outgoing | null {
  const c = (b.content ?? {}) as Record<string, unknown>;
  if (b.type === "text") {
    const text = c.type === "markdown" ? markdownToText(String(c.markdown ?? "")) : richTextToText(c.richText);
    return text ? { kind: "text", text } : null;
  }
  if (b.type === "image" || b.type === "audio" || b.type === "file") {
    return typeof c.url === "string" && c.url ? { kind: "media", media: b.type, url: c.url, bubbleId: b.id } : null;
  }
  if (b.type === "video") {
    if (typeof c.url !== "string" || !c.url) return null;
    // A YouTube, Vimeo… video is a page, not a file: its link.
    const hosted = typeof c.type === "string" && c.type !== "url";
    return hosted ? { kind: "text", text: c.url } : { kind: "media", media: "video", url: c.url, bubbleId: b.id };
  }
  if (b.type === "embed" || b.type === "custom-embed") return typeof c.url === "string" && c.url ? { kind: "text", text: c.url } : null;
  return null;
}

export interface MenuChoice {
  n: number;
  /** What Typebot matches the reply against (the item's content, or its value). */
  reply: string;
  label: string;
}

/** The choices of a choice (or picture choice) input, numbered from 1; empty for any other input. */
export function choicesOf(input: ChatInput | null | undefined): MenuChoice[] {
  if (!input || (input.type !== "choice input" && input.type !== "picture choice input")) return [];
  return (input.items ?? [])
    .map((it) => ({ label: String(it.content ?? it.title ?? it.value ?? "").trim(), reply: String(it.content ?? it.title ?? it.value ?? it.id) }))
    .filter((x) => x.label)
    .map((x, i) => ({ n: i + 1, ...x }));
}

/** The numbered menu the customer answers with a number (or the choice's text). */
export function menuText(choices: MenuChoice[]): string {
  return choices.map((c) => `*${c.n}* - ${c.label}`).join("\n");
}

/** The customer's answer as Typebot should read it: a menu number becomes the choice's content. */
export function mapReply(text: string, choices: MenuChoice[] | null | undefined): string {
  const t = text.trim();
  if (!choices?.length) return t;
  const byNumber = /^\d{1,3}$/.test(t) ? choices.find((c) => c.n === Number(t)) : undefined;
  if (byNumber) return byNumber.reply;
  const byText = choices.find((c) => c.label.toLowerCase() === t.toLowerCase());
  return byText ? byText.reply : t;
}

/** Typebot's default retry text (bot-engine defaultSystemMessages.invalidMessage). */
export const TYPEBOT_INVALID_MESSAGE = "Invalid message. Please, try again.";

/**
 * True when the answer is Typebot's retry of the input it was waiting for: one text bubble
 * whose id is the input block's id (or its default retry text), and the same input again.
 */
export function isRetry(r: ChatResponse, waitingInputId: string | null): boolean {
  if (!r.input || r.messages.length !== 1 || r.messages[0].type !== "text") return false;
  if (r.messages[0].id === r.input.id && (!waitingInputId || waitingInputId === r.input.id)) return true;
  const out = bubbleOut(r.messages[0]);
  return out?.kind === "text" && out.text === TYPEBOT_INVALID_MESSAGE;
}

/** The flow ended: nothing waits for the customer's answer. */
export function isEnd(r: ChatResponse): boolean {
  return !r.input && !(r.clientSideActions ?? []).some((a) => a.expectsDedicatedReply);
}
