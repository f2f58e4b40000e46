/**
 * What the plugin's UI pieces share: the shapes the API answers, the status detail's key
 * (the contract with src/session/status-detail.ts: "[key] English sentence"), and small
 * formatting helpers.
 */
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";

export const PLUGIN_TYPE = "channel-whatsapp";

/** GET /connections and GET /connections/:id (admins see token, qrcode and statusDetail). */
export interface ConnectionRow {
  id: number;
  name: string;
  type: string;
  status: string;
  token?: string;
  qrcode?: string | null;
  statusDetail?: string | null;
}

/** GET /channel-whatsapp/health (src/session/health.ts), or the short answer for a session that runs nowhere. */
export interface Health {
  status: string;
  detail?: string;
  node: string | null;
  connectedAt?: number | null;
  lastEventAt?: number | null;
  lastInboundAt?: number | null;
  lastAckAt?: number | null;
  reconnects?: number;
  decryptionErrors?: number;
  decryptionErrorsLastHour?: number;
  inbound?: number;
  deafRebuilds?: number;
  qrRounds?: number;
  lastDisconnect?: { code: number | null; reason: string; at: number } | null;
  phone?: string | null;
}

/** The keys that open a status detail; the UI has a text for each (test/ui.test.ts checks the list). */
export const DETAIL_KEYS = [
  "connected",
  "connecting",
  "reconnecting",
  "stuck-connecting",
  "deaf",
  "qr",
  "qr-expired",
  "pairing-code",
  "linking",
  "logged-out",
  "banned",
  "conflict",
  "wa-version",
  "repair",
  "stopped",
  "settings",
  "storage",
] as const;

export function parseDetail(d: string | null | undefined): { key: (typeof DETAIL_KEYS)[number]; text: string } | null {
  const m = /^\[([a-z-]+)\](?: (.*))?$/s.exec(d ?? "");
  if (!m || !(DETAIL_KEYS as readonly string[]).includes(m[1])) return null;
  return { key: m[1] as (typeof DETAIL_KEYS)[number], text: m[2] ?? "" };
}

/** "K7QX2MPA" → "K7QX-2MPA", as WhatsApp shows the code on the phone. */
export function formatCode(code: string): string {
  const c = code.replace(/[^A-Za-z0-9]/g, "").toUpperCase();
  return c.length === 8 ? `${c.slice(0, 4)}-${c.slice(4)}` : c;
}

/** The code a "[pairing-code] ABCD-EFGH — …" detail carries. */
export function codeOfDetail(d: string | null | undefined): string | null {
  const p = parseDetail(d);
  if (p?.key !== "pairing-code") return null;
  const m = /^([A-Z0-9]{4}-?[A-Z0-9]{4})\b/i.exec(p.text);
  return m ? formatCode(m[1]) : null;
}

/** The account's number a "[connected] 5511999990000" detail carries, as +55 11 99999-0000-ish digits. */
export function phoneOfDetail(d: string | null | undefined): string | null {
  const p = parseDetail(d);
  if (p?.key !== "connected") return null;
  const m = /^\+?(\d{8,15})\b/.exec(p.text);
  return m ? `+${m[1]}` : null;
}

export function formatTime(ms: number | null | undefined, locale: string, never: string): string {
  if (!ms) return never;
  return new Intl.DateTimeFormat(locale, { dateStyle: "short", timeStyle: "medium" }).format(new Date(ms));
}

/** The tenant's WhatsApp connections (admins get their tokens). */
export async function whatsAppConnections(runtime: ShellRuntime): Promise<ConnectionRow[]> {
  const rows = await runtime.api.get<ConnectionRow[]>("/connections", { silent: true });
  return rows.filter((c) => c.type === PLUGIN_TYPE);
}

/** Field → message of an API error that names its field (data.field), mapped to the form's names. */
export function apiFieldError(err: unknown, fields: Record<string, string>): { field: string; message: string } | null {
  const e = err as { data?: { field?: unknown }; title?: string; detail?: string; message?: string };
  const raw = typeof e?.data?.field === "string" ? e.data.field : "";
  const base = raw.replace(/\[\d+\]$/, "");
  const field = fields[base];
  if (!field) return null;
  return { field, message: [e.title, e.detail].filter(Boolean).join(": ") || e.message || "" };
}
