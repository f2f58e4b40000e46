/**
 * wuzapi's webhook into the real core (the gateway's stream route, MariaDB, Redis): the
 * signature checked on the exact bytes in both of wuzapi's formats, replays and concurrent
 * duplicates stored once, and what each event becomes (messages, changes, acks).
 */
import { startCore, createTenant, TestCore, TenantFixture, uid } from "@openatende/core/testkit";
import { FakeWuzapi } from "./fake-wuzapi";
import { receiptEvent, messageEvent } from "./events";
import { goJson, hmacHex } from "./wire";
import { connectWuzapi, messagesOf, sleep, ticketsOf, ticketWithMessages, WuzapiConnection, LOOPBACK_FAKES } from "./helpers";

describe("wuzapi webhooks, real core", () => {
  let api: FakeWuzapi;
  let t: TestCore;
  let f: TenantFixture;
  let c: WuzapiConnection;

  beforeAll(async () => {
    api = await FakeWuzapi.start();
    t = await startCore({ env: LOOPBACK_FAKES });
    f = await createTenant(t, { tier: "PLUS" });
    c = await connectWuzapi(t, f, api, { name: "WhatsApp webhook", linked: true });
    expect(c.status).toBe("connected");
  });
  afterAll(async () => {
    await t?.stop();
    await api?.close();
  });

  const customer = () => ({ jid: `55119${Math.floor(10_000_000 + Math.random() * 89_999_999)}@s.whatsapp.net`, name: `Ana ${uid()}` });
  const text = (who: { jid: string; name: string }, body: string, extra: Record<string, unknown> = {}) =>
    messageEvent({ chat: who.jid, pushName: who.name, message: { conversation: body }, ...extra });

  describe("signature", () => {
    for (const format of ["json", "form"] as const) {
      it(`${format}: a wrong or missing x-hmac-signature is refused with 401 and nothing is stored; signed right it goes in`, async () => {
        const who = customer();
        const event = text(who, `não devia entrar (${format})`);
        for (const signature of ["wrong", "missing"] as const) {
          const r = await api.post(c.user.token, event, { origin: t.url, format, signature });
          expect(r.status).toBe(401);
          expect(r.body).toMatchObject({ error: "ERR_TOKEN_INVALID", data: { reason: "webhook-signature" } });
        }
        await sleep(200);
        expect(await ticketsOf(t, f.admin, who.name)).toEqual([]);
        const ok = await api.post(c.user.token, event, { origin: t.url, format });
        expect(ok).toMatchObject({ status: 200, body: { ok: true, result: "stored" } });
        const { messages } = await ticketWithMessages(t, f.admin, who.name, 1);
        expect(messages[0].body).toBe(`não devia entrar (${format})`);
      });
    }

    it("the signature covers the exact bytes: a body changed after signing is refused, a key of another connection too", async () => {
      const who = customer();
      const u = api.user(c.user.token);
      const body = goJson({ ...text(who, "original"), userID: String(u.id), instanceName: u.name });
      const tampered = body.replace("original", "alterado");
      const url = `${t.url}/api/wuzapi/${c.token}/webhook`;
      const send = (b: string, sig: string) => fetch(url, { method: "POST", headers: { "content-type": "application/json", "x-hmac-signature": sig }, body: b });
      expect((await send(tampered, hmacHex(body, u.hmacKey))).status).toBe(401);
      expect((await send(body, hmacHex(body, "another-connection-key-0123456789abcdef"))).status).toBe(401);
      // Re-serialising would lose Go's escapes ("\u003c"): the plugin checks the bytes as sent.
      const escaped = goJson({ ...text(who, "<b>& ok</b>"), userID: String(u.id), instanceName: u.name });
      expect(escaped).toContain("\\u003cb\\u003e\\u0026 ok");
      expect((await send(escaped, hmacHex(escaped, u.hmacKey))).status).toBe(200);
      const { messages } = await ticketWithMessages(t, f.admin, who.name, 1);
      expect(messages.map((m) => m.body)).toEqual(["<b>& ok</b>"]);
    });

    it("an unknown token or a disconnected connection takes nothing (404)", async () => {
      const r = await fetch(`${t.url}/api/wuzapi/${"x".repeat(24)}/webhook`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      expect(r.status).toBe(404);
      const off = await connectWuzapi(t, f, api, { name: "WhatsApp desligado", linked: true });
      await t.api.post(`/connections/${off.id}/disconnect`, {}, f.admin);
      const who = customer();
      expect((await api.post(off.user.token, text(who, "tarde demais"), { origin: t.url })).status).toBe(404);
    });
  });

  describe("duplicates", () => {
    it("a replayed delivery stores nothing new", async () => {
      const who = customer();
      const event = text(who, "Olá, vocês entregam no sábado?");
      expect((await api.post(c.user.token, event, { origin: t.url })).body).toMatchObject({ result: "stored" });
      const again = await api.post(c.user.token, event, { origin: t.url, format: "form" });
      expect(again).toMatchObject({ status: 200, body: { ok: true, result: "duplicate" } });
      await sleep(200);
      const [ticket] = await ticketsOf(t, f.admin, who.name);
      expect(await messagesOf(t, f.admin, ticket.id)).toHaveLength(1);
      expect(await ticketsOf(t, f.admin, who.name)).toHaveLength(1);
    });

    it("the same message delivered ten times at once is stored once", async () => {
      const who = customer();
      const event = text(who, "mensagem em rajada");
      const all = await Promise.all(Array.from({ length: 10 }, (_, i) => api.post(c.user.token, event, { origin: t.url, format: i % 2 ? "form" : "json" })));
      expect(all.map((r) => r.status)).toEqual(Array(10).fill(200));
      expect(all.filter((r) => r.body.result === "stored")).toHaveLength(1);
      const { ticket, messages } = await ticketWithMessages(t, f.admin, who.name, 1);
      await sleep(200);
      expect(messages).toHaveLength(1);
      expect(await messagesOf(t, f.admin, ticket.id)).toHaveLength(1);
    });
  });

  describe("receipts", () => {
    it("Delivered and Read move the agent's message forward, never back; ReadSelf changes nothing", async () => {
      const who = customer();
      await api.post(c.user.token, text(who, "quero falar com alguém"), { origin: t.url });
      const { ticket } = await ticketWithMessages(t, f.admin, who.name, 1);
      expect((await t.api.put(`/tickets/${ticket.id}`, { status: "open" }, f.agent)).status).toBe(200);
      const sent = await t.api.post(`/messages/${ticket.id}`, { body: "Olá! Como posso ajudar?" }, f.agent);
      expect(sent.body).toMatchObject({ status: "sent" });
      const id = sent.body.providerId as string;
      const status = async () => (await messagesOf(t, f.admin, ticket.id)).find((m) => m.providerId === id)!.status;

      await api.post(c.user.token, receiptEvent({ chat: who.jid, ids: [id], state: "Delivered" }), { origin: t.url, format: "form" });
      expect(await status()).toBe("delivered");
      await api.post(c.user.token, receiptEvent({ chat: who.jid, ids: [id], state: "ReadSelf" }), { origin: t.url });
      expect(await status()).toBe("delivered");
      const read = await api.post(c.user.token, receiptEvent({ chat: who.jid, ids: [id], state: "Read" }), { origin: t.url });
      expect(read.body).toMatchObject({ result: "acked" });
      expect(await status()).toBe("read");
      await api.post(c.user.token, receiptEvent({ chat: who.jid, ids: [id], state: "Delivered" }), { origin: t.url });
      expect(await status()).toBe("read");
    });
  });
});
