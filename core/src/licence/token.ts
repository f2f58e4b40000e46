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
import { KeyObject, sign as cryptoSign, verify as cryptoVerify } from "node:crypto";
import { normaliseDocument } from "./document";
import { isTier, type Tier } from "./tiers";
import { assertEd25519, loadPrivateKey } from "./keys";
import { checkPayload, domainMatches, normaliseRequestHost, parseIsoDateTime } from "./payload";

// The keys' functions are part of this module's API (the CLI, the seed and tests import them from here).
export { generateLicenceKeys, loadPrivateKey, loadPublicKey } from "./keys";

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
