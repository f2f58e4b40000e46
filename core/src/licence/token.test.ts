import { spawnSync } from "node:child_process";
import { generateKeyPairSync, sign as cryptoSign, verify as cryptoVerify, type KeyObject } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import {
  MAX_LICENCE_TOKEN_LENGTH,
  effectiveTier,
  generateLicenceKeys,
  loadPrivateKey,
  loadPublicKey,
  signLicence,
  verifyLicence,
  type LicenceCheck,
  type LicencePayload,
} from "./token";

const NOW = new Date("2025-06-01T12:00:00.000Z");
const CNPJ = "11222333000181";
const CPF = "52998224725";

const keys = generateLicenceKeys();
const publicKey = loadPublicKey(keys.publicKeyPem);
const privateKey = loadPrivateKey(keys.privateKeyPem);
const other = generateLicenceKeys();
const otherPrivate = loadPrivateKey(other.privateKeyPem);

function payload(overrides: Partial<Record<keyof LicencePayload, unknown>> = {}): LicencePayload {
  return {
    lid: "lic-001",
    tier: "PLUS",
    expiresAt: "2026-06-01T12:00:00.000Z",
    domain: "example.com",
    document: CNPJ,
    tenantId: 1,
    issuedAt: "2025-06-01T00:00:00.000Z",
    maxUsers: 10,
    maxConnections: 3,
    issuer: "tests",
    ...overrides,
  } as LicencePayload;
}

/** Signs arbitrary payload text with arbitrary prefix, bypassing signLicence's validation. */
function rawToken(payloadText: string, key: KeyObject = privateKey, prefix = "OAL1"): string {
  const part = Buffer.from(payloadText, "utf8").toString("base64url");
  const sig = cryptoSign(null, Buffer.from(`${prefix}.${part}`, "utf8"), key);
  return `${prefix}.${part}.${sig.toString("base64url")}`;
}

function expectCode(check: LicenceCheck, code: string): void {
  if (check.ok) throw new Error(`expected ${code}, got ok`);
  expect(check.code).toBe(code);
  expect(typeof check.reason).toBe("string");
  expect(check.reason.length).toBeGreaterThan(0);
}

const verify = (token: unknown, extra: Partial<Parameters<typeof verifyLicence>[1]> = {}) =>
  verifyLicence(token as string, { publicKey, now: NOW, ...extra });

describe("keys", () => {
  it("generates an Ed25519 PEM key pair", () => {
    expect(keys.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(keys.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(publicKey.asymmetricKeyType).toBe("ed25519");
    expect(publicKey.type).toBe("public");
    expect(privateKey.type).toBe("private");
    expect(other.publicKeyPem).not.toBe(keys.publicKeyPem);
  });

  it("loads a public key from base64 and base64url SPKI DER", () => {
    const der = publicKey.export({ type: "spki", format: "der" });
    const token = signLicence(payload(), privateKey);
    for (const text of [der.toString("base64"), der.toString("base64url"), `  ${der.toString("base64")}\n`]) {
      const k = loadPublicKey(text);
      expect(k.equals(publicKey)).toBe(true);
      expect(verifyLicence(token, { publicKey: k, now: NOW }).ok).toBe(true);
    }
  });

  it("loads a private key from base64 PKCS8 DER", () => {
    const der = privateKey.export({ type: "pkcs8", format: "der" });
    const k = loadPrivateKey(der.toString("base64"));
    expect(k.equals(privateKey)).toBe(true);
    expect(verify(signLicence(payload(), k)).ok).toBe(true);
  });

  it("rejects bad public key input with a clear Error", () => {
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 });
    const rsaPem = rsa.publicKey.export({ type: "spki", format: "pem" }).toString();
    const privDer = privateKey.export({ type: "pkcs8", format: "der" }).toString("base64");
    const bad: unknown[] = [
      "",
      "   ",
      "not a key",
      "@@@@",
      Buffer.from("hello world").toString("base64"),
      keys.privateKeyPem, // a private key is not a public key
      privDer,
      rsaPem,
      "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----",
      undefined,
      42,
    ];
    for (const input of bad) {
      expect(() => loadPublicKey(input as string)).toThrow(/Invalid licence public key/);
    }
    expect(() => loadPublicKey(rsaPem)).toThrow(/Ed25519/);
  });

  it("rejects bad private key input with a clear Error", () => {
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 });
    const rsaPem = rsa.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const pubDer = publicKey.export({ type: "spki", format: "der" }).toString("base64");
    for (const input of ["", "garbage", keys.publicKeyPem, pubDer, rsaPem, null]) {
      expect(() => loadPrivateKey(input as string)).toThrow(/Invalid licence private key/);
    }
    expect(() => loadPrivateKey(rsaPem)).toThrow(/Ed25519/);
  });
});

describe("signLicence", () => {
  it("produces OAL1.<payload>.<signature over 'OAL1.<payload>'>", () => {
    const token = signLicence(payload(), privateKey);
    expect(token).toMatch(/^OAL1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{86}$/);
    const [prefix, part, sig] = token.split(".") as [string, string, string];
    expect(JSON.parse(Buffer.from(part, "base64url").toString("utf8"))).toEqual(payload());
    expect(
      cryptoVerify(null, Buffer.from(`${prefix}.${part}`), publicKey, Buffer.from(sig, "base64url")),
    ).toBe(true);
  });

  it("round-trips through verifyLicence", () => {
    const check = verify(signLicence(payload(), privateKey));
    expect(check).toEqual({ ok: true, payload: payload(), tier: "PLUS" });
    expect(effectiveTier(check)).toBe("PLUS");
  });

  it("accepts a PEM string as key, omits absent optional fields", () => {
    const p = payload();
    delete p.tenantId;
    delete p.maxUsers;
    delete p.maxConnections;
    const check = verify(signLicence(p, keys.privateKeyPem));
    expect(check.ok).toBe(true);
    if (check.ok) {
      expect(check.payload).toEqual(p);
      expect("tenantId" in check.payload).toBe(false);
    }
  });

  it("canonicalises document digits and domain case", () => {
    const check = verify(signLicence(payload({ document: "11.222.333/0001-81", domain: "*.Example.COM" }), privateKey));
    expect(check.ok).toBe(true);
    if (check.ok) {
      expect(check.payload.document).toBe(CNPJ);
      expect(check.payload.domain).toBe("*.example.com");
    }
  });

  it("accepts a CPF licence", () => {
    expect(verify(signLicence(payload({ document: "529.982.247-25" }), privateKey), { document: CPF }).ok).toBe(true);
  });

  const badPayloads: [string, Partial<Record<keyof LicencePayload, unknown>> | unknown][] = [
    ["unknown tier", { tier: "GOLD" }],
    ["lower-case tier", { tier: "plus" }],
    ["missing tier", { tier: undefined }],
    ["bad expiresAt", { expiresAt: "next year" }],
    ["impossible expiresAt", { expiresAt: "2026-02-30T00:00:00Z" }],
    ["expiresAt without zone", { expiresAt: "2026-06-01T12:00:00" }],
    ["numeric expiresAt", { expiresAt: 1780000000000 }],
    ["bad issuedAt", { issuedAt: "" }],
    ["expires before issued", { issuedAt: "2026-06-01T12:00:00Z", expiresAt: "2026-06-01T11:59:59Z" }],
    ["invalid CNPJ", { document: "11222333000182" }],
    ["repeated digits", { document: "11111111111" }],
    ["empty document", { document: "" }],
    ["empty domain", { domain: "" }],
    ["blank domain", { domain: "   " }],
    ["bare wildcard", { domain: "*" }],
    ["wildcard TLD", { domain: "*.com" }],
    ["inner wildcard", { domain: "a.*.example.com" }],
    ["domain with spaces", { domain: "exa mple.com" }],
    ["domain with port", { domain: "example.com:443" }],
    ["empty lid", { lid: "" }],
    ["numeric lid", { lid: 5 }],
    ["zero tenant", { tenantId: 0 }],
    ["fractional tenant", { tenantId: 1.5 }],
    ["string tenant", { tenantId: "1" }],
    ["negative maxUsers", { maxUsers: -1 }],
    ["string maxConnections", { maxConnections: "3" }],
    ["empty issuer", { issuer: "" }],
    ["unknown field", { ...payload(), tierr: "PLUS" }],
  ];
  it.each(badPayloads)("refuses to sign: %s", (_name, overrides) => {
    expect(() => signLicence(payload(overrides as Partial<LicencePayload>), privateKey)).toThrow(
      /Invalid licence payload/,
    );
  });

  it("refuses non-object payloads and non-private keys", () => {
    expect(() => signLicence(null as unknown as LicencePayload, privateKey)).toThrow(/Invalid licence payload/);
    expect(() => signLicence(payload(), publicKey)).toThrow(/private/);
    expect(() => signLicence(payload(), "nope")).toThrow(/Invalid licence private key/);
  });
});

describe("verifyLicence: ERR_LICENSE_INVALID", () => {
  const good = signLicence(payload(), privateKey);
  const [prefix, part, sig] = good.split(".") as [string, string, string];

  it("accepts the untouched token (control)", () => {
    expect(verify(good).ok).toBe(true);
    expect(verify(`  ${good}\n`).ok).toBe(true);
  });

  it.each([
    ["undefined", undefined],
    ["null", null],
    ["number", 42],
    ["object", { token: good }],
    ["array", [good]],
    ["Buffer", Buffer.from(good)],
    ["empty string", ""],
    ["whitespace", "   "],
    ["random text", "hello"],
    ["two parts", `${prefix}.${part}`],
    ["four parts", `${good}.x`],
    ["empty payload part", `${prefix}..${sig}`],
    ["empty signature part", `${prefix}.${part}.`],
    ["wrong prefix", `OAL2.${part}.${sig}`],
    ["lower-case prefix", `oal1.${part}.${sig}`],
    ["bad base64 payload", `${prefix}.${part.slice(0, -2)}!!.${sig}`],
    ["padded base64", `${prefix}.${part}==.${sig}`],
    ["standard base64 signature", `${prefix}.${part}.${Buffer.from(sig, "base64url").toString("base64")}`],
    ["short signature", `${prefix}.${part}.${sig.slice(0, 40)}`],
    ["bad base64 signature", `${prefix}.${part}.${"*".repeat(86)}`],
  ])("rejects garbage: %s", (_name, input) => {
    let check: LicenceCheck | undefined;
    expect(() => {
      check = verify(input);
    }).not.toThrow();
    expectCode(check!, "ERR_LICENSE_INVALID");
    expect(effectiveTier(check!)).toBe("FREE");
  });

  it("rejects a signature from another key", () => {
    const check = verify(signLicence(payload(), otherPrivate));
    expectCode(check, "ERR_LICENSE_INVALID");
    expect(check.ok || check.payload).toBeUndefined();
  });

  it("rejects a tampered payload (tier raised, signature kept)", () => {
    const raised = Buffer.from(JSON.stringify(payload({ tier: "PREMIUM" }))).toString("base64url");
    expectCode(verify(`${prefix}.${raised}.${sig}`), "ERR_LICENSE_INVALID");
  });

  it("rejects a tampered payload (expiry extended, signature kept)", () => {
    const longer = Buffer.from(JSON.stringify(payload({ expiresAt: "2099-01-01T00:00:00.000Z" }))).toString("base64url");
    expectCode(verify(`${prefix}.${longer}.${sig}`), "ERR_LICENSE_INVALID");
  });

  it("rejects every single-character change of the payload and signature parts", () => {
    const alphabet = "AQgw";
    for (const which of [1, 2] as const) {
      const original = which === 1 ? part : sig;
      for (let i = 0; i < original.length; i += 7) {
        const c = alphabet.split("").find((a) => a !== original[i])!;
        const changed = original.slice(0, i) + c + original.slice(i + 1);
        const token = which === 1 ? `${prefix}.${changed}.${sig}` : `${prefix}.${part}.${changed}`;
        expectCode(verify(token), "ERR_LICENSE_INVALID");
      }
    }
  });

  it("rejects a token whose signature covers a different prefix", () => {
    const p2 = rawToken(JSON.stringify(payload()), privateKey, "OAL2");
    const [, part2, sig2] = p2.split(".");
    expectCode(verify(p2), "ERR_LICENSE_INVALID");
    expectCode(verify(`OAL1.${part2}.${sig2}`), "ERR_LICENSE_INVALID");
  });

  it("rejects correctly signed non-JSON and badly shaped payloads", () => {
    // control: rawToken produces tokens the verifier accepts
    expect(verify(rawToken(JSON.stringify(payload()))).ok).toBe(true);
    const bad = [
      "not json",
      "{",
      "null",
      "[]",
      '"PLUS"',
      "42",
      JSON.stringify({ ...payload(), tier: "GOLD" }),
      JSON.stringify({ ...payload(), document: "12345678901" }),
      JSON.stringify({ ...payload(), domain: "" }),
      JSON.stringify({ ...payload(), expiresAt: "soon" }),
      JSON.stringify({ ...payload(), lid: undefined }),
      JSON.stringify({ ...payload(), issuer: undefined }),
      JSON.stringify({ ...payload(), maxUsers: "many" }),
    ];
    for (const text of bad) {
      const check = verify(rawToken(text));
      expectCode(check, "ERR_LICENSE_INVALID");
    }
  });

  it("rejects tokens over 16 KB before doing any work, but accepts large ones under it", () => {
    const big = (n: number) => rawToken(JSON.stringify({ ...payload(), note: "x".repeat(n) }));
    const under = big(11_000);
    expect(under.length).toBeLessThanOrEqual(MAX_LICENCE_TOKEN_LENGTH);
    expect(verify(under).ok).toBe(true); // unknown extra fields are tolerated
    const over = big(13_000);
    expect(over.length).toBeGreaterThan(16 * 1024);
    expectCode(verify(over), "ERR_LICENSE_INVALID");
    expectCode(verify("A".repeat(5_000_000)), "ERR_LICENSE_INVALID");
  });

  it("never throws on random input", () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const chars = "OAL1.ABCxyz09_-+/=!{}\"\u0000é";
    for (let k = 0; k < 500; k++) {
      let s = rnd() < 0.5 ? "OAL1." : "";
      const len = Math.floor(rnd() * 200);
      for (let i = 0; i < len; i++) s += chars[Math.floor(rnd() * chars.length)];
      expectCode(verify(s), "ERR_LICENSE_INVALID");
    }
  });

  it("throws a TypeError for a misconfigured key or clock (programming errors)", () => {
    expect(() => verifyLicence(good, { publicKey: privateKey })).toThrow(TypeError);
    expect(() => verifyLicence(good, { publicKey: undefined as unknown as KeyObject })).toThrow(TypeError);
    expect(() => verifyLicence(good, { publicKey, now: new Date("nope") })).toThrow(TypeError);
  });
});

describe("verifyLicence: blocklist, expiry, domain, document", () => {
  const token = signLicence(payload(), privateKey);

  it("ERR_LICENSE_BLOCKED by lid (Set, array or any iterable)", () => {
    for (const blocklist of [new Set(["lic-001"]), ["other", "lic-001"], new Map([["lic-001", 1]]).keys()]) {
      const check = verify(token, { blocklist });
      expectCode(check, "ERR_LICENSE_BLOCKED");
      expect(check.ok || check.payload?.lid).toBe("lic-001");
      expect(effectiveTier(check)).toBe("FREE");
    }
    expect(verify(token, { blocklist: ["lic-002", "LIC-001", "lic-00"] }).ok).toBe(true);
    expect(verify(token, { blocklist: [] }).ok).toBe(true);
  });

  it("ERR_LICENSE_EXPIRED when expiresAt <= now", () => {
    const expiresAt = new Date("2026-06-01T12:00:00.000Z");
    expect(verify(token, { now: new Date(expiresAt.getTime() - 1) }).ok).toBe(true);
    const atExpiry = verify(token, { now: expiresAt });
    expectCode(atExpiry, "ERR_LICENSE_EXPIRED");
    expect(atExpiry.ok || atExpiry.payload?.tier).toBe("PLUS");
    expect(effectiveTier(atExpiry)).toBe("FREE");
    expectCode(verify(token, { now: new Date("2030-01-01T00:00:00Z") }), "ERR_LICENSE_EXPIRED");
  });

  it("uses the current time by default", () => {
    const past = signLicence(
      payload({ issuedAt: "2000-01-01T00:00:00Z", expiresAt: "2000-01-02T00:00:00Z" }),
      privateKey,
    );
    expectCode(verifyLicence(past, { publicKey }), "ERR_LICENSE_EXPIRED");
    const future = signLicence(payload({ expiresAt: "2999-01-01T00:00:00Z" }), privateKey);
    expect(verifyLicence(future, { publicKey }).ok).toBe(true);
  });

  it("understands expiry with a time-zone offset", () => {
    const t = signLicence(payload({ expiresAt: "2025-06-01T10:00:00-03:00" }), privateKey); // 13:00Z
    expect(verify(t, { now: new Date("2025-06-01T12:59:59Z") }).ok).toBe(true);
    expectCode(verify(t, { now: new Date("2025-06-01T13:00:00Z") }), "ERR_LICENSE_EXPIRED");
  });

  it("ERR_LICENSE_WRONG_DOMAIN for an exact domain", () => {
    expect(verify(token, { domain: "example.com" }).ok).toBe(true);
    expect(verify(token, { domain: "EXAMPLE.com" }).ok).toBe(true);
    expect(verify(token, { domain: "example.com:3000" }).ok).toBe(true);
    expect(verify(token, { domain: "example.com." }).ok).toBe(true);
    for (const domain of ["other.com", "a.example.com", "example.com.evil.net", "notexample.com", "example.co", "", " ", "example.com:abc", "https://example.com"]) {
      const check = verify(token, { domain });
      expectCode(check, "ERR_LICENSE_WRONG_DOMAIN");
      expect(check.ok || check.payload?.domain).toBe("example.com");
    }
  });

  it("ERR_LICENSE_WRONG_DOMAIN for a wildcard domain", () => {
    const wild = signLicence(payload({ domain: "*.example.com" }), privateKey);
    expect(verify(wild, { domain: "a.example.com" }).ok).toBe(true);
    expect(verify(wild, { domain: "Tenant-1.Example.Com:8443" }).ok).toBe(true);
    for (const domain of ["example.com", "a.b.example.com", "badexample.com", "a.badexample.com", "a.example.com.evil.net", ".example.com", "*.example.com"]) {
      expectCode(verify(wild, { domain }), "ERR_LICENSE_WRONG_DOMAIN");
    }
  });

  it("handles IP hosts: IPv4 licences match with a port, IPv6 hosts never match", () => {
    const ip = signLicence(payload({ domain: "10.0.0.5" }), privateKey);
    expect(verify(ip, { domain: "10.0.0.5:8080" }).ok).toBe(true);
    for (const domain of ["10.0.0.6", "[::1]:3000", "::1", "[::1]", "10.0.0.5:80:80"]) {
      expectCode(verify(ip, { domain }), "ERR_LICENSE_WRONG_DOMAIN");
    }
  });

  it("matches internationalised domains through punycode", () => {
    const idn = signLicence(payload({ domain: "exämple.com" }), privateKey);
    expect(verify(idn, { domain: "xn--exmple-cua.com" }).ok).toBe(true);
    expect(verify(idn, { domain: "EXÄMPLE.com" }).ok).toBe(true);
  });

  it("skips the domain check when no domain is given", () => {
    expect(verify(token, { domain: undefined }).ok).toBe(true);
  });

  it("ERR_LICENSE_WRONG_CODE when the document differs", () => {
    expect(verify(token, { document: CNPJ }).ok).toBe(true);
    expect(verify(token, { document: "11.222.333/0001-81" }).ok).toBe(true);
    for (const document of [CPF, "11222333000182", "", "abc", "1122233300018"]) {
      const check = verify(token, { document });
      expectCode(check, "ERR_LICENSE_WRONG_CODE");
      expect(check.ok || check.payload?.document).toBe(CNPJ);
      expect(effectiveTier(check)).toBe("FREE");
    }
  });

  it("checks in order: invalid → blocked → expired → domain → document", () => {
    const late = new Date("2030-01-01T00:00:00Z");
    const all = { blocklist: ["lic-001"], now: late, domain: "other.com", document: CPF };
    expectCode(verifyLicence(signLicence(payload(), otherPrivate), { publicKey, ...all }), "ERR_LICENSE_INVALID");
    expectCode(verify(token, all), "ERR_LICENSE_BLOCKED");
    expectCode(verify(token, { ...all, blocklist: [] }), "ERR_LICENSE_EXPIRED");
    expectCode(verify(token, { ...all, blocklist: [], now: NOW }), "ERR_LICENSE_WRONG_DOMAIN");
    expectCode(verify(token, { ...all, blocklist: [], now: NOW, domain: "example.com" }), "ERR_LICENSE_WRONG_CODE");
    expect(verify(token, { ...all, blocklist: [], now: NOW, domain: "example.com", document: CNPJ }).ok).toBe(true);
  });
});

describe("effectiveTier", () => {
  it("is the licence tier only when the check is ok", () => {
    for (const tier of ["FREE", "BASIC", "PLUS", "PREMIUM"] as const) {
      expect(effectiveTier(verify(signLicence(payload({ tier }), privateKey)))).toBe(tier);
    }
    expect(effectiveTier({ ok: false, code: "ERR_LICENSE_INVALID", reason: "x" })).toBe("FREE");
    expect(
      effectiveTier({ ok: false, code: "ERR_LICENSE_EXPIRED", reason: "x", payload: payload({ tier: "PREMIUM" }) }),
    ).toBe("FREE");
    expect(effectiveTier(undefined)).toBe("FREE");
  });
});

describe("licence CLI", () => {
  jest.setTimeout(60_000);
  const repoRoot = resolve(__dirname, "../../..");
  const cli = join(repoRoot, "core/src/bin/licence.ts");
  const tsx = pathToFileURL(require.resolve("tsx", { paths: [repoRoot] })).href;
  let dir: string;

  const fixture = generateLicenceKeys();

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "licence-cli-"));
    mkdirSync(join(dir, "fixed"));
    writeFileSync(join(dir, "fixed/public.pem"), fixture.publicKeyPem);
    writeFileSync(join(dir, "fixed/private.pem"), fixture.privateKeyPem, { mode: 0o600 });
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  function run(...args: string[]) {
    const r = spawnSync(process.execPath, ["--import", tsx, cli, ...args], { cwd: dir, encoding: "utf8" });
    if (r.error) throw r.error;
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  it("keygen → sign → verify round-trip", () => {
    const kg = run("keygen");
    expect(kg.stderr).toBe("");
    expect(kg.code).toBe(0);
    const pub = join(dir, "data/licence/public.pem");
    const priv = join(dir, "data/licence/private.pem");
    expect(kg.stdout).toContain(pub);
    expect(kg.stdout).toContain(priv);
    if (process.platform !== "win32") expect(statSync(priv).mode & 0o777).toBe(0o600);
    const publicKeyFromFile = loadPublicKey(readFileSync(pub, "utf8"));
    loadPrivateKey(readFileSync(priv, "utf8"));

    // keygen does not overwrite existing keys
    const again = run("keygen");
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/refusing to overwrite/);
    expect(readFileSync(pub, "utf8")).toBe(publicKeyFromFile.export({ type: "spki", format: "pem" }).toString());

    const signed = run(
      "sign", "--key", "data/licence/private.pem", "--tier", "PLUS", "--domain", "*.example.com",
      "--document", "11.222.333/0001-81", "--days", "365", "--tenant", "7", "--lid", "cli-1",
      "--max-users", "25", "--max-connections", "4",
    );
    expect(signed.stderr).toBe("");
    expect(signed.code).toBe(0);
    const token = signed.stdout.trim();
    expect(token).toMatch(/^OAL1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);

    const inProcess = verifyLicence(token, { publicKey: publicKeyFromFile, domain: "t.example.com", document: CNPJ });
    expect(inProcess.ok).toBe(true);
    if (inProcess.ok) {
      expect(inProcess.payload).toMatchObject({
        lid: "cli-1", tier: "PLUS", domain: "*.example.com", document: CNPJ, tenantId: 7, maxUsers: 25, maxConnections: 4,
      });
      const days = (Date.parse(inProcess.payload.expiresAt) - Date.parse(inProcess.payload.issuedAt)) / 86_400_000;
      expect(days).toBe(365);
    }

    const ok = run("verify", "--pub", "data/licence/public.pem", "--token", token, "--domain", "t.example.com:443", "--document", CNPJ);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ ok: true, tier: "PLUS", payload: { lid: "cli-1" } });

    writeFileSync(join(dir, "token.txt"), `${token}\n`);
    const fromFile = run("verify", "--pub", "data/licence/public.pem", "--token-file", "token.txt");
    expect(fromFile.code).toBe(0);

    const wrongDomain = run("verify", "--pub", "data/licence/public.pem", "--token", token, "--domain", "example.com");
    expect(wrongDomain.code).toBe(1);
    expect(JSON.parse(wrongDomain.stdout)).toMatchObject({ ok: false, code: "ERR_LICENSE_WRONG_DOMAIN" });

    const wrongDoc = run("verify", "--pub", "data/licence/public.pem", "--token", token, "--document", CPF);
    expect(JSON.parse(wrongDoc.stdout)).toMatchObject({ ok: false, code: "ERR_LICENSE_WRONG_CODE" });

    const tampered = run("verify", "--pub", "data/licence/public.pem", "--token", `${token.slice(0, -3)}AAA`);
    expect(tampered.code).toBe(1);
    expect(JSON.parse(tampered.stdout)).toMatchObject({ ok: false, code: "ERR_LICENSE_INVALID" });
  });

  it("keygen --out writes into the given directory", () => {
    const r = run("keygen", "--out", "keys/a");
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, "keys/a/public.pem"), "utf8")).toMatch(/BEGIN PUBLIC KEY/);
    if (process.platform !== "win32") expect(statSync(join(dir, "keys/a/private.pem")).mode & 0o777).toBe(0o600);
  });

  const signArgs = (over: Record<string, string>) => {
    const base: Record<string, string> = {
      key: "fixed/private.pem", tier: "PLUS", domain: "example.com", document: CNPJ, days: "1", ...over,
    };
    return Object.entries(base).flatMap(([k, v]) => [`--${k}`, v]);
  };

  it("control: the fixture key signs with the base arguments", () => {
    const r = run("sign", ...signArgs({}));
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(verifyLicence(r.stdout.trim(), { publicKey: loadPublicKey(fixture.publicKeyPem) }).ok).toBe(true);
  });

  it.each([
    ["no command", [], /Usage/],
    ["unknown command", ["frobnicate"], /unknown command "frobnicate"/],
    ["unknown option", ["keygen", "--outt", "x"], /unknown option --outt/],
    ["missing value", ["keygen", "--out"], /--out needs a value/],
    ["missing required options", ["sign", "--tier", "PLUS"], /--key is required/],
    ["bad tier", ["sign", ...signArgs({ tier: "GOLD" })], /--tier must be one of/],
    ["negative days", ["sign", ...signArgs({ days: "-3" })], /--days/],
    ["zero days", ["sign", ...signArgs({ days: "0" })], /--days must be at least 1/],
    ["non-numeric days", ["sign", ...signArgs({ days: "ten" })], /--days must be a whole number/],
    ["bad tenant", ["sign", ...signArgs({ tenant: "abc" })], /--tenant must be a whole number/],
    ["bad max-users", ["sign", ...signArgs({ "max-users": "1.5" })], /--max-users must be a whole number/],
    ["invalid document", ["sign", ...signArgs({ document: "11222333000182" })], /CPF or CNPJ/],
    ["bad domain", ["sign", ...signArgs({ domain: "exa mple.com" })], /domain must be a hostname/],
    ["missing key file", ["sign", ...signArgs({ key: "nope.pem" })], /cannot read private key .*nope\.pem/],
    ["public key used to sign", ["sign", ...signArgs({ key: "fixed/public.pem" })], /Invalid licence private key/],
    ["verify without token", ["verify", "--pub", "fixed/public.pem"], /exactly one of --token or --token-file/],
    ["verify with a private key", ["verify", "--pub", "fixed/private.pem", "--token", "x"], /Invalid licence public key/],
    ["duplicate option", ["verify", "--pub", "fixed/public.pem", "--pub", "fixed/public.pem", "--token", "x"], /more than once/],
    ["stray argument", ["verify", "stray"], /unexpected argument "stray"/],
  ])("exits 2 with a message on bad arguments: %s", (_name, args, message) => {
    const r = run(...(args as string[]));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message as RegExp);
    expect(r.stdout).toBe("");
  });
});
