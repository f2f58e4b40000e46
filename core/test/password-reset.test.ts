/**
 * Password reset (spec §5 password rule and "reset link valid 5 minutes", §7
 * /auth/esquecisenha/ and /auth/redefinirsenha/, §8 codes): the reset e-mail goes through a
 * real local SMTP server configured in the global settings, the token of its link sets the
 * new password once. Real core, real MariaDB / SQLite, real Redis.
 */
import { createHash } from "node:crypto";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { startCore, createTenant, createSuper, TestCore, TenantFixture, DIALECTS, PASSWORD, uid, Res, LICENCE_DOMAIN } from "./helpers";
import { UI } from "../src/errors/catalogue";
import type { ErrorCode } from "../src/errors/codes";

interface Mail {
  from: string;
  to: string[];
  raw: string;
}

/** Asserts the HTTP status and the `{ error, message, title, data }` body of an error answer. */
function expectError(r: Res, status: number, code: ErrorCode) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
  expect(typeof r.body.message).toBe("string");
  expect(r.body.message.length).toBeGreaterThan(0);
  expect(typeof r.body.title).toBe("string");
  expect(r.body.data).toEqual(expect.any(Object));
}

// --- a minimal MIME reader (enough for what nodemailer writes) -------------------------------

function decodeQuotedPrintable(s: string): string {
  const soft = s.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const m = soft[i] === "=" ? /^[0-9A-Fa-f]{2}$/.exec(soft.slice(i + 1, i + 3)) : null;
    if (m) {
      bytes.push(parseInt(m[0], 16));
      i += 2;
    } else bytes.push(...Buffer.from(soft[i]!, "utf8"));
  }
  return Buffer.from(bytes).toString("utf8");
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? "7bit").toLowerCase()) {
    case "quoted-printable":
      return decodeQuotedPrintable(body);
    case "base64":
      return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    default:
      return body;
  }
}

/** RFC 2047 encoded words (=?UTF-8?Q?…?= / =?UTF-8?B?…?=) of a header value. */
function decodeHeader(v: string): string {
  return v.replace(/\?=\s+=\?/g, "?==?").replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, _cs: string, enc: string, text: string) =>
    enc.toUpperCase() === "B" ? Buffer.from(text, "base64").toString("utf8") : decodeQuotedPrintable(text.replace(/_/g, " ")),
  );
}

function splitEntity(raw: string): { headers: Record<string, string>; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  const head = at < 0 ? raw : raw.slice(0, at);
  const body = at < 0 ? "" : raw.slice(at).replace(/^\r?\n\r?\n/, "");
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { headers, body };
}

/** The decoded text/plain and text/html parts and the subject of a raw message. */
function readMail(raw: string): { subject: string; text: string; html: string } {
  const top = splitEntity(raw);
  const out = { subject: decodeHeader(top.headers.subject ?? ""), text: "", html: "" };
  const visit = (e: { headers: Record<string, string>; body: string }) => {
    const type = e.headers["content-type"] ?? "text/plain";
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (/^multipart\//i.test(type) && boundary) {
      const parts = e.body.split(`--${boundary}`).slice(1);
      for (const p of parts) {
        if (p.startsWith("--")) break;
        visit(splitEntity(p.replace(/^\r?\n/, "")));
      }
    } else if (/^text\/plain/i.test(type)) out.text += decodeBody(e.body, e.headers["content-transfer-encoding"]);
    else if (/^text\/html/i.test(type)) out.html += decodeBody(e.body, e.headers["content-transfer-encoding"]);
  };
  visit(top);
  return out;
}

const LINK = new RegExp(`http://${LICENCE_DOMAIN.replace(/\./g, "\\.")}/#/redefining\\?token=([A-Za-z0-9_%-]+)`);

function tokenOf(mail: Mail): string {
  const { text } = readMail(mail.raw);
  const m = LINK.exec(text);
  if (!m) throw new Error(`no reset link in the mail text:\n${text}`);
  return decodeURIComponent(m[1]!);
}

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

// --- the local SMTP server, shared by both dialects -------------------------------------------

const mails: Mail[] = [];
let smtp: SMTPServer;
let smtpPort: number;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const mailsTo = (email: string) => mails.filter((m) => m.to.includes(email));

describe.each(DIALECTS)("password reset on %s", (dialect) => {
  let t: TestCore;
  let f: TenantFixture;
  let master: Awaited<ReturnType<typeof createSuper>>;

  beforeAll(async () => {
    t = await startCore({ dialect, env: { FREE_PLAN_MAX_USERS: "1000" } });
    f = await createTenant(t);
    master = await createSuper(t);
  });
  afterAll(async () => {
    await t?.stop();
  });

  /** A fresh agent of the fixture tenant, created by its admin through the API. */
  async function newUser(extra: Record<string, unknown> = {}): Promise<{ id: number; email: string; name: string }> {
    const email = `reset-${uid()}@t.test`;
    const name = `User ${uid()}`;
    const r = await t.api.post("/users", { name, email, password: PASSWORD, profile: "user", ...extra }, f.admin);
    if (r.status !== 201) throw new Error(`create user: ${r.status} ${JSON.stringify(r.body)}`);
    return { id: r.body.id, email, name };
  }

  /** Asks for a reset of `email` and returns the token of the one mail it sent. */
  async function requestToken(email: string, headers?: Record<string, string>): Promise<{ token: string; mail: Mail }> {
    const before = mailsTo(email).length;
    const r = await t.api.post("/auth/esquecisenha/", { email }, null, headers);
    expect(r.status).toBe(200);
    const sent = mailsTo(email);
    expect(sent).toHaveLength(before + 1);
    const mail = sent[sent.length - 1]!;
    return { token: tokenOf(mail), mail };
  }

  const reset = (token: string, password: string, confirmPassword = password) =>
    t.api.post("/auth/redefinirsenha/", { token, password, confirmPassword });

  describe("without SMTP settings", () => {
    it("answers 503 ERR_MAIL_NOT_CONFIGURED and sends nothing", async () => {
      const before = mails.length;
      expectError(await t.api.post("/auth/esquecisenha/", { email: f.emails.agent }), 503, "ERR_MAIL_NOT_CONFIGURED");
      expect(mails.length).toBe(before);
    });
  });

  describe("with SMTP settings", () => {
    beforeAll(async () => {
      const r = await t.api.put("/settings/global/smtp", { value: { host: "127.0.0.1", port: smtpPort, secure: false, senderEmail: "noreply@atende.test" } }, master);
      if (r.status !== 200) throw new Error(`smtp settings: ${r.status} ${JSON.stringify(r.body)}`);
    });

    it("sends one mail with a link whose token sets the new password once; old sessions end", async () => {
      const u = await newUser();
      const session = await t.api.login(u.email);
      const { token, mail } = await requestToken(u.email);
      expect(mail.from).toBe("noreply@atende.test");
      expect(mail.to).toEqual([u.email]);
      const read = readMail(mail.raw);
      expect(read.subject).toBe(UI["pt-BR"].resetMailSubject);
      expect(read.text).toContain(u.name);
      expect(read.html).toContain(`/#/redefining?token=${token}`);
      expect(token.length).toBeGreaterThanOrEqual(40);

      const r = await reset(token, "NewSecret456");
      expect(r.status).toBe(200);
      expect((await t.api.post("/auth/login/", { email: u.email, password: "NewSecret456" })).status).toBe(200);
      expectError(await t.api.post("/auth/login/", { email: u.email, password: PASSWORD }), 401, "ERR_INVALID_CREDENTIALS");
      // The session opened before the reset has ended.
      expectError(await t.api.get("/auth/me", session), 401, "ERR_SESSION_EXPIRED");
      // The token is single use.
      expectError(await reset(token, "Another789"), 400, "ERR_RESET_TOKEN_INVALID");
      expect((await t.api.post("/auth/login/", { email: u.email, password: "NewSecret456" })).status).toBe(200);
    });

    it("accepts the e-mail in any case and with surrounding spaces", async () => {
      const u = await newUser();
      const r = await t.api.post("/auth/esquecisenha/", { email: `  ${u.email.toUpperCase()} ` });
      expect(r.status).toBe(200);
      expect(mailsTo(u.email)).toHaveLength(1);
    });

    it("refuses a missing or malformed e-mail", async () => {
      const missing = await t.api.post("/auth/esquecisenha/", {});
      expectError(missing, 400, "ERR_VALIDATION");
      expect(missing.body.data.field).toBe("email");
      const bad = await t.api.post("/auth/esquecisenha/", { email: "not-an-email" });
      expectError(bad, 400, "ERR_VALIDATION");
      expect(bad.body.data.field).toBe("email");
    });

    it("refuses an expired token", async () => {
      const u = await newUser();
      const { token } = await requestToken(u.email);
      await t.core.sequelize.query("UPDATE password_resets SET expiresAt = ? WHERE tokenHash = ?", {
        replacements: [new Date(Date.now() - 60_000), sha256(token)],
      });
      expectError(await reset(token, "NewSecret456"), 400, "ERR_RESET_TOKEN_EXPIRED");
      // The password did not change.
      expect((await t.api.post("/auth/login/", { email: u.email, password: PASSWORD })).status).toBe(200);
    });

    it("keeps a token valid for 5 minutes", async () => {
      const u = await newUser();
      const { token } = await requestToken(u.email);
      const [rows] = await t.core.sequelize.query("SELECT expiresAt, createdAt FROM password_resets WHERE tokenHash = ?", { replacements: [sha256(token)] });
      const row = (rows as Array<{ expiresAt: string | Date; createdAt: string | Date }>)[0]!;
      const ttl = new Date(row.expiresAt).getTime() - new Date(row.createdAt).getTime();
      expect(Math.abs(ttl - 5 * 60_000)).toBeLessThan(2_000);
    });

    it("refuses an unknown token", async () => {
      expectError(await reset("x".repeat(43), "NewSecret456"), 400, "ERR_RESET_TOKEN_INVALID");
    });

    it("refuses weak passwords and a mismatched confirmation, and the token still works afterwards", async () => {
      const u = await newUser();
      const { token } = await requestToken(u.email);
      for (const weak of ["Ab1cdef", "lowercase123", "UPPERCASE123", "NoDigitsHere", "Symbol123!", "With Space12"]) {
        expectError(await reset(token, weak), 400, "ERR_PASSWORD_WEAK");
      }
      expectError(await reset(token, "NewSecret456", "NewSecret457"), 400, "ERR_PASSWORD_MISMATCH");
      expectError(await reset(token, "NewSecret456", ""), 400, "ERR_PASSWORD_MISMATCH");
      expect((await reset(token, "NewSecret456")).status).toBe(200);
      expect((await t.api.post("/auth/login/", { email: u.email, password: "NewSecret456" })).status).toBe(200);
    });

    it("a used token ends the user's other pending tokens", async () => {
      const u = await newUser();
      const first = await requestToken(u.email);
      const second = await requestToken(u.email);
      expect(second.token).not.toBe(first.token);
      expect((await reset(second.token, "NewSecret456")).status).toBe(200);
      expectError(await reset(first.token, "Other12345"), 400, "ERR_RESET_TOKEN_INVALID");
    });

    it("answers 200 to an unknown e-mail and sends nothing", async () => {
      const before = mails.length;
      const email = `nobody-${uid()}@t.test`;
      const r = await t.api.post("/auth/esquecisenha/", { email });
      expect(r.status).toBe(200);
      expect(mails.length).toBe(before);
    });

    it("sends nothing to an inactive user", async () => {
      const u = await newUser();
      expect((await t.api.put(`/users/${u.id}`, { active: false }, f.admin)).status).toBe(200);
      const before = mails.length;
      expect((await t.api.post("/auth/esquecisenha/", { email: u.email })).status).toBe(200);
      expect(mails.length).toBe(before);
    });

    it("writes the mail in the user's language", async () => {
      const u = await newUser();
      const cfg = await t.api.put(`/users/${u.id}/configs`, { language: "en" }, f.admin);
      expect(cfg.status).toBe(200);
      // The user's language wins over the request's.
      const { mail, token } = await requestToken(u.email, { "accept-language": "ru" });
      const read = readMail(mail.raw);
      expect(read.subject).toBe(UI.en.resetMailSubject);
      expect(read.subject).toBe("Password reset");
      expect(read.text).toContain(`Hello, ${u.name}!`);
      expect(read.text).toContain("We received a request to reset your password");
      expect(read.text).toContain(token);
    });

    it("without a language of the user, writes the mail in the request's language", async () => {
      const u = await newUser();
      const { mail } = await requestToken(u.email, { "accept-language": "es" });
      const read = readMail(mail.raw);
      expect(read.subject).toBe(UI.es.resetMailSubject);
      expect(read.text).toContain(u.name);
    });

    it("answers 502 ERR_MAIL_SEND_FAILED when the SMTP server cannot be reached, and works again once it can", async () => {
      const u = await newUser();
      const closed = await new Promise<number>((resolve) => {
        const s = new SMTPServer({ authOptional: true, logger: false });
        s.listen(0, "127.0.0.1", () => {
          const port = (s.server.address() as AddressInfo).port;
          s.close(() => resolve(port));
        });
      });
      const value = { host: "127.0.0.1", port: closed, secure: false, senderEmail: "noreply@atende.test" };
      expect((await t.api.put("/settings/global/smtp", { value }, master)).status).toBe(200);
      try {
        expectError(await t.api.post("/auth/esquecisenha/", { email: u.email }), 502, "ERR_MAIL_SEND_FAILED");
      } finally {
        expect((await t.api.put("/settings/global/smtp", { value: { ...value, port: smtpPort } }, master)).status).toBe(200);
      }
      await requestToken(u.email);
    });

    it("translates the reset errors", async () => {
      const ru = await t.api.post("/auth/redefinirsenha/", { token: "y".repeat(43), password: "NewSecret456", confirmPassword: "NewSecret456" }, null, { "accept-language": "ru" });
      expectError(ru, 400, "ERR_RESET_TOKEN_INVALID");
      expect(ru.body.message).toMatch(/[А-Яа-яЁё]/);
      const en = await t.api.post("/auth/redefinirsenha/", { token: "y".repeat(43), password: "NewSecret456", confirmPassword: "NewSecret456" }, null, { "accept-language": "en" });
      expect(en.body.message).toBe("This password reset link is invalid or has already been used. Request a new link.");
    });
  });
});
