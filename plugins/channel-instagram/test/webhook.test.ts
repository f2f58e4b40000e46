/**
 * Meta's Instagram webhook in a real core (gateway, MariaDB, Redis) against the local Graph
 * API: the verification handshake, the signature over the raw body, every kind of event the
 * channel reads, each message once (also when delivered twice at once), echoes of our sends
 * not stored twice, and no tenant receiving another's events.
 */
import { createTenant, startCore, uid, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import type { SendResult } from "@openatende/plugin-sdk";
import { FakeGraph, newMid } from "./fake-graph";
import { connectInstagram, messagesOf, sleep, ticketsOf, ticketWithMessages, LOOPBACK_FAKES, VERIFY_TOKEN, type IgConnection } from "./helpers";

describe("instagram webhook, real core", () => {
  let graph: FakeGraph;
  let t: TestCore;
  let f: TenantFixture;
  let c: IgConnection;

  beforeAll(async () => {
    graph = await FakeGraph.start();
    t = await startCore({ env: LOOPBACK_FAKES });
    f = await createTenant(t, { tier: "FREE" });
    c = await connectInstagram(t, f, graph, { name: "Instagram da loja" });
  });
  afterAll(async () => {
    await t?.stop();
    await graph?.close();
  });

  const post = (conn: IgConnection, messaging: unknown[], opts: { signature?: string | null; secret?: string } = {}) => graph.post(conn.webhook, graph.envelope(conn.account, messaging), opts.secret ?? conn.appSecret, opts);
  const customer = () => {
    const name = `Ana ${uid()}`;
    return { name, igsid: graph.addUser(name) };
  };

  it("connects after checking the token with Meta, and answers the handshake only with the verify token", async () => {
    expect(c.status).toBe("connected");
    const hs = (token: string) => fetch(`${c.webhook}?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=1158201444`);
    const ok = await hs(VERIFY_TOKEN);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe("1158201444");
    const wrong = await hs("not-the-token");
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toMatchObject({ error: "ERR_INSTAGRAM_VERIFY_TOKEN_MISMATCH" });
    expect((await fetch(`${t.url}/api/instagram/unknown-token-123/webhook?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1`)).status).toBe(404);
  });

  it("stores nothing from a delivery whose signature is missing or does not match its bytes", async () => {
    const who = customer();
    const body = graph.envelope(c.account, [graph.message(c.account, who.igsid, { text: "forjada" })]);
    expect((await graph.post(c.webhook, body, c.appSecret, { signature: null })).status).toBe(401);
    expect((await graph.post(c.webhook, body, "another-app-secret-0000")).status).toBe(401);
    // Signed, then changed in transit.
    const { hmacSignatureOf } = await import("@openatende/plugin-sdk");
    const tampered = await graph.post(c.webhook, body.replace("forjada", "FORJADA"), c.appSecret, { signature: hmacSignatureOf(body, c.appSecret) });
    expect(tampered.status).toBe(401);
    expect(tampered.body).toMatchObject({ error: "ERR_TOKEN_INVALID" });
    await sleep(200);
    expect(await ticketsOf(t, f.admin, who.name)).toEqual([]);
    // Signed but not Instagram's envelope: the catalogue's code.
    const notIg = await graph.post(c.webhook, JSON.stringify({ object: "page", entry: [] }), c.appSecret);
    expect(notIg).toMatchObject({ status: 400, body: { error: "ERR_INSTAGRAM_PAYLOAD_INVALID" } });
  });

  it("a customer's text opens a ticket with their Instagram name and picture, fetched once; the same mid again (also at once) is one message", async () => {
    const who = customer();
    const m = graph.message(c.account, who.igsid, { text: "Oi, tem o tênis 42?" });
    expect(await post(c, [m])).toMatchObject({ status: 200, body: { ok: true, results: ["stored"] } });
    const { ticket, messages } = await ticketWithMessages(t, f.admin, who.name, 1);
    expect(messages[0]).toMatchObject({ body: "Oi, tem o tênis 42?", fromMe: false });
    expect(ticket.contact.profilePicUrl).toBe(graph.users.get(who.igsid)!.profile_pic);
    const burst = await Promise.all(Array.from({ length: 5 }, () => post(c, [m])));
    expect(burst.map((r) => r.body.results[0])).toEqual(Array(5).fill("duplicate"));
    await post(c, [graph.message(c.account, who.igsid, { text: "Tamanho 42" })]);
    await ticketWithMessages(t, f.admin, who.name, 2);
    await sleep(200);
    expect(await messagesOf(t, f.admin, ticket.id)).toHaveLength(2);
    expect(graph.profileCalls(who.igsid)).toBe(1);
  });

  it("a new message delivered twice at the same moment is stored once", async () => {
    const who = customer();
    const m = graph.message(c.account, who.igsid, { text: "duas vezes ao mesmo tempo" });
    const both = await Promise.all([post(c, [m]), post(c, [m]), post(c, [m])]);
    expect(both.map((r) => r.body.results[0]).sort()).toEqual(["duplicate", "duplicate", "stored"]);
    const { ticket } = await ticketWithMessages(t, f.admin, who.name, 1);
    await sleep(200);
    expect(await messagesOf(t, f.admin, ticket.id)).toHaveLength(1);
  });

  it("files are taken into the core's storage, one message each; links to Instagram content stay as text", async () => {
    const who = customer();
    const jpg = Buffer.from("\xff\xd8\xff\xe0 foto do pedido", "latin1");
    const url = graph.addFile(`${uid()}.jpg`, jpg, "image/jpeg");
    const mid = newMid();
    const m = graph.message(c.account, who.igsid, { mid, attachments: [{ type: "image", payload: { url } }, { type: "audio", payload: { url: graph.addFile(`${uid()}.m4a`, Buffer.from("audio"), "audio/mp4") } }] });
    expect((await post(c, [m])).body.results).toEqual(["stored"]);
    const { messages } = await ticketWithMessages(t, f.admin, who.name, 2);
    const [photo, audio] = [messages.find((x) => x.providerId === mid)!, messages.find((x) => x.providerId === `${mid}:1`)!];
    expect(photo.media).toMatchObject({ mimeType: "image/jpeg" });
    expect(photo.media!.url).toMatch(/^\/api\/files\//);
    const got = await fetch(`${t.url}${photo.media!.url}`, { headers: { authorization: `Bearer ${f.admin.token}`, "x-session-id": f.admin.sessionId } });
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer())).toEqual(jpg);
    expect(audio.media).toMatchObject({ mimeType: "audio/mp4" });
    await post(c, [graph.message(c.account, who.igsid, { attachments: [{ type: "ig_reel", payload: { url: "https://www.instagram.com/reel/C1" } }] })]);
    const after = await ticketWithMessages(t, f.admin, who.name, 3);
    expect(after.messages.map((x) => x.body)).toContain("https://www.instagram.com/reel/C1");
  });

  it("reactions, postbacks, read receipts, referrals and deletions reach the core", async () => {
    const who = customer();
    const first = graph.message(c.account, who.igsid, { text: "Quero ver o catálogo" });
    await post(c, [first]);
    const { ticket } = await ticketWithMessages(t, f.admin, who.name, 1);
    const mid = (first.message as { mid: string }).mid;
    // The customer reacts to their own message, then takes it back.
    expect((await post(c, [graph.event(c.account, who.igsid, { reaction: { mid, action: "react", reaction: "love", emoji: "❤️" } })])).body.results).toEqual(["changed"]);
    expect((await messagesOf(t, f.admin, ticket.id))[0].reactions).toEqual([expect.objectContaining({ emoji: "❤️" })]);
    await post(c, [graph.event(c.account, who.igsid, { reaction: { mid, action: "unreact" } })]);
    expect((await messagesOf(t, f.admin, ticket.id))[0].reactions).toEqual([]);
    // A button of ours tapped: its title is the customer's message.
    expect((await post(c, [graph.event(c.account, who.igsid, { postback: { mid: newMid(), title: "Falar com vendas", payload: "SALES" } })])).body.results).toEqual(["stored"]);
    await ticketWithMessages(t, f.admin, who.name, 2);
    // Our reply, then the customer reads it.
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: "open" }, f.agent)).status).toBe(200);
    const sent = await t.api.post(`/messages/${ticket.id}`, { body: "Claro, segue o catálogo" }, f.agent);
    expect(sent.body).toMatchObject({ fromMe: true, status: "sent" });
    expect((await post(c, [graph.event(c.account, who.igsid, { read: { mid: sent.body.providerId } })])).body.results).toEqual(["acked"]);
    expect((await messagesOf(t, f.admin, ticket.id)).find((x) => x.providerId === sent.body.providerId)!.status).toBe("read");
    // The customer deletes their first message.
    expect((await post(c, [graph.event(c.account, who.igsid, { message: { mid, is_deleted: true } })])).body.results).toEqual(["changed"]);
    expect((await messagesOf(t, f.admin, ticket.id)).find((x) => x.providerId === mid)!.isDeleted).toBe(true);
    // Someone opens the chat from an ig.me link: the contact is known before they write.
    const visitor = customer();
    expect((await post(c, [graph.event(c.account, visitor.igsid, { referral: { ref: "promo-natal", source: "IGME_LINK", type: "OPEN_THREAD" } })])).body.results).toEqual(["contact"]);
    const found = await t.api.get(`/contacts?searchParam=${encodeURIComponent(visitor.name)}`, f.admin);
    expect(found.body.contacts.map((x: { name: string }) => x.name)).toEqual([visitor.name]);
  });

  it("echoes: ours are not stored again; one written in the Instagram app is the business's message", async () => {
    const who = customer();
    await post(c, [graph.message(c.account, who.igsid, { text: "Bom dia" })]);
    const { ticket } = await ticketWithMessages(t, f.admin, who.name, 1);
    const res = (await t.core.broker.call("v1.channel-instagram.send", { tenantId: f.tenantId, connectionId: c.id, to: { externalId: who.igsid }, message: { kind: "text", body: "Bom dia! Como posso ajudar?" }, messageId: 990001 })) as SendResult;
    expect((await post(c, [graph.message(c.account, who.igsid, { mid: res.providerMessageId, text: "Bom dia! Como posso ajudar?", echo: true })])).body.results).toEqual(["duplicate"]);
    expect((await post(c, [graph.message(c.account, who.igsid, { text: "Respondi pelo celular", echo: true })])).body.results).toEqual(["stored"]);
    const { messages } = await ticketWithMessages(t, f.admin, who.name, 2);
    expect(messages.filter((x) => x.fromMe).map((x) => x.body)).toEqual(["Respondi pelo celular"]);
    expect((await messagesOf(t, f.admin, ticket.id)).some((x) => x.body === "Bom dia! Como posso ajudar?")).toBe(false);
  });

  it("routes by Instagram account: another tenant's account never lands here, an unknown account is dropped", async () => {
    const g = await createTenant(t, { tier: "FREE" });
    const other = await connectInstagram(t, g, graph, { name: "Outra loja" });
    const who = customer();
    // Tenant B's account in an envelope sent to tenant A's URL, signed with the same app secret.
    const body = graph.envelope(other.account, [graph.message(other.account, who.igsid, { text: "para a outra loja" })]);
    expect((await graph.post(c.webhook, body, c.appSecret)).body.results).toEqual(["stored"]);
    await ticketWithMessages(t, g.admin, who.name, 1);
    expect(await ticketsOf(t, f.admin, who.name)).toEqual([]);
    // Signed with another app's secret, B's account is not reached through A's URL.
    const h = await createTenant(t, { tier: "FREE" });
    const third = await connectInstagram(t, h, graph, { name: "Terceira loja", settings: { appSecret: "a-different-app-secret-999" } });
    const who2 = customer();
    const b2 = graph.envelope(third.account, [graph.message(third.account, who2.igsid, { text: "não é deste app" })]);
    expect((await graph.post(c.webhook, b2, c.appSecret)).body.results).toEqual(["ignored"]);
    const ghost = graph.addAccount();
    const b3 = graph.envelope(ghost, [graph.message(ghost, who2.igsid, { text: "conta desconhecida" })]);
    expect((await graph.post(c.webhook, b3, c.appSecret)).body.results).toEqual(["ignored"]);
    await sleep(200);
    for (const fx of [f, g, h]) expect(await ticketsOf(t, fx.admin, who2.name)).toEqual([]);
  });
});
