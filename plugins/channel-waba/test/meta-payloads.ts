/**
 * Meta's webhook payloads as the Cloud API sends them (WHATSAPP.md §2.1), and the way Meta
 * puts them on the wire: JSON with every non-ASCII character escaped as \uXXXX and "/" as
 * "\/", signed with `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(body, app secret)>`.
 */
import { createHmac, randomBytes } from "node:crypto";

/** JSON as Meta writes it (PHP's json_encode defaults): non-ASCII as \uXXXX, slashes escaped. */
export function metaJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\//g, "\\/")
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

export function metaSignature(body: string | Buffer, appSecret: string): string {
  return `sha256=${createHmac("sha256", appSecret).update(body).digest("hex")}`;
}

export const newWamid = () => `wamid.HBgN${randomBytes(18).toString("base64url")}`;
const nowSeconds = () => String(Math.floor(Date.now() / 1000));

export interface Customer {
  waId: string;
  name: string;
}

export function envelope(entries: Array<{ wabaId: string; changes: Array<{ field?: string; value: Record<string, unknown> }> }>): Record<string, unknown> {
  return { object: "whatsapp_business_account", entry: entries.map((e) => ({ id: e.wabaId, changes: e.changes.map((c) => ({ field: c.field ?? "messages", value: c.value })) })) };
}

/** The value of a "messages" change for one phone number. */
export function messagesValue(pnid: string, parts: { contacts?: Customer[]; messages?: unknown[]; statuses?: unknown[]; errors?: unknown[] }): Record<string, unknown> {
  return {
    messaging_product: "whatsapp",
    metadata: { display_phone_number: `1555${pnid.slice(-7)}`, phone_number_id: pnid },
    ...(parts.contacts ? { contacts: parts.contacts.map((c) => ({ profile: { name: c.name }, wa_id: c.waId })) } : {}),
    ...(parts.messages ? { messages: parts.messages } : {}),
    ...(parts.statuses ? { statuses: parts.statuses } : {}),
    ...(parts.errors ? { errors: parts.errors } : {}),
  };
}

export function textMessage(from: Customer, body: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { from: from.waId, id: newWamid(), timestamp: nowSeconds(), type: "text", text: { body }, ...extra };
}

export function mediaMessage(from: Customer, type: "image" | "document" | "audio" | "video" | "sticker", media: { id: string; mime_type: string; caption?: string; filename?: string }): Record<string, unknown> {
  return { from: from.waId, id: newWamid(), timestamp: nowSeconds(), type, [type]: { sha256: "x", ...media } };
}

export function reactionMessage(from: Customer, messageId: string, emoji: string): Record<string, unknown> {
  return { from: from.waId, id: newWamid(), timestamp: nowSeconds(), type: "reaction", reaction: { message_id: messageId, ...(emoji ? { emoji } : {}) } };
}

export function buttonReply(from: Customer, id: string, title: string, contextId?: string): Record<string, unknown> {
  return { from: from.waId, id: newWamid(), timestamp: nowSeconds(), type: "interactive", interactive: { type: "button_reply", button_reply: { id, title } }, ...(contextId ? { context: { from: "15550000000", id: contextId } } : {}) };
}

export function listReply(from: Customer, id: string, title: string, description?: string): Record<string, unknown> {
  return { from: from.waId, id: newWamid(), timestamp: nowSeconds(), type: "interactive", interactive: { type: "list_reply", list_reply: { id, title, ...(description ? { description } : {}) } } };
}

export function status(id: string, recipient: string, st: "sent" | "delivered" | "read" | "failed", opts: { timestamp?: number; errors?: Array<{ code: number; title: string; message?: string }> } = {}): Record<string, unknown> {
  return {
    id,
    status: st,
    timestamp: String(opts.timestamp ?? Math.floor(Date.now() / 1000)),
    recipient_id: recipient,
    ...(st !== "failed" ? { pricing: { billable: true, pricing_model: "PMP", category: "service" } } : {}),
    ...(opts.errors ? { errors: opts.errors.map((e) => ({ ...e, message: e.message ?? e.title, error_data: { details: e.title } })) } : {}),
  };
}
