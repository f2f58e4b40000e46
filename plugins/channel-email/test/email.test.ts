/**
 * The e-mail channel inside a real core (MariaDB, Redis, the plugin host loading plugins/),
 * a real Dovecot holding the support mailbox and a local SMTP server receiving the replies.
 * Everything is checked through the API an agent or admin uses.
 */
import { pluginContext, withPluginContext, type InboundMessage, type InboundResult } from "@openatende/plugin-sdk";
import { startCore, createTenant, TestCore, TenantFixture, Auth } from "@openatende/core/testkit";
import plugin from "../src/service";
import { Dovecot, DovecotUser, freePort, startDovecot } from "./support/dovecot";
import { startSmtpSink, SmtpSink } from "./support/smtp-sink";
import { bounce, compose, messageId, uid, waitFor } from "./support/mail";
import { dropRedisNamespace, emailSettings } from "./support/harness";

jest.setTimeout(90_000);

const support: DovecotUser = { user: "support", pass: "support-pw" };
const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000" + "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082", "hex");
const PDF = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");

interface Message {
  id: number;
  body: string | null;
  fromMe: boolean;
  status: string;
  failReason: string | null;
  providerId: string | null;
  quotedMsgId: number | null;
  mediaType: string | null;
  media: { fileName: string; mimeType: string; size: number; url: string } | null;
}

let t: TestCore;
let a: TenantFixture;
let dv: Dovecot;
let smtp: SmtpSink;
/** The core's Moleculer namespace, also the prefix of the plugin's Redis keys. */
const namespace = `oa-email-${uid()}`;
let conn: { id: number; token: string };
/** The one message appended twice to the mailbox. */
const twiceId = messageId("twice");
/** Every channels.inbound call the plugin made, with the core's answer. */
const handed: Array<{ params: InboundMessage; result: InboundResult }> = [];

async function messagesOf(ticketId: number, who: Auth = a.admin): Promise<Message[]> {
  const r = await t.api.get(`/messages/${ticketId}?pageSize=100`, who);
  expect(r.status).toBe(200);
  return r.body.messages;
}

async function download(url: string, who: Auth = a.admin): Promise<Buffer> {
  const res = await fetch(t.url + url, { headers: { authorization: `Bearer ${who.token}`, "x-session-id": who.sessionId } });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** Waits until the plugin handed the message with this provider id to the core; answers the core's answer. */
const handedOver = (providerId: string) => waitFor(`${providerId} at channels.inbound`, () => handed.find((h) => h.params.providerMessageId === providerId)?.result);

beforeAll(async () => {
  [dv, smtp] = await Promise.all([startDovecot([support]), startSmtpSink()]);
  // The test Dovecot and SMTP sink are on loopback: the platform allow-lists it (outbound URL policy).
  t = await startCore({ env: { NAMESPACE: namespace, OUTBOUND_URL_ALLOWLIST: "127.0.0.1" } });
  const call = t.core.broker.call.bind(t.core.broker);
  // A pass-through spy: the promise Moleculer answers is handed back as is (it carries the
  // call's context, whose meta the gateway reads).
  t.core.broker.call = ((name: string, params?: unknown, opts?: unknown) => {
    const p = call(name as never, params as never, opts as never);
    if (name === "channels.inbound") p.then((result) => handed.push({ params: params as InboundMessage, result: result as InboundResult }), () => undefined);
    return p;
  }) as typeof t.core.broker.call;
  a = await createTenant(t, { tier: "PLUS" });
  const created = await t.api.post("/connections", { name: "E-mail suporte", type: "channel-email", queueId: a.queueIds[0], settings: emailSettings(dv, support, smtp) }, a.admin);
  expect(created.status).toBe(201);
  expect(created.body.settings).toMatchObject({ imapPassword: "********", smtpPassword: "********", imapHost: dv.host });
  conn = { id: created.body.id, token: created.body.token };
  const connected = await t.api.post(`/connections/${conn.id}/connect`, {}, a.admin);
  expect(connected.status).toBe(200);
  expect(connected.body.status).toBe("connected");
});

afterAll(async () => {
  await t?.stop();
  await smtp?.stop();
  await dv?.destroy();
  await dropRedisNamespace(namespace);
});

describe("e-mail in", () => {
  const first = messageId("pedido");
  const reply = messageId("reply");
  let ticketId: number;

  it("a new mail becomes a ticket of the sender with the mail's text", async () => {
    await dv.append(support, await compose({ from: "Maria Silva <Maria@Customer.test>", to: "support@support.test", subject: "Pedido 123", text: "Olá, meu pedido não chegou.", messageId: first }));
    const res = await handedOver(first);
    expect(res.duplicate).toBe(false);
    ticketId = res.ticketId;
    const msgs = await messagesOf(ticketId);
    expect(msgs.map((m) => [m.body, m.fromMe, m.providerId])).toEqual([["✉️ Pedido 123\n\nOlá, meu pedido não chegou.", false, first]]);
    const ticket = (await t.api.get(`/tickets/${ticketId}`, a.admin)).body;
    expect(ticket).toMatchObject({ status: "pending", queueId: a.queueIds[0] });
    const contact = (await t.api.get(`/contacts/${ticket.contactId}`, a.admin)).body;
    expect(contact).toMatchObject({ name: "Maria Silva", email: "maria@customer.test" });
  });

  it("a reply in the thread (In-Reply-To / References) lands in the same ticket, linked to the message it answers, without the quoted history", async () => {
    const text = "Segue o número do pedido: 123.\n\nOn Mon, 1 Jan 2024 at 10:00, Suporte <support@support.test> wrote:\n> Olá, meu pedido não chegou.\n";
    await dv.append(support, await compose({ from: "Maria Silva <maria@customer.test>", to: "support@support.test", subject: "Re: Pedido 123", text, messageId: reply, inReplyTo: first, references: [first] }));
    const res = await handedOver(reply);
    expect(res.ticketId).toBe(ticketId);
    const msgs = await messagesOf(ticketId);
    const firstMsg = msgs.find((m) => m.providerId === first)!;
    expect(msgs.find((m) => m.providerId === reply)).toMatchObject({ body: "Segue o número do pedido: 123.", quotedMsgId: firstMsg.id });
  });

  it("attachments arrive as media of the ticket, byte for byte", async () => {
    const id = messageId("anexos");
    await dv.append(
      support,
      await compose({
        from: "maria@customer.test",
        to: "support@support.test",
        subject: "Re: Pedido 123",
        text: "Foto e nota fiscal.",
        messageId: id,
        inReplyTo: reply,
        references: [first, reply],
        attachments: [
          { filename: "foto.png", content: PNG, contentType: "image/png" },
          { filename: "nota fiscal.pdf", content: PDF, contentType: "application/pdf" },
        ],
      }),
    );
    await handedOver(`${id}#2`);
    const msgs = await messagesOf(ticketId);
    const mine = msgs.filter((m) => m.providerId?.startsWith(id));
    expect(mine.map((m) => [m.providerId, m.body, m.mediaType, m.media?.fileName, m.media?.mimeType, m.media?.size])).toEqual([
      [id, "Foto e nota fiscal.", null, undefined, undefined, undefined],
      [`${id}#1`, null, "image", "foto.png", "image/png", PNG.length],
      [`${id}#2`, null, "document", "nota_fiscal.pdf", "application/pdf", PDF.length],
    ]);
    expect((await download(mine[1].media!.url)).equals(PNG)).toBe(true);
    expect((await download(mine[2].media!.url)).equals(PDF)).toBe(true);
  });

  it("HTML mail is shown as text, and its HTML is kept sanitised: no script, no event handler, no javascript: link, no remote image", async () => {
    const id = messageId("html");
    const html =
      '<div><p>Texto em <b>negrito</b> e <a href="https://loja.test/pedido/123">link</a>.</p>' +
      '<script>alert("xss")</script><img src="x" onerror="alert(1)"><img src="https://tracker.test/pixel.gif">' +
      '<a href="javascript:alert(2)">clique</a><p onclick="alert(3)" style="color:red">fim</p><iframe src="https://evil.test"></iframe></div>';
    await dv.append(support, await compose({ from: "maria@customer.test", to: "support@support.test", subject: "Re: Pedido 123", html, messageId: id, inReplyTo: reply }));
    await handedOver(id);
    const m = (await messagesOf(ticketId)).find((x) => x.providerId === id)!;
    expect(m.body).toContain("Texto em negrito e link [https://loja.test/pedido/123].");
    expect(m.body).toContain("fim");
    expect(m.body).not.toMatch(/alert|xss|script/);
    expect(m.media).toMatchObject({ fileName: "email.html", mimeType: "text/html" });
    const saved = (await download(m.media!.url)).toString("utf8");
    expect(saved).toContain("<b>negrito</b>");
    expect(saved).toContain('href="https://loja.test/pedido/123"');
    expect(saved).not.toMatch(/<script|alert|onerror|onclick|javascript:|tracker\.test|<iframe|evil\.test|style=/i);
  });

  it("the same mail delivered twice to the mailbox is stored once", async () => {
    const before = (await messagesOf(ticketId)).length;
    const id = twiceId;
    const raw = await compose({ from: "maria@customer.test", to: "support@support.test", subject: "Re: Pedido 123", text: "Duplicada?", messageId: id });
    await dv.append(support, raw);
    await dv.append(support, raw);
    await waitFor("both copies at the core", () => handed.filter((h) => h.params.providerMessageId === id).length === 2);
    expect(handed.filter((h) => h.params.providerMessageId === id).map((h) => h.result.duplicate)).toEqual([false, true]);
    expect((await messagesOf(ticketId)).length).toBe(before + 1);
  });
});

describe("e-mail out", () => {
  let ticketId: number;
  let lastCustomerId: string;
  let firstId: string;

  beforeAll(async () => {
    firstId = messageId("joao-1");
    lastCustomerId = messageId("joao-2");
    await dv.append(support, await compose({ from: "João <joao@customer.test>", to: "support@support.test", subject: "Troca de produto", text: "Quero trocar.", messageId: firstId }));
    await dv.append(support, await compose({ from: "João <joao@customer.test>", to: "support@support.test", subject: "RE: Troca de produto", text: "É o tamanho.", messageId: lastCustomerId, inReplyTo: firstId, references: [firstId] }));
    ticketId = (await handedOver(lastCustomerId)).ticketId;
    expect((await t.api.put(`/tickets/${ticketId}`, { status: "open" }, a.admin)).status).toBe(200);
  });

  it("an agent's reply goes by SMTP as a reply in the customer's thread", async () => {
    const sent = await t.api.post(`/messages/${ticketId}`, { body: "Pode enviar o produto de volta." }, a.admin);
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ fromMe: true, status: "sent" });
    const mail = await smtp.waitFor((m) => m.to.includes("joao@customer.test") && !!m.parsed.text?.includes("Pode enviar"));
    expect(mail.parsed.subject).toBe("Re: Troca de produto");
    expect(mail.parsed.inReplyTo).toBe(lastCustomerId);
    expect([mail.parsed.references].flat()).toEqual([firstId, lastCustomerId]);
    expect(mail.parsed.from?.value[0]).toMatchObject({ address: "support@support.test", name: "Suporte support" });
    expect(mail.parsed.messageId).toBe(sent.body.providerId);
    expect(mail.from).toBe("support@support.test");
  });

  it("an attachment goes with the reply, and the next reply continues the same References chain", async () => {
    const data = Buffer.from("recibo de troca nº 42\n");
    const sent = await t.api.post(`/messages/${ticketId}`, { body: "Segue o recibo.", medias: [{ fileName: "recibo.txt", mimeType: "text/plain", data: data.toString("base64") }] }, a.admin);
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ status: "sent", mediaType: "document" });
    const mail = await smtp.waitFor((m) => m.parsed.messageId === sent.body.providerId);
    expect(mail.parsed.text?.trim()).toBe("Segue o recibo.");
    expect(mail.parsed.attachments.map((x) => [x.filename, x.contentType, x.content.toString()])).toEqual([["recibo.txt", "text/plain", data.toString()]]);
    expect(mail.parsed.inReplyTo).toBe(lastCustomerId);
    const refs = [mail.parsed.references].flat();
    expect(refs.slice(0, 2)).toEqual([firstId, lastCustomerId]);
    expect(refs).toHaveLength(3); // plus our first reply
  });

  it("a bounce of a reply marks it failed with the receiving server's reason", async () => {
    const sent = (await t.api.post(`/messages/${ticketId}`, { body: "Vai voltar." }, a.admin)).body;
    expect(sent.status).toBe("sent");
    await dv.append(support, bounce({ to: "support@support.test", originalMessageId: sent.providerId, recipient: "joao@customer.test" }));
    const failed = await waitFor("the bounced reply marked failed", async () => (await messagesOf(ticketId)).find((m) => m.id === sent.id && m.status === "failed"));
    expect(failed.failReason).toBe("5.1.1 550 5.1.1 User unknown");
    // The bounce itself is not a customer's message.
    expect((await messagesOf(ticketId)).filter((m) => !m.fromMe).map((m) => m.providerId)).toEqual([firstId, lastCustomerId]);
  });

  it("a reply the SMTP server refuses is recorded failed, with the server's answer as the reason", async () => {
    const id = messageId("reject");
    await dv.append(support, await compose({ from: "reject-me@customer.test", to: "support@support.test", subject: "Oi", text: "Oi", messageId: id }));
    const tid = (await handedOver(id)).ticketId;
    await t.api.put(`/tickets/${tid}`, { status: "open" }, a.admin);
    const sent = await t.api.post(`/messages/${tid}`, { body: "Olá!" }, a.admin);
    expect(sent.status).toBe(201);
    expect(sent.body.status).toBe("failed");
    expect(sent.body.failReason).toMatch(/^ERR_EMAIL_FAILED: .*550.*Mailbox unavailable/);
  });
});

describe("restart of the plugin", () => {
  it("mail that arrived while it was down is read, and no mail is read twice", async () => {
    expect((await t.api.post(`/connections/${conn.id}/disconnect`, {}, a.admin)).body.status).toBe("disconnected");
    const down = [messageId("down-1"), messageId("down-2")];
    for (const id of down) await dv.append(support, await compose({ from: "ana@customer.test", to: "support@support.test", subject: "Enquanto parado", text: id, messageId: id }));

    const b = t.core.broker;
    const before = b.getLocalService({ name: "channel-email", version: 1 })!;
    // Started again the way the plugin host starts it: with the platform context it gave (its
    // Redis keys under the installation's prefix, where the cursor is).
    const context = pluginContext(before);
    await b.destroyService(before);
    b.createService(withPluginContext(plugin.schema, context));
    await b.waitForServices(["v1.channel-email"]);
    expect((await t.api.post(`/connections/${conn.id}/connect`, {}, a.admin)).body.status).toBe("connected");

    for (const id of down) await handedOver(id);
    const svc = b.getLocalService({ name: "channel-email", version: 1 }) as unknown as { channel: import("../src/channel").EmailChannel };
    await svc.channel.watcherOf({ tenantId: a.tenantId, connectionId: conn.id })!.syncNow();
    // Over the whole file, the only message handed over twice is the one the mailbox got twice.
    const counts = new Map<string, number>();
    for (const h of handed) counts.set(h.params.providerMessageId, (counts.get(h.params.providerMessageId) ?? 0) + 1);
    expect([...counts].filter(([, n]) => n > 1)).toEqual([[twiceId, 2]]);
  });
});

describe("test IMAP / test SMTP of the settings screen", () => {
  const settings = () => emailSettings(dv, support, smtp);

  it("answer OK with the right credentials", async () => {
    const imap = await t.api.post("/channel-email/test-imap", { settings: settings() }, a.admin);
    expect(imap.status).toBe(200);
    expect(imap.body).toMatchObject({ ok: true, code: "OK" });
    expect(imap.body.detail).toMatch(/^INBOX: \d+ message\(s\); IDLE supported$/);
    const s = await t.api.post("/channel-email/test-smtp", { settings: settings() }, a.admin);
    expect(s.body).toMatchObject({ ok: true, code: "OK" });
  });

  it("test a saved connection whose passwords the screen only shows masked, through its token", async () => {
    const shown = (await t.api.get(`/connections/${conn.id}`, a.admin)).body;
    expect(shown.settings.imapPassword).toBe("********");
    expect((await t.api.post("/channel-email/test-imap", { settings: shown.settings, token: shown.token }, a.admin)).body).toMatchObject({ ok: true, code: "OK" });
    expect((await t.api.post("/channel-email/test-smtp", { settings: shown.settings, token: shown.token }, a.admin)).body).toMatchObject({ ok: true, code: "OK" });
    const noToken = await t.api.post("/channel-email/test-imap", { settings: shown.settings }, a.admin);
    expect(noToken.status).toBe(400);
    expect(noToken.body).toMatchObject({ error: "ERR_VALIDATION" });
  });

  it("are for admins, and check only the half they test", async () => {
    expect((await t.api.post("/channel-email/test-imap", { settings: settings() }, a.agent)).status).toBe(403);
    expect((await t.api.post("/channel-email/test-imap", { settings: settings() })).status).toBe(401);
    const s = settings();
    const imapOnly = Object.fromEntries(Object.entries(s).filter(([k]) => k.startsWith("imap")));
    expect((await t.api.post("/channel-email/test-imap", { settings: imapOnly }, a.admin)).body).toMatchObject({ ok: true });
    const bad = await t.api.post("/channel-email/test-smtp", { settings: { ...s, fromAddress: "not-an-address" } }, a.admin);
    expect(bad.status).toBe(400);
  });

  it("the contract's test (POST /connections/test) probes both servers", async () => {
    const ok = await t.api.post("/connections/test", { type: "channel-email", settings: settings() }, a.admin);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, imap: { ok: true, code: "OK" }, smtp: { ok: true, code: "OK" } });
    const bad = await t.api.post("/connections/test", { type: "channel-email", settings: { ...settings(), smtpPassword: "nope" } }, a.admin);
    expect(bad.body).toMatchObject({ ok: false, imap: { ok: true }, smtp: { ok: false, code: "ERR_EMAIL_AUTH_FAILED" } });
  });

  it("the core refuses a connection without every e-mail field", async () => {
    const { smtpHost: _drop, ...partial } = settings();
    const r = await t.api.post("/connections", { name: `incompleta ${uid()}`, type: "channel-email", settings: partial }, a.admin);
    expect(r.status).toBe(400);
    expect(r.body.data.field).toBe("settings.smtpHost");
  });

  it("the core refuses internal mail servers the platform does not allow (outbound URL policy), on create and test", async () => {
    for (const [field, host] of [["imapHost", "10.1.2.3"], ["smtpHost", "169.254.169.254"], ["imapHost", "localhost"], ["smtpHost", "::1"]] as const) {
      const r = await t.api.post("/connections", { name: `interna ${uid()}`, type: "channel-email", settings: { ...settings(), [field]: host } }, a.admin);
      expect({ status: r.status, error: r.body.error, field: r.body.data?.field }).toEqual({ status: 400, error: "ERR_URL_NOT_ALLOWED", field: `settings.${field}` });
    }
    const tested = await t.api.post("/connections/test", { type: "channel-email", settings: { ...settings(), smtpHost: "192.168.0.1" } }, a.admin);
    expect({ status: tested.status, error: tested.body.error }).toEqual({ status: 400, error: "ERR_URL_NOT_ALLOWED" });
    // The form's own IMAP test is the plugin's: it refuses too.
    expect((await t.api.post("/channel-email/test-imap", { settings: { ...settings(), imapHost: "10.1.2.3" } }, a.admin)).body).toMatchObject({ ok: false, code: "ERR_URL_NOT_ALLOWED" });
  });

  // Last: after a second failed login Dovecot delays every login from this address for seconds.
  it("say what is wrong: refused login, nothing listening, TLS against a plain port", async () => {
    const wrongPass = await t.api.post("/channel-email/test-imap", { settings: { ...settings(), imapPassword: "nope" } }, a.admin);
    expect(wrongPass.body).toMatchObject({ ok: false, code: "ERR_EMAIL_AUTH_FAILED" });
    expect(wrongPass.body.detail).toMatch(/authentication failed/i);
    const closed = await freePort();
    expect((await t.api.post("/channel-email/test-imap", { settings: { ...settings(), imapPort: closed } }, a.admin)).body).toMatchObject({ ok: false, code: "ERR_EMAIL_CONNECTION_REFUSED" });
    expect((await t.api.post("/channel-email/test-imap", { settings: { ...settings(), imapTls: true } }, a.admin)).body).toMatchObject({ ok: false, code: "ERR_EMAIL_TLS" });
    const smtpPass = await t.api.post("/channel-email/test-smtp", { settings: { ...settings(), smtpPassword: "nope" } }, a.admin);
    expect(smtpPass.body).toMatchObject({ ok: false, code: "ERR_EMAIL_AUTH_FAILED" });
    expect(smtpPass.body.detail).toMatch(/535/);
    expect((await t.api.post("/channel-email/test-smtp", { settings: { ...settings(), smtpPort: closed } }, a.admin)).body).toMatchObject({ ok: false, code: "ERR_EMAIL_CONNECTION_REFUSED" });
  });
});
