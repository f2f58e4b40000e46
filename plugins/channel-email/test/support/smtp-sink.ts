/**
 * A local SMTP server (smtp-server, the library nodemailer's authors test with) that keeps
 * what it receives: AUTH PLAIN/LOGIN against one user, no TLS, and recipients whose address
 * starts with "reject" refused with a 550, as a real server refuses an unknown mailbox.
 */
import { SMTPServer } from "smtp-server";
import { simpleParser, ParsedMail } from "mailparser";
import { freePort } from "./dovecot";

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: Buffer;
  parsed: ParsedMail;
}

export interface SmtpSink {
  host: string;
  port: number;
  user: string;
  pass: string;
  received: ReceivedMail[];
  waitFor(pred: (m: ReceivedMail) => boolean, ms?: number): Promise<ReceivedMail>;
  stop(): Promise<void>;
}

export async function startSmtpSink(user = "smtp-user", pass = "smtp-pass"): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    authMethods: ["PLAIN", "LOGIN"],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === user && auth.password === pass) return cb(null, { user });
      return cb(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
    },
    onRcptTo(address, _session, cb) {
      if (address.address.toLowerCase().startsWith("reject")) return cb(Object.assign(new Error("5.1.1 Mailbox unavailable"), { responseCode: 550 }));
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        const raw = Buffer.concat(chunks);
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          parsed: await simpleParser(raw),
        });
        cb();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  server.on("error", () => undefined);
  return {
    host: "127.0.0.1",
    port,
    user,
    pass,
    received,
    async waitFor(pred, ms = 10_000) {
      const t0 = Date.now();
      for (;;) {
        const m = received.find(pred);
        if (m) return m;
        if (Date.now() - t0 > ms) throw new Error(`no matching mail reached the SMTP server in ${ms} ms (got ${received.length})`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
