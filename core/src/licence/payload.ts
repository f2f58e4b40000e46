/**
 * A licence's payload as token.ts reads it: the exact set of fields, each checked (dates with
 * a zone, a canonical domain with an optional "*." wildcard, a valid CPF/CNPJ, a known tier),
 * and how a licence domain covers the host an installation answers for.
 */
import { domainToASCII } from "node:url";
import { isValidDocument, normaliseDocument } from "./document";
import { isTier } from "./tiers";
import type { LicencePayload } from "./token";

const PAYLOAD_KEYS: ReadonlySet<string> = new Set([
  "lid",
  "tier",
  "expiresAt",
  "domain",
  "document",
  "tenantId",
  "issuedAt",
  "maxUsers",
  "maxConnections",
  "issuer",
]);

const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;

/** Epoch ms of a full ISO 8601 date-time with a zone (Z or ±hh:mm), or undefined. */
export function parseIsoDateTime(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const m = ISO_DATE_TIME.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > daysInMonth) return undefined;
  if (m[7] !== undefined && (Number(m[7]) > 23 || Number(m[8]) > 59)) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** Lower-case ASCII (punycode) hostname without a trailing dot, or undefined if not a hostname. */
function asciiHostname(raw: string): string | undefined {
  const trimmed = raw.trim().replace(/\.$/, "");
  if (trimmed === "" || trimmed.length > 253) return undefined;
  const ascii = domainToASCII(trimmed).toLowerCase();
  if (ascii === "" || ascii.length > 253) return undefined;
  return ascii.split(".").every((l) => LABEL.test(l)) ? ascii : undefined;
}

/**
 * Licence domain in canonical form: lower-case hostname, optionally "*." followed by a
 * hostname of at least two labels. undefined when not acceptable.
 */
function normaliseLicenceDomain(raw: unknown): string | undefined {
  if (typeof raw !== "string") return undefined;
  const text = raw.trim();
  if (text.startsWith("*.")) {
    const rest = asciiHostname(text.slice(2));
    return rest && rest.includes(".") ? `*.${rest}` : undefined;
  }
  return asciiHostname(text);
}

/**
 * The host an installation answers for, as given by a caller (e.g. a Host header): case, a
 * trailing dot and a ":port" are ignored. undefined when unusable. IPv6 literals are never
 * usable, since a licence domain cannot be one.
 */
export function normaliseRequestHost(raw: string): string | undefined {
  const m = /^([^:]*)(?::(\d{1,5}))?$/.exec(raw.trim());
  return m ? asciiHostname(m[1]!) : undefined;
}

/** Does the licence domain (canonical form) cover the host? "*.x.y" covers exactly one extra label. */
export function domainMatches(licenceDomain: string, host: string): boolean {
  if (licenceDomain.startsWith("*.")) {
    const base = licenceDomain.slice(2);
    if (!host.endsWith(`.${base}`)) return false;
    const label = host.slice(0, host.length - base.length - 1);
    return label.length > 0 && !label.includes(".");
  }
  return licenceDomain === host;
}

function isNonNegativeInt(x: unknown): x is number {
  return typeof x === "number" && Number.isSafeInteger(x) && x >= 0;
}

type PayloadResult = { ok: true; payload: LicencePayload } | { ok: false; reason: string };

/**
 * Checks a candidate payload and returns it in canonical form (document as digits, domain in
 * lower case, only known keys, fixed key order). With `strict`, unknown keys are refused too.
 */
export function checkPayload(input: unknown, strict: boolean): PayloadResult {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { ok: false, reason: "payload is not an object" };
  }
  const p = input as Record<string, unknown>;
  if (strict) {
    const unknown = Object.keys(p).filter((k) => !PAYLOAD_KEYS.has(k));
    if (unknown.length > 0) return { ok: false, reason: `unknown payload field(s): ${unknown.join(", ")}` };
  }

  const lid = p.lid;
  if (typeof lid !== "string" || lid.trim() === "" || lid.length > 200 || lid !== lid.trim()) {
    return { ok: false, reason: "lid must be a non-empty string (max 200 characters, no surrounding spaces)" };
  }
  if (!isTier(p.tier)) return { ok: false, reason: `unknown tier: ${JSON.stringify(p.tier) ?? "undefined"}` };
  const issuedAt = parseIsoDateTime(p.issuedAt);
  if (issuedAt === undefined) return { ok: false, reason: "issuedAt must be an ISO 8601 date-time with a time zone" };
  const expiresAt = parseIsoDateTime(p.expiresAt);
  if (expiresAt === undefined) return { ok: false, reason: "expiresAt must be an ISO 8601 date-time with a time zone" };
  if (expiresAt <= issuedAt) return { ok: false, reason: "expiresAt must be after issuedAt" };
  const domain = normaliseLicenceDomain(p.domain);
  if (domain === undefined) {
    return { ok: false, reason: 'domain must be a hostname, optionally starting with "*."' };
  }
  if (typeof p.document !== "string" || !isValidDocument(p.document)) {
    return { ok: false, reason: "document must be a valid CPF or CNPJ" };
  }
  if (p.tenantId !== undefined && !(isNonNegativeInt(p.tenantId) && p.tenantId > 0)) {
    return { ok: false, reason: "tenantId must be a positive integer" };
  }
  if (p.maxUsers !== undefined && !isNonNegativeInt(p.maxUsers)) {
    return { ok: false, reason: "maxUsers must be a non-negative integer" };
  }
  if (p.maxConnections !== undefined && !isNonNegativeInt(p.maxConnections)) {
    return { ok: false, reason: "maxConnections must be a non-negative integer" };
  }
  if (typeof p.issuer !== "string" || p.issuer.trim() === "" || p.issuer.length > 200) {
    return { ok: false, reason: "issuer must be a non-empty string (max 200 characters)" };
  }

  const payload: LicencePayload = {
    lid,
    tier: p.tier,
    expiresAt: p.expiresAt as string,
    domain,
    document: normaliseDocument(p.document),
    ...(p.tenantId !== undefined ? { tenantId: p.tenantId as number } : {}),
    issuedAt: p.issuedAt as string,
    ...(p.maxUsers !== undefined ? { maxUsers: p.maxUsers as number } : {}),
    ...(p.maxConnections !== undefined ? { maxConnections: p.maxConnections as number } : {}),
    issuer: p.issuer,
  };
  return { ok: true, payload };
}
