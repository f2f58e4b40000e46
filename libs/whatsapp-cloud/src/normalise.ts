/**
 * One "messages" change of a webhook, as what the plugin does with each part of it:
 * messages become inbound drafts (a file by its media id, downloaded later), reactions become
 * changes of the reacted message, statuses become acks (failed with Meta's code and title),
 * value-level errors are logged. Pure: no I/O here.
 */
import type { AckStatus, InboundMessage } from "@openatende/plugin-sdk";
import { failureReason } from "./failures";
import { WABA_CODES } from "./provider";

export type InboundDraft = Omit<InboundMessage, "tenantId" | "connectionId">;

/** A received file, known by its media id until it is downloaded. */
export interface MediaToFetch {
  id: string;
  mimeType: string;
  fileName?: string;
}

export type Action =
  | { kind: "message"; draft: InboundDraft; media?: MediaToFetch }
  | { kind: "reaction"; targetId: string; emoji: string; by: string; timestamp: number }
  | { kind: "ack"; providerMessageId: string; status: AckStatus; reason?: string; timestamp: number; recipient?: string }
  | { kind: "error"; code: number; title: string; detail?: string }
  | { kind: "skip"; reason: string };

const MEDIA_TYPES = ["image", "video", "audio", "document", "sticker"] as const;
const ACKS: Record<string, AckStatus> = { sent: "sent", delivered: "delivered", read: "read", failed: "failed" };

const s = (v: unknown): string | undefined => (typeof v === "string" && v ? v : typeof v === "number" ? String(v) : undefined);
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** Meta's unix seconds (a string) as ms; now when missing. */
export function msOf(ts: unknown): number {
  const n = Number(ts);
  return Number.isFinite(n) && n > 0 ? Math.round(n * 1000) : Date.now();
}

function extFor(mime: string): string {
  const sub = mime.split(";")[0].split("/")[1] ?? "bin";
  return { jpeg: "jpg", mpeg: "mp3", "vnd.openxmlformats-officedocument.wordprocessingml.document": "docx", plain: "txt" }[sub] ?? sub;
}

/** The body and extras of one inbound message by its type (reactions are handled apart). */
function content(m: Record<string, unknown>): { media?: MediaToFetch } & Pick<InboundDraft, "body" | "location" | "contactCard"> {
  const type = s(m.type) ?? "unknown";
  if (type === "text") return { body: s(obj(m.text).body) ?? "" };
  if ((MEDIA_TYPES as readonly string[]).includes(type)) {
    const o = obj(m[type]);
    const mimeType = s(o.mime_type) ?? "application/octet-stream";
    const fileName = s(o.filename) ?? `${type}-${s(o.id) ?? "file"}.${extFor(mimeType)}`;
    const id = s(o.id);
    return { body: s(o.caption) ?? "", ...(id ? { media: { id, mimeType, fileName } } : {}) };
  }
  if (type === "location") {
    const l = obj(m.location);
    const latitude = Number(l.latitude);
    const longitude = Number(l.longitude);
    const name = s(l.name);
    const text = [name, s(l.address)].filter(Boolean).join(" — ") || `${latitude}, ${longitude}`;
    return { body: `📍 ${text}`, ...(Number.isFinite(latitude) && Number.isFinite(longitude) ? { location: { latitude, longitude, ...(name ? { name } : {}) } } : {}) };
  }
  if (type === "contacts") {
    const c = obj((m.contacts as unknown[] | undefined)?.[0]);
    const name = s(obj(c.name).formatted_name) ?? s(obj(c.name).first_name) ?? "";
    const phone = s(obj((c.phones as unknown[] | undefined)?.[0]).phone) ?? s(obj((c.phones as unknown[] | undefined)?.[0]).wa_id);
    return { body: `👤 ${[name, phone].filter(Boolean).join(" ")}`.trim(), ...(name ? { contactCard: { name, ...(phone ? { phone } : {}) } } : {}) };
  }
  if (type === "interactive") {
    const i = obj(m.interactive);
    const reply = obj(i.button_reply ?? i.list_reply ?? i.nfm_reply);
    return { body: s(reply.title) ?? s(reply.body) ?? "" };
  }
  // A template's quick-reply button.
  if (type === "button") return { body: s(obj(m.button).text) ?? s(obj(m.button).payload) ?? "" };
  if (type === "order") return { body: `🛒 ${s(obj(m.order).text) ?? "order"}` };
  if (type === "system") return { body: s(obj(m.system).body) ?? "[system]" };
  const err = obj((m.errors as unknown[] | undefined)?.[0]);
  return { body: `[${type}${s(err.title) ? `: ${s(err.title)}` : ""}]` };
}

export function actionsOf(value: Record<string, unknown>, codes: string = WABA_CODES): Action[] {
  const out: Action[] = [];
  const names = new Map<string, string>();
  for (const c of (Array.isArray(value.contacts) ? value.contacts : []) as unknown[]) {
    const wa = s(obj(c).wa_id);
    const name = s(obj(obj(c).profile).name);
    if (wa && name) names.set(wa, name);
  }
  for (const raw of (Array.isArray(value.messages) ? value.messages : []) as unknown[]) {
    const m = obj(raw);
    const id = s(m.id);
    const from = s(m.from);
    if (!id || !from) {
      out.push({ kind: "skip", reason: "a message without id or sender" });
      continue;
    }
    const timestamp = msOf(m.timestamp);
    if (m.type === "reaction") {
      const r = obj(m.reaction);
      const target = s(r.message_id);
      if (target) out.push({ kind: "reaction", targetId: target, emoji: typeof r.emoji === "string" ? r.emoji : "", by: from, timestamp });
      else out.push({ kind: "skip", reason: `reaction ${id} names no message` });
      continue;
    }
    const { media, ...rest } = content(m);
    const name = names.get(from);
    const replyTo = s(obj(m.context).id);
    const draft: InboundDraft = {
      providerMessageId: id,
      timestamp,
      from: { externalId: from, phone: from, ...(name ? { name } : {}) },
      ...rest,
      ...(replyTo ? { replyToProviderId: replyTo } : {}),
    };
    out.push({ kind: "message", draft, ...(media ? { media } : {}) });
  }
  for (const raw of (Array.isArray(value.statuses) ? value.statuses : []) as unknown[]) {
    const st = obj(raw);
    const id = s(st.id);
    const status = ACKS[s(st.status) ?? ""];
    if (!id || !status) {
      out.push({ kind: "skip", reason: `status ${s(st.status) ?? "?"} of ${id ?? "?"}` });
      continue;
    }
    out.push({
      kind: "ack",
      providerMessageId: id,
      status,
      timestamp: msOf(st.timestamp),
      ...(status === "failed" ? { reason: failureReason(st.errors, codes) } : {}),
      ...(s(st.recipient_id) ? { recipient: s(st.recipient_id) } : {}),
    });
  }
  for (const raw of (Array.isArray(value.errors) ? value.errors : []) as unknown[]) {
    const e = obj(raw);
    out.push({ kind: "error", code: Number(e.code) || 0, title: s(e.title) ?? s(e.message) ?? "error", detail: s(obj(e.error_data).details) });
  }
  return out;
}

const RANK: Partial<Record<AckStatus, number>> = { sent: 1, delivered: 2, read: 3, played: 4 };

/**
 * The actions of a change without the statuses another status of the same change supersedes:
 * of a message's sent, delivered and read in one change only read goes (the core keeps the
 * furthest status and never moves one back, so the earlier ones would change nothing in the
 * end). A repeated status goes once; "failed" always goes (the core takes it only before any
 * device acknowledged, and decides that itself).
 */
export function withoutSupersededStatuses(actions: Action[]): Action[] {
  const furthest = new Map<string, Extract<Action, { kind: "ack" }>>();
  for (const a of actions) {
    if (a.kind !== "ack" || !RANK[a.status]) continue;
    const best = furthest.get(a.providerMessageId);
    if (!best || RANK[a.status]! > RANK[best.status]!) furthest.set(a.providerMessageId, a);
  }
  return actions.filter((a) => a.kind !== "ack" || !RANK[a.status] || furthest.get(a.providerMessageId) === a);
}
