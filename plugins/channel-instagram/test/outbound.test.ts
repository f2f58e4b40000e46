/**
 * Agents' replies out to Instagram from a real core (gateway, MariaDB, Redis) against the
 * local Graph API, in both flavours: texts split at 1000 bytes where a reader expects, files
 * by URL or by a signed link, one send per core message id, the messaging window (24 hours,
 * HUMAN_AGENT up to 7 days when allowed, nothing beyond), back-off when Meta throttles, and an
 * expired token shown as a connection needing new credentials.
 */
import { createTenant, startCore, uid, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import type { SendResult } from "@openatende/plugin-sdk";
import { FakeGraph } from "./fake-graph";
import { connectInstagram, messagesOf, ticketWithMessages, waitFor, LOOPBACK_FAKES, type IgConnection } from "./helpers";

const DAY = 24 * 3600_000;

describe("instagram outbound, real core", () => {
  let graph: FakeGraph;
  let t: TestCore;
  let f: TenantFixture;
  let c: IgConnection;
  let svc: { settings: { retryMs: number[] } };

  beforeAll(async () => {
    graph = await FakeGraph.start();
    t = await startCore({ env: LOOPBACK_FAKES });
    f = await createTenant(t, { tier: "PLUS" });
    c = await connectInstagram(t, f, graph, { name: "Instagram da loja" });
    svc = t.core.broker.getLocalService({ name: "channel-instagram", version: 1 }) as unknown as typeof svc;
    // Throttled calls wait 4^n seconds in production: milliseconds here.
    svc.settings.retryMs = [20, 40, 80];
  });
  afterAll(async () => {
    await t?.stop();
    await graph?.close();
  });

  let ids = 880000;
  const send = (conn: IgConnection, to: string, message: Record<string, unknown>, messageId = ++ids) =>
    t.core.broker.call("v1.channel-instagram.send", { tenantId: f.tenantId, connectionId: conn.id, to: { externalId: to }, message, messageId }) as Promise<SendResult>;
  /** A customer who wrote `ago` ms ago (their message stored, so the window counts from it). */
  const customerWhoWrote = async (conn: IgConnection, ago = 0) => {
    const name = `Bia ${uid()}`;
    const igsid = graph.addUser(name);
    const res = await graph.post(conn.webhook, graph.envelope(conn.account, [graph.message(conn.account, igsid, { text: "Olá", at: Date.now() - ago })]), conn.appSecret);
    expect(res.body.results).toEqual(["stored"]);
    return { name, igsid };
  };
  const sendsTo = (igsid: string) => graph.sends.filter((s) => s.body.recipient.id === igsid);

  it("an agent's reply goes to the account's messages edge with its token, inside the 24-hour window", async () => {
    const who = await customerWhoWrote(c);
    const { ticket } = await ticketWithMessages(t, f.admin, who.name, 1);
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: "open" }, f.agent)).status).toBe(200);
    const r = await t.api.post(`/messages/${ticket.id}`, { body: "Oi! Em que posso ajudar?" }, f.agent);
    expect(r.body).toMatchObject({ fromMe: true, status: "sent" });
    const [sent] = sendsTo(who.igsid);
    expect(sent.path).toBe(`/v23.0/${c.account.igAccountId}/messages`);
    expect(sent.body).toEqual({ recipient: { id: who.igsid }, messaging_type: "RESPONSE", message: { text: "Oi! Em que posso ajudar?" } });
    expect(r.body.providerId).toBe(sent.mid);
  });

  it("the Facebook Page flavour sends through the Page with the Page's token", async () => {
    const p = await connectInstagram(t, f, graph, { name: `Página ${uid()}`, account: graph.addAccount("page") });
    expect(p.status).toBe("connected");
    const who = await customerWhoWrote(p);
    const res = await send(p, who.igsid, { kind: "text", body: "Pela página" });
    const [sent] = sendsTo(who.igsid);
    expect(sent).toMatchObject({ path: `/v23.0/${p.account.pageId}/messages`, mid: res.providerMessageId });
    expect(sent.account.token).toBe(p.account.token);
  });

  it("a long text goes as several messages cut between words, each within 1000 bytes; its echoes and read receipts name the one message", async () => {
    const who = await customerWhoWrote(c);
    const { ticket } = await ticketWithMessages(t, f.admin, who.name, 1);
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: "open" }, f.agent)).status).toBe(200);
    const long = Array.from({ length: 180 }, (_, i) => `Informação ${i + 1} sobre a sua encomenda.`).join(" ");
    const r = await t.api.post(`/messages/${ticket.id}`, { body: long }, f.agent);
    expect(r.body).toMatchObject({ status: "sent" });
    const parts = sendsTo(who.igsid);
    expect(parts.length).toBeGreaterThanOrEqual(8);
    for (const p of parts) expect(Buffer.byteLength(p.body.message.text, "utf8")).toBeLessThanOrEqual(1000);
    expect(parts.map((p) => p.body.message.text).join(" ")).toBe(long);
    for (const p of parts) expect(p.body.message.text).toMatch(/\.$/);
    expect(r.body.providerId).toBe(parts[0].mid);
    // Meta echoes every part: none becomes a message; reading the last part reads the message.
    const echoes = parts.map((p) => graph.message(c.account, who.igsid, { mid: p.mid, text: p.body.message.text, echo: true }));
    expect((await graph.post(c.webhook, graph.envelope(c.account, echoes), c.appSecret)).body.results).toEqual(parts.map(() => "duplicate"));
    await graph.post(c.webhook, graph.envelope(c.account, [graph.event(c.account, who.igsid, { read: { mid: parts.at(-1)!.mid } })]), c.appSecret);
    const mine = (await messagesOf(t, f.admin, ticket.id)).filter((m) => m.fromMe);
    expect(mine).toHaveLength(1);
    expect(mine[0].status).toBe("read");
  });

  it("an echo that overtakes its send's answer is still known as ours; Meta's own window refusal is the catalogue's code", async () => {
    const who = await customerWhoWrote(c);
    graph.sendDelayMs = 500;
    try {
      const reply = send(c, who.igsid, { kind: "text", body: "resposta lenta" });
      const sent = await waitFor("the send at Meta", async () => sendsTo(who.igsid)[0]);
      const echo = graph.message(c.account, who.igsid, { mid: sent.mid, text: "resposta lenta", echo: true });
      expect((await graph.post(c.webhook, graph.envelope(c.account, [echo]), c.appSecret)).body.results).toEqual(["duplicate"]);
      expect((await reply).providerMessageId).toBe(sent.mid);
    } finally {
      graph.sendDelayMs = 0;
    }
    // A customer whose last message this connection never saw (Meta knows it was 2 days ago).
    const quiet = graph.addUser(`Caio ${uid()}`);
    graph.lastFrom.set(quiet, Date.now() - 2 * DAY);
    await expect(send(c, quiet, { kind: "text", body: "oi" })).rejects.toMatchObject({ type: "ERR_INSTAGRAM_WINDOW_CLOSED", code: 422, data: { subcode: 2534022 } });
  });

  it("a send handed over again with the same message id goes to Meta once", async () => {
    const who = await customerWhoWrote(c);
    const [a, b] = await Promise.all([send(c, who.igsid, { kind: "text", body: "uma vez só" }, 870001), send(c, who.igsid, { kind: "text", body: "uma vez só" }, 870001)]);
    const again = await send(c, who.igsid, { kind: "text", body: "uma vez só" }, 870001);
    expect(sendsTo(who.igsid)).toHaveLength(1);
    expect(b.providerMessageId).toBe(a.providerMessageId);
    expect(again.providerMessageId).toBe(a.providerMessageId);
  });

  it("files go by their URL, or by a signed link to the core's copy; the caption follows as text", async () => {
    const who = await customerWhoWrote(c);
    await send(c, who.igsid, { kind: "media", media: { url: "https://cdn.example.com/catalogo.jpg", mimeType: "image/jpeg" } });
    expect(sendsTo(who.igsid)[0].body.message).toEqual({ attachment: { type: "image", payload: { url: "https://cdn.example.com/catalogo.jpg" } } });
    const pdf = Buffer.from("%PDF-1.4 boleto de teste");
    await send(c, who.igsid, { kind: "media", body: "Segue o boleto", media: { data: pdf.toString("base64"), mimeType: "application/pdf", fileName: "boleto.pdf" } });
    const [file, caption] = sendsTo(who.igsid).slice(1);
    expect(file.body.message.attachment.type).toBe("file");
    expect(caption.body.message).toEqual({ text: "Segue o boleto" });
    const link = new URL(file.body.message.attachment.payload.url);
    expect(link.pathname).toMatch(new RegExp(`^/api/instagram/${c.token}/media/`));
    const got = await fetch(`${t.url}${link.pathname}${link.search}`);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer())).toEqual(pdf);
    const forged = link.pathname.replace(/\/media\/(\d+)\//, (_m, e) => `/media/${Number(e) + 1}/`);
    expect((await fetch(`${t.url}${forged}${link.search}`)).status).toBe(404);
  });

  it("after 24 hours a reply goes tagged HUMAN_AGENT when the connection allows it, and is refused otherwise; after 7 days it is refused", async () => {
    const late = await customerWhoWrote(c, 3 * DAY);
    await expect(send(c, late.igsid, { kind: "text", body: "Desculpe a demora" })).rejects.toMatchObject({ type: "ERR_INSTAGRAM_WINDOW_CLOSED", code: 422 });
    expect(sendsTo(late.igsid)).toHaveLength(0);

    const h = await connectInstagram(t, f, graph, { name: `Com agente humano ${uid()}`, settings: { humanAgentTag: true } });
    const slow = await customerWhoWrote(h, 3 * DAY);
    await send(h, slow.igsid, { kind: "text", body: "Desculpe a demora" });
    expect(sendsTo(slow.igsid)[0].body).toMatchObject({ messaging_type: "MESSAGE_TAG", tag: "HUMAN_AGENT" });
    const gone = await customerWhoWrote(h, 8 * DAY);
    await expect(send(h, gone.igsid, { kind: "text", body: "Ainda precisa?" })).rejects.toMatchObject({ type: "ERR_INSTAGRAM_HUMAN_AGENT_EXPIRED", code: 422 });
    expect(sendsTo(gone.igsid)).toHaveLength(0);
    // Through the API the agent sees the catalogue's code on the message.
    const { ticket } = await ticketWithMessages(t, f.admin, gone.name, 1);
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: "open" }, f.agent)).status).toBe(200);
    const r = await t.api.post(`/messages/${ticket.id}`, { body: "Oi?" }, f.agent);
    const failed = await waitFor("the reply to fail", async () => (await messagesOf(t, f.admin, ticket.id)).find((m) => m.fromMe && m.failReason));
    expect(failed.failReason).toBe("ERR_INSTAGRAM_HUMAN_AGENT_EXPIRED");
    expect(r.status).toBeLessThan(500);
  });

  it("backs off while Meta throttles (429, code 4, 613) and says so when it keeps on", async () => {
    const who = await customerWhoWrote(c);
    graph.fail({ status: 429, code: 4, message: "(#4) Application request limit reached" }, { status: 400, code: 613, message: "(#613) Calls to this api have exceeded the rate limit." });
    const res = await send(c, who.igsid, { kind: "text", body: "depois da espera" });
    expect(sendsTo(who.igsid).map((s) => s.mid)).toEqual([res.providerMessageId]);
    graph.fail(...Array.from({ length: 4 }, () => ({ status: 429, code: 4, message: "(#4) Application request limit reached" })));
    await expect(send(c, who.igsid, { kind: "text", body: "limite" })).rejects.toMatchObject({ type: "ERR_INSTAGRAM_RATE_LIMITED", code: 429 });
    expect(sendsTo(who.igsid)).toHaveLength(1);
    await expect(send(c, "not-an-igsid", { kind: "text", body: "x" })).rejects.toMatchObject({ type: "ERR_INSTAGRAM_RECIPIENT_INVALID", code: 400 });
  });

  it("an expired token (code 190) leaves the connection needing new credentials; customers' messages still arrive", async () => {
    const e = await connectInstagram(t, f, graph, { name: `Token vencido ${uid()}` });
    const who = await customerWhoWrote(e);
    e.account.expired = true;
    await expect(send(e, who.igsid, { kind: "text", body: "oi" })).rejects.toMatchObject({ type: "ERR_SESSION_NOT_INITIALIZED" });
    const view = await waitFor("the connection to need credentials", async () => {
      const r = await t.api.get(`/connections/${e.id}`, f.admin);
      return r.body.status === "disconnected" ? r.body : null;
    });
    expect(view.statusDetail).toBe("ERR_INSTAGRAM_CREDENTIALS_REQUIRED");
    const late = await graph.post(e.webhook, graph.envelope(e.account, [graph.message(e.account, who.igsid, { text: "ainda aí?" })]), e.appSecret);
    expect(late.body.results).toEqual(["stored"]);
    await ticketWithMessages(t, f.admin, who.name, 2);
    const tested = await t.api.post("/connections/test", { type: "channel-instagram", settings: { flavour: "instagram", igAccountId: e.account.igAccountId, accessToken: e.account.token, appSecret: e.appSecret, verifyToken: "verify-instagram-42", graphUrl: graph.url } }, f.admin);
    expect(tested.body).toMatchObject({ ok: false, detail: "ERR_INSTAGRAM_CREDENTIALS_REQUIRED" });
  });
});
