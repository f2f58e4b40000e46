/**
 * Offline licence tokens, signed with Ed25519.
 *
 * Format:  OAL1.<base64url(JSON payload)>.<base64url(signature)>
 * The signature covers the ASCII bytes of "OAL1.<payload part>" exactly as they appear in the
 * token, so the payload is never re-serialised before checking.
 *
 * A licence is valid for one domain (a leading "*." wildcard allowed) and one CPF or CNPJ.
 * No valid licence means FREE: see effectiveTier().
 *
 * verifyLicence() never throws because of the token: anything that is not a well-formed,
 * correctly signed licence gives { ok: false, code: "ERR_LICENSE_INVALID" }. It does throw a
 * TypeError when the caller passes a bad publicKey or `now`, which are programming errors.
 */
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  KeyObject,
  sign as cryptoSign,
  verify as cryptoVerify,
} from "node:crypto";
import { domainToASCII } from "node:url";
import { isValidDocument, normaliseDocument } from "./document";
import { isTier, type Tier } from "./tiers";

export const LICENCE_TOKEN_PREFIX = "OAL1";
/** Tokens longer than this (in characters) are rejected without further work. */
export const MAX_LICENCE_TOKEN_LENGTH = 16 * 1024;

export interface LicencePayload {
  /** Licence id; the unit of blocking. */
  lid: string;
  tier: Tier;
  /** ISO 8601 date-time with a time zone; the licence is expired when expiresAt <= now. */
  expiresAt: string;
  /** Hostname the installation answers for, lower case; may start with "*.". */
  domain: string;
  /** CPF (11) or CNPJ (14) digits, no formatting. */
  document: string;
  /** Tenant the licence was issued for, if any. */
  tenantId?: number;
  /** ISO 8601 date-time with a time zone. */
  issuedAt: string;
  maxUsers?: number;
  maxConnections?: number;
  issuer: string;
}

export type LicenceErrorCode =
  | "ERR_LICENSE_INVALID"
  | "ERR_LICENSE_EXPIRED"
  | "ERR_LICENSE_BLOCKED"
  | "ERR_LICENSE_WRONG_DOMAIN"
  | "ERR_LICENSE_WRONG_CODE";

export type LicenceCheck =
  | { ok: true; payload: LicencePayload; tier: Tier }
  | { ok: false; code: LicenceErrorCode; reason: string; payload?: LicencePayload };

export interface VerifyLicenceOptions {
  publicKey: KeyObject;
  /** Defaults to the current time. */
  now?: Date;
  /** Host the installation is answering for; checked only when given. A port is ignored. */
  domain?: string;
  /** CPF/CNPJ the installation is registered to; checked only when given. Formatting ignored. */
  document?: string;
  /** Licence ids that must be refused. */
  blocklist?: Iterable<string>;
}

// ------------------------------------------------------------------------------------------
// Keys
// ------------------------------------------------------------------------------------------

/** A fresh Ed25519 key pair as PEM: SPKI public key, PKCS#8 private key. */
export function generateLicenceKeys(): { publicKeyPem: string; privateKeyPem: string } {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  return {
    publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
    privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  };
}

function pemLabel(text: string): string | undefined {
  const m = /-----BEGIN ([A-Z0-9 ]+)-----/.exec(text);
  return m ? m[1] : undefined;
}

/** Strict base64 / base64url (padding optional, whitespace ignored) → bytes, or undefined. */
function decodeBase64Loose(text: string): Buffer | undefined {
  const compact = text.replace(/\s+/g, "");
  if (compact.length === 0 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(compact)) return undefined;
  const unpadded = compact.replace(/=+$/, "");
  if (unpadded.length % 4 === 1) return undefined;
  const standard = unpadded.replace(/-/g, "+").replace(/_/g, "/");
  const buf = Buffer.from(standard, "base64");
  return buf.length > 0 ? buf : undefined;
}

function assertEd25519(key: KeyObject, kind: "public" | "private", what: string): KeyObject {
  if (key.type !== kind || key.asymmetricKeyType !== "ed25519") {
    throw new Error(
      `${what}: expected an Ed25519 ${kind} key, got ${key.asymmetricKeyType ?? "unknown"} ${key.type} key`,
    );
  }
  return key;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Loads the licence verification key from a PEM text ("-----BEGIN PUBLIC KEY-----") or from
 * base64 / base64url of the SPKI DER bytes. Throws an Error saying what is wrong otherwise
 * (including when given a private key or a key that is not Ed25519).
 */
export function loadPublicKey(input: string): KeyObject {
  const what = "Invalid licence public key";
  if (typeof input !== "string" || input.trim() === "") {
    throw new Error(`${what}: expected a PEM text or base64 of SPKI DER, got an empty value`);
  }
  const text = input.trim();
  let key: KeyObject;
  if (text.includes("-----BEGIN")) {
    const label = pemLabel(text);
    if (label !== "PUBLIC KEY") {
      throw new Error(`${what}: expected a "PUBLIC KEY" PEM block, got "${label ?? "malformed PEM"}"`);
    }
    try {
      key = createPublicKey({ key: text, format: "pem" });
    } catch (err) {
      throw new Error(`${what}: cannot parse PEM (${describe(err)})`);
    }
  } else {
    const der = decodeBase64Loose(text);
    if (!der) throw new Error(`${what}: not PEM and not valid base64`);
    try {
      key = createPublicKey({ key: der, format: "der", type: "spki" });
    } catch (err) {
      throw new Error(`${what}: base64 does not hold an SPKI DER public key (${describe(err)})`);
    }
  }
  return assertEd25519(key, "public", what);
}

/**
 * Loads the licence signing key from a PEM text ("-----BEGIN PRIVATE KEY-----", unencrypted
 * PKCS#8) or from base64 / base64url of the PKCS#8 DER bytes. Throws an Error otherwise.
 */
export function loadPrivateKey(input: string): KeyObject {
  const what = "Invalid licence private key";
  if (typeof input !== "string" || input.trim() === "") {
    throw new Error(`${what}: expected a PEM text or base64 of PKCS#8 DER, got an empty value`);
  }
  const text = input.trim();
  let key: KeyObject;
  if (text.includes("-----BEGIN")) {
    const label = pemLabel(text);
    if (label !== "PRIVATE KEY") {
      throw new Error(
        `${what}: expected an unencrypted PKCS#8 "PRIVATE KEY" PEM block, got "${label ?? "malformed PEM"}"`,
      );
    }
    try {
      key = createPrivateKey({ key: text, format: "pem" });
    } catch (err) {
      throw new Error(`${what}: cannot parse PEM (${describe(err)})`);
    }
  } else {
    const der = decodeBase64Loose(text);
    if (!der) throw new Error(`${what}: not PEM and not valid base64`);
    try {
      key = createPrivateKey({ key: der, format: "der", type: "pkcs8" });
    } catch (err) {
      throw new Error(`${what}: base64 does not hold a PKCS#8 DER private key (${describe(err)})`);
    }
  }
  return assertEd25519(key, "private", what);
}

// ------------------------------------------------------------------------------------------
// Payload validation
// ------------------------------------------------------------------------------------------

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
function parseIsoDateTime(value: unknown): number | undefined {
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
function normaliseRequestHost(raw: string): string | undefined {
  const m = /^([^:]*)(?::(\d{1,5}))?$/.exec(raw.trim());
  return m ? asciiHostname(m[1]!) : undefined;
}

/** Does the licence domain (canonical form) cover the host? "*.x.y" covers exactly one extra label. */
function domainMatches(licenceDomain: string, host: string): boolean {
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
function checkPayload(input: unknown, strict: boolean): PayloadResult {
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

// ------------------------------------------------------------------------------------------
// Sign / verify
// ------------------------------------------------------------------------------------------

/** base64url without padding → bytes; undefined unless the text is the canonical encoding. */
function decodeBase64Url(part: string): Buffer | undefined {
  if (part.length === 0 || !/^[A-Za-z0-9_-]+$/.test(part) || part.length % 4 === 1) return undefined;
  const buf = Buffer.from(part, "base64url");
  return buf.toString("base64url") === part ? buf : undefined;
}

/**
 * Signs a licence. The payload is validated first (known tier, valid dates with expiresAt after
 * issuedAt, valid CPF/CNPJ, hostname domain, no unknown fields) and canonicalised (document as
 * digits, domain lower case). Throws an Error on a bad payload or key.
 * `privateKey` may be a KeyObject or anything loadPrivateKey() accepts.
 */
export function signLicence(payload: LicencePayload, privateKey: KeyObject | string): string {
  const key =
    typeof privateKey === "string"
      ? loadPrivateKey(privateKey)
      : privateKey instanceof KeyObject
        ? assertEd25519(privateKey, "private", "Invalid licence private key")
        : (() => {
            throw new Error("Invalid licence private key: expected a KeyObject or a PEM/base64 string");
          })();
  const checked = checkPayload(payload, true);
  if (!checked.ok) throw new Error(`Invalid licence payload: ${checked.reason}`);
  const payloadPart = Buffer.from(JSON.stringify(checked.payload), "utf8").toString("base64url");
  const signed = `${LICENCE_TOKEN_PREFIX}.${payloadPart}`;
  const signature = cryptoSign(null, Buffer.from(signed, "utf8"), key);
  return `${signed}.${signature.toString("base64url")}`;
}

function invalid(reason: string): LicenceCheck {
  return { ok: false, code: "ERR_LICENSE_INVALID", reason };
}

function isBlocked(lid: string, blocklist: Iterable<string>): boolean {
  if (blocklist instanceof Set) {
    if (blocklist.has(lid)) return true;
  }
  for (const entry of blocklist) {
    if (typeof entry === "string" && entry.trim() === lid) return true;
  }
  return false;
}

/**
 * Verifies a licence token. Checks, in order: format, signature and payload shape
 * (ERR_LICENSE_INVALID) → blocklist by lid (ERR_LICENSE_BLOCKED) → expiry, expiresAt <= now
 * (ERR_LICENSE_EXPIRED) → domain when opts.domain is given (ERR_LICENSE_WRONG_DOMAIN) →
 * document when opts.document is given (ERR_LICENSE_WRONG_CODE).
 * Failures after the signature check carry the (authentic) payload.
 */
export function verifyLicence(token: unknown, opts: VerifyLicenceOptions): LicenceCheck {
  const publicKey = opts?.publicKey;
  if (!(publicKey instanceof KeyObject) || publicKey.type !== "public" || publicKey.asymmetricKeyType !== "ed25519") {
    throw new TypeError("verifyLicence: opts.publicKey must be an Ed25519 public KeyObject (see loadPublicKey)");
  }
  const now = opts.now ?? new Date();
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) {
    throw new TypeError("verifyLicence: opts.now must be a valid Date");
  }

  // 1. format, signature, payload shape
  if (typeof token !== "string") return invalid("token is not a string");
  if (token.length > MAX_LICENCE_TOKEN_LENGTH) return invalid("token is too long");
  const text = token.trim();
  if (text === "") return invalid("token is empty");
  const parts = text.split(".");
  if (parts.length !== 3) return invalid("token must have three dot-separated parts");
  const [prefix, payloadPart, signaturePart] = parts as [string, string, string];
  if (prefix !== LICENCE_TOKEN_PREFIX) return invalid(`token does not start with "${LICENCE_TOKEN_PREFIX}."`);
  const payloadBytes = decodeBase64Url(payloadPart);
  if (!payloadBytes) return invalid("payload part is not valid base64url");
  const signature = decodeBase64Url(signaturePart);
  if (!signature || signature.length !== 64) return invalid("signature part is not a valid Ed25519 signature");
  let signatureOk = false;
  try {
    signatureOk = cryptoVerify(null, Buffer.from(`${prefix}.${payloadPart}`, "utf8"), publicKey, signature);
  } catch {
    signatureOk = false;
  }
  if (!signatureOk) return invalid("signature does not match (tampered token or another key)");
  let parsed: unknown;
  try {
    parsed = JSON.parse(payloadBytes.toString("utf8"));
  } catch {
    return invalid("payload is not valid JSON");
  }
  const checked = checkPayload(parsed, false);
  if (!checked.ok) return invalid(`payload is malformed: ${checked.reason}`);
  const payload = checked.payload;

  // 2. blocklist
  if (opts.blocklist !== undefined && opts.blocklist !== null && isBlocked(payload.lid, opts.blocklist)) {
    return { ok: false, code: "ERR_LICENSE_BLOCKED", reason: `licence ${payload.lid} is blocked`, payload };
  }

  // 3. expiry
  const expiresAt = parseIsoDateTime(payload.expiresAt)!;
  if (expiresAt <= now.getTime()) {
    return { ok: false, code: "ERR_LICENSE_EXPIRED", reason: `licence expired at ${payload.expiresAt}`, payload };
  }

  // 4. domain
  if (opts.domain !== undefined) {
    const host = typeof opts.domain === "string" ? normaliseRequestHost(opts.domain) : undefined;
    if (host === undefined || !domainMatches(payload.domain, host)) {
      return {
        ok: false,
        code: "ERR_LICENSE_WRONG_DOMAIN",
        reason: `licence is for ${payload.domain}, not ${String(opts.domain)}`,
        payload,
      };
    }
  }

  // 5. document
  if (opts.document !== undefined) {
    const digits = normaliseDocument(opts.document);
    if (digits === "" || digits !== payload.document) {
      return {
        ok: false,
        code: "ERR_LICENSE_WRONG_CODE",
        reason: "licence was issued for another CPF/CNPJ",
        payload,
      };
    }
  }

  return { ok: true, payload, tier: payload.tier };
}

/** The tier a check grants: the licence's tier when ok, FREE otherwise. */
export function effectiveTier(check: LicenceCheck | null | undefined): Tier {
  return check && check.ok === true && isTier(check.tier) ? check.tier : "FREE";
}
