/**
 * What each kind of Cloud API message becomes in the real core: files downloaded through the
 * short-lived URL (looked up again when it expired) and stored with their type and size,
 * replies naming the quoted message, reactions added and taken away, interactive choices as
 * their titles (WHATSAPP.md §7.2 items 3 and 8); the list's chat:create event names the
 * business by the name Meta verified for the number (verifiedBizName, issue 16 item 8).
 */
import { io as ioClient } from "socket.io-client";
import { createTenant, startCore, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { FakeGraph } from "./fake-graph";
import { connectWaba, LOOPBACK_FAKES, messagesOf, newCustomer, ticketWithMessages, waitFor, type WabaConnection } from "./helpers";
import { buttonReply, envelope, listReply, mediaMessage, messagesValue, reactionMessage, textMessage } from "./meta-payloads";

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

describe("WABA inbound kinds, real core", () => {
  let graph: FakeGraph;
  let t: TestCore;
  let f: TenantFixture;
  let c: WabaConnection;
  const who = newCustomer("Carla");

  beforeAll(async () => {
    graph = await FakeGraph.start();
    t = await startCore({ env: LOOPBACK_FAKES });
    f = await createTenant(t, { tier: "PLUS" });
    c = await connectWaba(t, f, graph, { name: "WABA entrada" });
  });
  afterAll(async () => {
    await t?.stop();
    await graph?.close();
  });

  const deliver = async (...messages: unknown[]) => {
    const r = await FakeGraph.deliver(c.webhook, envelope([{ wabaId: c.number.wabaId, changes: [{ value: messagesValue(c.number.pnid, { contacts: [who], messages }) }] }]), c.appSecret);
    expect(r.status).toBe(200);
  };

  it("chat:create carries the number's verified name, read from the Graph API at connect", async () => {
    const socket = ioClient(t.url, { path: "/socket.io", transports: ["websocket"], auth: { token: f.admin.token, sessionId: f.admin.sessionId }, reconnection: false, forceNew: true });
    const events: Array<{ event: string; payload: any }> = [];
    socket.onAny((event, payload) => events.push({ event, payload }));
    await new Promise<void>((resolve, reject) => {
      socket.on("ready", () => resolve());
      socket.on("connect_error", reject);
    });
    try {
      // A customer of its own: the other cases count their ticket's messages.
      const vera = newCustomer("Vera");
      const text = `Quem está falando? ${Date.now()}`;
      const r = await FakeGraph.deliver(c.webhook, envelope([{ wabaId: c.number.wabaId, changes: [{ value: messagesValue(c.number.pnid, { contacts: [vera], messages: [textMessage(vera, text)] }) }] }]), c.appSecret);
      expect(r.status).toBe(200);
      const created = await waitFor("chat:create", async () => events.find((e) => e.payload?.type === "chat:create" && e.payload.payload?.body === text));
      expect(created.event).toBe(`${f.tenantId}:ticketList`);
      expect(created.payload.payload).toMatchObject({ verifiedBizName: "Loja Teste", fromMe: false, read: false });
    } finally {
      socket.close();
    }
  });

  it("stores text, an image with its caption (URL expired once, looked up again) and a PDF with its name", async () => {
    const first = textMessage(who, "Bom dia!");
    const imageId = graph.addMedia(c.number, PNG, "image/png");
    graph.staleNextUrl.add(imageId);
    const pdf = Buffer.from("%PDF-1.4 orçamento");
    const pdfId = graph.addMedia(c.number, pdf, "application/pdf");
    const lookups = graph.mediaLookups;
    await deliver(first, mediaMessage(who, "image", { id: imageId, mime_type: "image/png", caption: "Olha a foto" }), mediaMessage(who, "document", { id: pdfId, mime_type: "application/pdf", filename: "orcamento.pdf" }));
    const { ticket, messages } = await ticketWithMessages(t, f.admin, who.name, 3);
    expect(messages.map((m) => [m.body, m.mediaType])).toEqual([
      ["Bom dia!", null],
      ["Olha a foto", "image"],
      [expect.anything(), "document"],
    ]);
    expect(messages[1].media).toMatchObject({ mimeType: "image/png", size: PNG.length });
    expect(messages[2].media).toMatchObject({ fileName: "orcamento.pdf", mimeType: "application/pdf", size: pdf.length });
    // The stale URL made the plugin ask for the id again: 2 lookups for the image, 1 for the PDF.
    expect(graph.mediaLookups - lookups).toBe(3);
    const file = await fetch(`${t.url}${messages[1].media!.url}`, { headers: { authorization: `Bearer ${f.agent.token}`, "x-session-id": f.agent.sessionId } });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG)).toBe(true);
    expect(ticket.contact.name).toBe(who.name);
  });

  it("a reply names the quoted message; a reaction is added to it and taken away", async () => {
    const base = textMessage(who, "Qual o prazo?");
    await deliver(base);
    const quoted = (await ticketWithMessages(t, f.admin, who.name, 4)).messages.find((m) => m.providerId === base.id)!;
    await deliver(textMessage(who, "sobre isso", { context: { from: who.waId, id: base.id } }));
    const { ticket, messages } = await ticketWithMessages(t, f.admin, who.name, 5);
    expect(messages.find((m) => m.body === "sobre isso")!.quotedMsgId).toBe(quoted.id);

    await deliver(reactionMessage(who, String(base.id), "👍"));
    await waitFor("the reaction", async () => (await messagesOf(t, f.admin, ticket.id)).find((m) => m.id === quoted.id)!.reactions.length === 1);
    expect((await messagesOf(t, f.admin, ticket.id)).find((m) => m.id === quoted.id)!.reactions).toMatchObject([{ by: who.waId, emoji: "👍" }]);
    await deliver(reactionMessage(who, String(base.id), ""));
    await waitFor("the reaction to go", async () => (await messagesOf(t, f.admin, ticket.id)).find((m) => m.id === quoted.id)!.reactions.length === 0);
    // A reaction is a change of the message, not a message of its own.
    expect(await messagesOf(t, f.admin, ticket.id)).toHaveLength(5);
  });

  it("a file over the platform's 10 MB is not downloaded: the message says so", async () => {
    const big = graph.addMedia(c.number, Buffer.alloc(10 * 1024 * 1024 + 1, 1), "video/mp4");
    const lookups = graph.mediaLookups;
    await deliver(mediaMessage(who, "video", { id: big, mime_type: "video/mp4", caption: "vídeo grande" }));
    const { messages } = await ticketWithMessages(t, f.admin, who.name, 6);
    expect(messages.at(-1)).toMatchObject({ body: `vídeo grande [video-${big}.mp4: download failed]`, media: null });
    expect(graph.mediaLookups - lookups).toBe(1);
  });

  it("a button or list choice arrives as the chosen title", async () => {
    await deliver(buttonReply(who, "opt-2", "Falar com vendas"), listReply(who, "row-7", "Segunda via", "Boleto do mês"));
    const { messages } = await ticketWithMessages(t, f.admin, who.name, 8);
    expect(messages.slice(-2).map((m) => m.body)).toEqual(["Falar com vendas", "Segunda via"]);
  });
});
