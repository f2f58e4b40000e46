/**
 * The Ed25519 keys of licence tokens (token.ts): a fresh pair, and the public and private
 * keys read from PEM or bare base64 DER, refusing anything that is not an Ed25519 key.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, KeyObject } from "node:crypto";

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

export function assertEd25519(key: KeyObject, kind: "public" | "private", what: string): KeyObject {
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
