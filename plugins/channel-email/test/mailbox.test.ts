/**
 * The IMAP side against a real Dovecot, with the SDK's fake core recording every call the
 * plugin makes: IDLE pushes, the polling fallback, reconnection after the server went away,
 * and the UID bookkeeping across plugin restarts and a UIDVALIDITY change (no message handed
 * to the core twice, none missed).
 */
import { ImapFlow } from "imapflow";
import { callChannel, type ConnectionRef, type InboundMessage } from "@openatende/plugin-sdk";
import { Dovecot, DovecotUser, resetUidValidity, startDovecot } from "./support/dovecot";
import { startSmtpSink, SmtpSink } from "./support/smtp-sink";
import { compose, messageId, uid, waitFor } from "./support/mail";
import { dropRedisNamespace, emailSettings, Harness, SERVICE, startHarness, useTestContext } from "./support/harness";

jest.setTimeout(60_000);

const alice: DovecotUser = { user: "alice", pass: "alice-pw" };
const bob: DovecotUser = { user: "bob", pass: "bob-pw" };
const carol: DovecotUser = { user: "carol", pass: "carol-pw" };
const dave: DovecotUser = { user: "dave", pass: "dave-pw" };

let dv: Dovecot;
let smtp: SmtpSink;
let namespace = "";

beforeAll(async () => {
  ({ namespace } = useTestContext());
  [dv, smtp] = await Promise.all([startDovecot([alice, bob, carol, dave]), startSmtpSink()]);
});
afterAll(async () => {
  await smtp?.stop();
  await dv?.destroy();
  if (namespace) await dropRedisNamespace(namespace);
});

async function customerMail(to: DovecotUser, text: string, extra: Record<string, unknown> = {}) {
  const id = messageId();
  const raw = await compose({ from: `Cliente ${text} <cliente-${uid()}@customer.test>`, to: `${to.user}@support.test`, subject: `Assunto ${text}`, text, messageId: id, ...extra });
  return { id, raw };
}

const inboundFor = (h: Harness, ref: ConnectionRef) => h.core.inbound.filter((m) => m.tenantId === ref.tenantId && m.connectionId === ref.connectionId);
const countBy = (list: InboundMessage[]) => list.reduce((m, x) => m.set(x.providerMessageId, (m.get(x.providerMessageId) ?? 0) + 1), new Map<string, number>());

async function uidValidityOf(u: DovecotUser): Promise<string> {
  const c = new ImapFlow({ host: dv.host, port: dv.port, secure: false, auth: { user: u.user, pass: u.pass }, logger: false });
  c.on("error", () => undefined);
  await c.connect();
  try {
    const s = await c.status("INBOX", { uidValidity: true });
    return String(s && s.uidValidity);
  } finally {
    await c.logout();
  }
}

describe("IMAP with IDLE (poll interval one minute, so only a push can be quick)", () => {
  let h: Harness;
  const ref = { tenantId: 11, connectionId: 1 };

  beforeAll(async () => {
    h = await startHarness({ pollIntervalMs: 60_000, backoffMs: { min: 100, max: 400 } });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it("connects, reports connected, and hands a new mail to the core within seconds", async () => {
    const res = await callChannel(h.broker, SERVICE, "connect", { ...ref, settings: emailSettings(dv, alice, smtp) });
    expect(res).toEqual({ status: "connected" });
    await waitFor("the connected report", () => h.core.statuses.find((s) => s.connectionId === ref.connectionId && s.status === "connected"));
    expect(h.channel().watcherOf(ref)!.idleSupported).toBe(true);

    const m = await customerMail(alice, "idle");
    const t0 = Date.now();
    await dv.append(alice, m.raw);
    const got = await waitFor("the pushed mail", () => inboundFor(h, ref).find((x) => x.providerMessageId === m.id), 10_000);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(got).toMatchObject({ ...ref, providerMessageId: m.id, body: "✉️ Assunto idle\n\nidle" });
    expect(got.from.externalId).toMatch(/^cliente-[0-9a-f]+@customer\.test$/);
    expect(got.from).toMatchObject({ name: "Cliente idle", email: got.from.externalId });
    expect(got.timestamp).toBeGreaterThan(1e12);
    expect(h.core.invalid).toEqual([]);
  });

  it("reconnects with backoff after the server went away, and reads what arrived meanwhile", async () => {
    h.core.reset();
    const before = await customerMail(alice, "before-restart");
    await dv.append(alice, before.raw);
    await waitFor("the mail before the restart", () => inboundFor(h, ref).find((x) => x.providerMessageId === before.id));

    // The server goes down; a message is delivered to the maildir meanwhile; the server comes back.
    const during = await customerMail(alice, "while-down");
    await dv.restart({
      downMs: 300,
      whileDown: async () => {
        await waitFor("the connecting report", () => h.core.statuses.find((s) => s.connectionId === ref.connectionId && s.status === "connecting"));
        dv.deliver(alice, during.raw);
      },
    });
    await waitFor("connected again", () => h.core.statuses.find((s) => s.connectionId === ref.connectionId && s.status === "connected"));
    await waitFor("the mail delivered while the server was down", () => inboundFor(h, ref).find((x) => x.providerMessageId === during.id));
    expect(h.core.statuses.filter((s) => s.connectionId === ref.connectionId).map((s) => s.status)).toEqual(["connecting", "connected"]);
    expect([...countBy(inboundFor(h, ref)).values()].every((n) => n === 1)).toBe(true);
  });

  it("after a plugin restart, reads none twice and misses none that arrived while it was down", async () => {
    const delivered = new Set(inboundFor(h, ref).map((m) => m.providerMessageId));
    await callChannel(h.broker, SERVICE, "disconnect", ref);
    h.core.reset();
    const a = await customerMail(alice, "down-1");
    const b = await customerMail(alice, "down-2");
    await dv.append(alice, a.raw);
    await dv.append(alice, b.raw);

    await h.restartPlugin();
    expect(await callChannel(h.broker, SERVICE, "connect", { ...ref, settings: emailSettings(dv, alice, smtp) })).toEqual({ status: "connected" });
    await waitFor("both mails of the downtime", () => inboundFor(h, ref).filter((x) => x.providerMessageId === a.id || x.providerMessageId === b.id).length === 2);
    await h.channel().watcherOf(ref)!.syncNow();
    const ids = inboundFor(h, ref).map((x) => x.providerMessageId);
    expect(ids).toEqual([a.id, b.id]);
    expect(ids.some((id) => delivered.has(id))).toBe(false);
  });

  it("when UIDVALIDITY changes, re-syncs: mail handed over before is not handed again, new mail is", async () => {
    const old = inboundFor(h, ref).map((m) => m.providerMessageId);
    expect(old.length).toBeGreaterThan(0);
    await callChannel(h.broker, SERVICE, "disconnect", ref);
    h.core.reset();
    const before = await uidValidityOf(alice);
    await new Promise((r) => setTimeout(r, 1100)); // Dovecot's new UIDVALIDITY is the current second
    resetUidValidity(dv, alice);
    const fresh = await customerMail(alice, "renumbered");
    await dv.append(alice, fresh.raw);
    expect(await uidValidityOf(alice)).not.toBe(before);

    await h.restartPlugin();
    await callChannel(h.broker, SERVICE, "connect", { ...ref, settings: emailSettings(dv, alice, smtp) });
    await waitFor("the mail after the renumbering", () => inboundFor(h, ref).find((x) => x.providerMessageId === fresh.id));
    await h.channel().watcherOf(ref)!.syncNow();
    expect(inboundFor(h, ref).map((x) => x.providerMessageId)).toEqual([fresh.id]);
  });

  it("a first sync imports the unread mail already in the box, not the read one", async () => {
    const seen = await customerMail(carol, "already-read");
    const unread = await customerMail(carol, "still-unread");
    await dv.append(carol, seen.raw, ["\\Seen"]);
    await dv.append(carol, unread.raw);
    const r2 = { tenantId: 11, connectionId: 2 };
    await callChannel(h.broker, SERVICE, "connect", { ...r2, settings: emailSettings(dv, carol, smtp) });
    await waitFor("the unread mail", () => inboundFor(h, r2).find((x) => x.providerMessageId === unread.id));
    await h.channel().watcherOf(r2)!.syncNow();
    expect(inboundFor(h, r2).map((x) => x.providerMessageId)).toEqual([unread.id]);
    await callChannel(h.broker, SERVICE, "disconnect", r2);
  });

});

describe("IMAP without IDLE: the polling fallback", () => {
  let h: Harness;
  const ref = { tenantId: 12, connectionId: 1 };

  beforeAll(async () => {
    h = await startHarness({ idle: false, pollIntervalMs: 400 });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it("says it polls, and picks new mail up at the next poll", async () => {
    const res = await callChannel(h.broker, SERVICE, "connect", { ...ref, settings: emailSettings(dv, bob, smtp) });
    expect(res.status).toBe("connected");
    expect(res.detail).toBe("IMAP IDLE off: polling every 0.4 s");
    expect(h.channel().watcherOf(ref)!.idleSupported).toBe(false);
    const syncs = h.channel().watcherOf(ref)!.syncs;
    const m = await customerMail(bob, "polled");
    await dv.append(bob, m.raw);
    await waitFor("the polled mail", () => inboundFor(h, ref).find((x) => x.providerMessageId === m.id), 5000);
    expect(h.channel().watcherOf(ref)!.syncs).toBeGreaterThan(syncs);
  });
});

// Last: after a second failed login Dovecot delays every login from this address for seconds.
describe("a wrong password", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ pollIntervalMs: 60_000, backoffMs: { min: 100, max: 400 } });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it("a refused login answers disconnected with the reason, and is not retried", async () => {
    const r3 = { tenantId: 11, connectionId: 3 };
    const res = await callChannel(h.broker, SERVICE, "connect", { ...r3, settings: emailSettings(dv, dave, smtp, { imapPassword: "wrong" }) });
    expect(res.status).toBe("disconnected");
    expect(res.detail).toMatch(/^ERR_EMAIL_AUTH_FAILED: /);
    await waitFor("the disconnected report", () => h.core.statuses.find((s) => s.connectionId === 3 && s.status === "disconnected"));
    await new Promise((r) => setTimeout(r, 600));
    expect(h.core.statuses.filter((s) => s.connectionId === 3).map((s) => s.status)).toEqual(["disconnected"]);
    expect(await callChannel(h.broker, SERVICE, "status", r3)).toMatchObject({ status: "disconnected" });
  });
});
