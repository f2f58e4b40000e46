/**
 * What the plugin needs around telegraf's Bot API client: the connection's settings read
 * safely, a client per bot, the webhook secret, and Telegram's errors sorted into what to do
 * about them (stop, retry later, wait `retry_after`, give up on this one update).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { Telegram, TelegramError } from "telegraf";
import type { OutboundAgents } from "@openatende/plugin-sdk";

export const DEFAULT_API_ROOT = "https://api.telegram.org";
/** Telegram sends the secret given to setWebhook in this header on every webhook call. */
export const SECRET_HEADER = "x-telegram-bot-api-secret-token";
/** Bot tokens as BotFather issues them: the bot's numeric id, a colon, 35 url-safe characters. */
export const BOT_TOKEN_PATTERN = /^\d{3,}:[A-Za-z0-9_-]{30,}$/;
/** The only update kind the plugin asks for: new messages (edits, polls, callbacks are not tickets). */
export const ALLOWED_UPDATES = ["message"] as const;

export type Mode = "webhook" | "polling";

export interface TelegramSettings {
  token: string;
  mode: Mode;
  apiRoot: string;
}

/** The stored settings of a connection, or why they cannot be used. */
export function readSettings(raw: Record<string, unknown> | undefined | null): { ok: true; settings: TelegramSettings } | { ok: false; detail: string } {
  const s = raw ?? {};
  const token = typeof s.token === "string" ? s.token.trim() : "";
  if (!BOT_TOKEN_PATTERN.test(token)) return { ok: false, detail: "The bot token is missing or malformed (expected <bot id>:<secret> from @BotFather)" };
  const mode: Mode = s.mode === "webhook" ? "webhook" : "polling";
  const apiRoot = typeof s.apiRoot === "string" && s.apiRoot.trim() ? s.apiRoot.trim().replace(/\/+$/, "") : DEFAULT_API_ROOT;
  if (!/^https?:\/\/[^\s]+$/i.test(apiRoot)) return { ok: false, detail: `apiRoot must be an http(s) URL (got ${JSON.stringify(apiRoot)})` };
  return { ok: true, settings: { token, mode, apiRoot } };
}

/**
 * A Bot API client for the settings; never answers through a webhook response. The apiRoot
 * is the tenant's: with `agents` (the SDK's outboundAgents, the platform's URL policy) every
 * socket it opens goes to an address the policy accepts.
 */
export function clientFor(settings: Pick<TelegramSettings, "token" | "apiRoot">, agents?: OutboundAgents): Telegram {
  const telegram = new Telegram(settings.token, { apiRoot: settings.apiRoot, webhookReply: false });
  // Set after construction: telegraf drops `agent` for an http:// apiRoot. node-fetch takes a
  // function of the URL, which also gives a redirect to the other protocol its agent.
  if (agents) (telegram.options as { agent?: unknown }).agent = (u: { protocol?: string | null }) => agents.for(u);
  return telegram;
}

/**
 * The webhook's secret_token, derived from the bot token and the connection's public token:
 * unguessable without the bot token, the same after a restart (nothing to store), and a new
 * one whenever the bot token changes. Telegram allows 1-256 characters of A-Z a-z 0-9 _ -.
 */
export function webhookSecret(botToken: string, connectionToken: string): string {
  return createHmac("sha256", botToken).update(`openatende:telegram-webhook:${connectionToken}`).digest("base64url");
}

export function sameSecret(got: string | undefined, expected: string): boolean {
  if (typeof got !== "string") return false;
  const a = Buffer.from(got);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function webhookUrl(publicUrl: string, connectionToken: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/api/telegram/${encodeURIComponent(connectionToken)}/webhook`;
}

export type Failure =
  /** The token is wrong or revoked (401, 404 on a malformed token): nothing works until it changes. */
  | { kind: "unauthorized"; detail: string }
  /** Another getUpdates client or a webhook holds the bot (409). */
  | { kind: "conflict"; detail: string }
  /** Flood control (429): wait `retryAfterMs`, then the same call may succeed. */
  | { kind: "rate"; detail: string; retryAfterMs: number }
  /** Telegram refused this call (400, 403): retrying the same call will not help. */
  | { kind: "refused"; detail: string; code: number }
  /** Telegram or the network failed (5xx, connection refused, timeout): try again later. */
  | { kind: "unavailable"; detail: string }
  | { kind: "aborted"; detail: string };

/** Sorts an error from telegraf (or from fetch under it) by what the caller should do. */
export function classify(err: unknown): Failure {
  if (err instanceof TelegramError) {
    const code = err.code;
    const detail = `${err.description ?? "error"} (${code})`;
    if (code === 401 || code === 404) return { kind: "unauthorized", detail };
    if (code === 409) return { kind: "conflict", detail };
    if (code === 429) return { kind: "rate", detail, retryAfterMs: Math.max(0, Number(err.parameters?.retry_after ?? 1)) * 1000 };
    if (code >= 500) return { kind: "unavailable", detail };
    return { kind: "refused", detail, code };
  }
  const e = err as { name?: string; type?: string; code?: string; message?: string };
  if (e?.name === "AbortError" || e?.type === "aborted") return { kind: "aborted", detail: "aborted" };
  // The message of a network error can carry the request URL, which carries the bot token.
  const detail = redact(e?.code ? `${e.code}: ${e.message ?? ""}` : (e?.message ?? String(err)));
  return { kind: "unavailable", detail: `Bot API unreachable: ${detail}` };
}

/** Hides bot tokens in texts that go to logs, statuses and failure reasons. */
export function redact(text: string): string {
  return text.replace(/\d{3,}:[A-Za-z0-9_-]{30,}/g, "<token>");
}
