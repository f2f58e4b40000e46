import jwt from "jsonwebtoken";
import { createHash, createSecretKey, randomBytes, type KeyObject } from "node:crypto";
import type { Profile } from "../types";

export interface AccessClaims {
  sub: number;
  tid: number;
  sid: string;
  prf: Profile;
  mst: boolean;
  sup: boolean;
}

/**
 * The HS256 secret as a KeyObject, made once per secret: given a string, jsonwebtoken tries
 * to parse it as a public key on every sign and verify before falling back to a secret key,
 * which was the largest cost of an authenticated request.
 */
const keys = new Map<string, KeyObject>();
function keyFor(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, "utf8"));
    keys.set(secret, key);
  }
  return key;
}

export function signAccessToken(claims: AccessClaims, secret: string, ttlSeconds: number): string {
  return jwt.sign({ tid: claims.tid, sid: claims.sid, prf: claims.prf, mst: claims.mst, sup: claims.sup }, keyFor(secret), {
    algorithm: "HS256",
    subject: String(claims.sub),
    expiresIn: ttlSeconds,
    issuer: "openatende",
  });
}

export type VerifyResult =
  | { ok: true; claims: AccessClaims }
  | { ok: false; reason: "expired" | "invalid"; claims?: AccessClaims };

function toClaims(p: jwt.JwtPayload): AccessClaims | undefined {
  const sub = Number(p.sub);
  if (!Number.isInteger(sub) || typeof p.sid !== "string" || typeof p.tid !== "number") return undefined;
  return { sub, tid: p.tid, sid: p.sid, prf: p.prf as Profile, mst: !!p.mst, sup: !!p.sup };
}

/** Verifies signature and expiry; an expired token still yields its claims (for refresh). */
export function verifyAccessToken(token: string, secret: string): VerifyResult {
  try {
    const p = jwt.verify(token, keyFor(secret), { algorithms: ["HS256"], issuer: "openatende" }) as jwt.JwtPayload;
    const claims = toClaims(p);
    return claims ? { ok: true, claims } : { ok: false, reason: "invalid" };
  } catch (err) {
    if (err instanceof jwt.TokenExpiredError) {
      try {
        const p = jwt.verify(token, keyFor(secret), { algorithms: ["HS256"], issuer: "openatende", ignoreExpiration: true }) as jwt.JwtPayload;
        return { ok: false, reason: "expired", claims: toClaims(p) };
      } catch {
        return { ok: false, reason: "invalid" };
      }
    }
    return { ok: false, reason: "invalid" };
  }
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

export function sha256(s: string): string {
  return createHash("sha256").update(s).digest("hex");
}
