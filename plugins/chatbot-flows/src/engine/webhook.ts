/**
 * A webhook node's call (spec §3 "Webhook fields"): the fields the node chose, sent as JSON
 * (POST, PUT) or as the query (GET) to the admin's URL through safeFetch, so the outbound URL
 * policy decides where it may go (private and loopback addresses refused unless the platform's
 * allow-list names them; every redirect hop checked again). A refused URL, a network failure, a
 * timeout or an answer outside 2xx is an error: the node follows its "error" handle.
 */
import { OutboundUrlError, safeFetch } from "@openatende/plugin-sdk";
import type { WebhookField } from "../model";

/** How long the bot waits for a webhook's answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** What each webhook field stands for in one conversation. */
export interface WebhookValues {
  /** The contact's name. */
  name: string;
  /** "Bom dia", "Boa tarde" or "Boa noite" by the hour in the tenant's time zone. */
  greeting: string;
  protocol: string | null;
  email: string | null;
  phoneNumber: string | null;
  /** The ticket's tags (the board lanes of the contact), by name. */
  kanban: string[];
  /** The ticket's user's name (null: no user yet, as in a bot's ticket). */
  user: string | null;
  /** The ticket's user's e-mail; the core API does not give users' e-mails, so null. */
  userEmail: string | null;
}

/** The greeting for an instant in a time zone: morning from 05:00, afternoon from 12:00, evening from 18:00. */
export function greetingAt(at: number, timeZone: string): string {
  let hour: number;
  try {
    hour = Number(new Intl.DateTimeFormat("en-GB", { hour: "2-digit", hourCycle: "h23", timeZone }).format(at));
  } catch {
    hour = new Date(at).getUTCHours();
  }
  if (hour >= 5 && hour < 12) return "Bom dia";
  if (hour >= 12 && hour < 18) return "Boa tarde";
  return "Boa noite";
}

/** The body of the call: the chosen fields, plus which ticket and flow it is about. */
export function webhookPayload(fields: WebhookField[], values: WebhookValues, about: { ticketId: number; flowId: number }): Record<string, unknown> {
  const out: Record<string, unknown> = { ticketId: about.ticketId, flowId: about.flowId };
  for (const f of fields) if (Object.prototype.hasOwnProperty.call(values, f)) out[f] = values[f];
  return out;
}

export type WebhookOutcome = { ok: true; status: number } | { ok: false; detail: string };

/** Query values of a GET: arrays joined by commas, null as empty. */
function queryOf(url: URL, payload: Record<string, unknown>): URL {
  const u = new URL(url);
  for (const [k, v] of Object.entries(payload)) u.searchParams.set(k, Array.isArray(v) ? v.join(",") : v === null || v === undefined ? "" : String(v));
  return u;
}

/** Calls the node's URL under the outbound policy (`allow`: the platform's allow-list). Never throws. */
export async function callWebhook(
  node: { url: string; method: "POST" | "PUT" | "GET"; headers?: Record<string, string> },
  payload: Record<string, unknown>,
  allow: string[] | undefined,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
): Promise<WebhookOutcome> {
  let url: URL;
  try {
    url = new URL(node.url);
  } catch {
    return { ok: false, detail: "invalid URL" };
  }
  const headers: Record<string, string> = { ...(node.headers ?? {}), accept: "application/json" };
  const get = node.method === "GET";
  if (!get) headers["content-type"] = "application/json";
  try {
    const res = await safeFetch(get ? queryOf(url, payload) : url, { method: node.method, headers, body: get ? undefined : JSON.stringify(payload), signal: AbortSignal.timeout(timeoutMs) }, { allow });
    await res.body?.cancel().catch(() => undefined); // the answer's content is not used
    return res.ok ? { ok: true, status: res.status } : { ok: false, detail: `HTTP ${res.status}` };
  } catch (err) {
    if (err instanceof OutboundUrlError) return { ok: false, detail: `ERR_URL_NOT_ALLOWED: ${err.message}` };
    const e = err as Error;
    return { ok: false, detail: e.name === "TimeoutError" ? `no answer in ${timeoutMs} ms` : e.message || String(err) };
  }
}
