/**
 * What every HTTP provider shares: telling a request that certainly sent nothing from one
 * that may have (the difference between "try again" and "never again" for a paid SMS), and
 * reading loosely-cased callback fields and dates.
 */
import { OutboundUrlError } from "@openatende/plugin-sdk";
import { ProviderError } from "./provider";

/** Socket errors raised before the request could reach the provider. */
const BEFORE_SENDING = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "ECONNABORTED", "CERT_HAS_EXPIRED", "DEPTH_ZERO_SELF_SIGNED_CERT", "ERR_TLS_CERT_ALTNAME_INVALID"]);

/**
 * A request that failed without an HTTP answer. Refused by the URL policy or by the socket
 * before connecting: nothing was sent ("unreachable"). A timeout or a connection cut while a
 * send was under way may have reached the provider ("uncertain"): a send never repeats it.
 */
export function failureOfRequest(err: unknown, sending: boolean, who: string): ProviderError {
  if (err instanceof OutboundUrlError) return new ProviderError("unreachable", `${who}: the address is not allowed (${err.message})`);
  const e = err as { name?: string; code?: string; cause?: { code?: string }; message?: string };
  const code = e?.code ?? e?.cause?.code ?? "";
  const timedOut = e?.name === "TimeoutError" || e?.name === "AbortError";
  const what = timedOut ? "did not answer in time" : `could not be reached (${code || e?.message || String(err)})`;
  if (!sending || (!timedOut && BEFORE_SENDING.has(code))) return new ProviderError("unreachable", `${who} ${what}`);
  return new ProviderError("uncertain", `${who} ${what}; the message may have been sent`);
}

/** An object's fields by lower-case name ("RequestUniqueId", "requestUniqueId" → "requestuniqueid"). */
export function readFields(value: unknown): Record<string, unknown> {
  if (!value || typeof value !== "object" || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k.toLowerCase(), v]));
}

/**
 * A provider's date as ms since the epoch: a number (seconds or ms) or a date text. A text
 * without a zone is Brasília time (UTC−3), where the Brazilian providers' panels live.
 */
export function timeOf(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isFinite(v) && v > 0) return v < 1e12 ? v * 1000 : v;
  if (typeof v !== "string" || !v.trim()) return undefined;
  const s = v.trim();
  if (/^\d+$/.test(s)) return timeOf(Number(s));
  const zoned = /([zZ]|[+-]\d{2}:?\d{2})$/.test(s) ? s : `${s.replace(" ", "T")}-03:00`;
  const t = Date.parse(zoned);
  return Number.isFinite(t) ? t : undefined;
}
