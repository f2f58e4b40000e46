/**
 * Messages of tickets (spec §4, §5, §9): paging, media sends and their size limits, a channel
 * that does not support media, forwarding, edit and delete rules, delivery and read acks, and
 * tenant isolation. Real MariaDB, Redis and the web-chat channel plugin.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startCore, createTenant, TestCore, TenantFixture, Auth, Res, uid } from "./helpers";

type MessageView = {
  id: number;
  ticketId: number;
  fromMe: boolean;
  userId: number | null;
  body: string | null;
  mediaType: string | null;
  media: { fileName: string; mimeType: string; size: number; url: string } | null;
  status: string;
  failReason: string | null;
  providerId: string | null;
  isForwarded: boolean;
  isEdited: boolean;
  isDeleted: boolean;
  timestamp: number;
};

function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
}

async function connectWebchat(t: TestCore, f: TenantFixture, queueId?: number) {
  const c = await t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", queueId }, f.admin);
  expect(c.status).toBe(201);
  expect((await t.api.post(`/connections/${c.body.id}/connect`, {}, f.admin)).status).toBe(200);
  return c.body as { id: number; token: string };
}

async function inbound(t: TestCore, tenantId: number, connectionId: number, o: { ext?: string; body?: string; ts?: number; providerMessageId?: string } = {}) {
  const ext = o.ext ?? `ext-${uid()}`;
  const r = (await t.core.broker.call("channels.inbound", {
    tenantId,
    connectionId,
    providerMessageId: o.providerMessageId ?? `p-${uid()}-${uid()}`,
    timestamp: o.ts ?? Date.now(),
    from: { externalId: ext, name: `Cliente ${ext}` },
    body: o.body ?? "olá",
  })) as { ticketId: number; messageId: number };
  return { ...r, ext };
}

/** A pending ticket with one customer message, accepted by `who`. */
async function openTicket(t: TestCore, f: TenantFixture, connectionId: number, who: Auth) {
  const r = await inbound(t, f.tenantId, connectionId);
  expect((await t.api.put(`/tickets/${r.ticketId}`, { status: "open" }, who)).status).toBe(200);
  return r;
}

const messagesOf = async (t: TestCore, ticketId: number, who: Auth, query = "") => {
  const r = await t.api.get(`/messages/${ticketId}${query}`, who);
  expect(r.status).toBe(200);
  return r.body as { messages: MessageView[]; hasMore: boolean; pageNumber: number };
};

/** Every file under a folder (recursively); [] when the folder does not exist. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name));
}

const b64 = (bytes: number, fill = 0x61) => Buffer.alloc(bytes, fill).toString("base64");
const MB = 1024 * 1024;

describe("messages (MariaDB)", () => {
  let t: TestCore;
  let a: TenantFixture;
  let b: TenantFixture;
  let conn: { id: number; token: string };
  let bConn: { id: number; token: string };

  beforeAll(async () => {
    t = await startCore();
    a = await createTenant(t, { tier: "PLUS" });
    b = await createTenant(t, { tier: "PLUS" });
    conn = await connectWebchat(t, a, a.queueIds[0]);
    bConn = await connectWebchat(t, b, b.queueIds[0]);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("GET /messages/:ticketId pages newest first, each page in ascending order, with hasMore", async () => {
    const ext = `ext-${uid()}`;
    const base = Date.now() - 3_600_000;
    let ticketId = 0;
    // 65 messages, delivered out of order.
    const order = Array.from({ length: 65 }, (_, i) => i + 1).sort((x, y) => ((x * 37) % 65) - ((y * 37) % 65));
    for (const i of order) ticketId = (await inbound(t, a.tenantId, conn.id, { ext, body: `m${i}`, ts: base + i * 1000 })).ticketId;
    const bodies = (page: { messages: MessageView[] }) => page.messages.map((m) => m.body);
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `m${from + i}`);

    const p1 = await messagesOf(t, ticketId, a.admin);
    expect(p1).toMatchObject({ hasMore: true, pageNumber: 1 });
    expect(bodies(p1)).toEqual(range(36, 65));
    const p2 = await messagesOf(t, ticketId, a.admin, "?pageNumber=2");
    expect(p2).toMatchObject({ hasMore: true, pageNumber: 2 });
    expect(bodies(p2)).toEqual(range(6, 35));
    const p3 = await messagesOf(t, ticketId, a.admin, "?pageNumber=3");
    expect(p3).toMatchObject({ hasMore: false, pageNumber: 3 });
    expect(bodies(p3)).toEqual(range(1, 5));
    expect((await messagesOf(t, ticketId, a.admin, "?pageNumber=4")).messages).toEqual([]);
    // With a page size: exactly 65 = 13 × 5, so the last page says there is no more.
    const last = await messagesOf(t, ticketId, a.admin, "?pageSize=5&pageNumber=13");
    expect(bodies(last)).toEqual(range(1, 5));
    expect(last.hasMore).toBe(false);
    expect((await messagesOf(t, ticketId, a.admin, "?pageSize=5&pageNumber=12")).hasMore).toBe(true);
    expectError(await t.api.get(`/messages/${ticketId}?pageSize=500`, a.admin), 400, "ERR_VALIDATION");
    // Another tenant: 404.
    expectError(await t.api.get(`/messages/${ticketId}`, b.admin), 404, "ERR_TICKET_NOT_FOUND");
  });

  describe("media", () => {
    let ticketId: number;
    let tenantDir: string;
    beforeAll(async () => {
      ticketId = (await openTicket(t, a, conn.id, a.agent)).ticketId;
      tenantDir = path.join(t.config.dataDir, "tenants", String(a.tenantId));
    });

    it("a file over 10 MB is refused with 413 and nothing is written", async () => {
      // No media yet for this tenant: its folder does not even exist, and stays so.
      expect(fs.existsSync(tenantDir)).toBe(false);
      const before = filesUnder(tenantDir);
      const r = await t.api.post(`/messages/${ticketId}`, { body: "segue", medias: [{ fileName: "grande.pdf", mimeType: "application/pdf", data: b64(10 * MB + 1) }] }, a.agent);
      expectError(r, 413, "ERR_MEDIA_TOO_LARGE");
      expect(r.body.data).toMatchObject({ max: 10 * MB });
      expect(filesUnder(tenantDir)).toEqual(before);
      // A small file first and a large one after: still nothing of either.
      const mixed = await t.api.post(
        `/messages/${ticketId}`,
        { medias: [{ fileName: "ok.png", mimeType: "image/png", data: b64(1000) }, { fileName: "grande.pdf", mimeType: "application/pdf", data: b64(10 * MB + 1) }] },
        a.agent,
      );
      expectError(mixed, 413, "ERR_MEDIA_TOO_LARGE");
      expect(filesUnder(tenantDir)).toEqual(before);
      expect(fs.existsSync(tenantDir)).toBe(false);
      expect((await messagesOf(t, ticketId, a.agent)).messages.filter((m) => m.fromMe)).toEqual([]);
    });

    it("files over 30 MB in total are refused with 413 and nothing is written", async () => {
      const before = filesUnder(tenantDir);
      const medias = Array.from({ length: 4 }, (_, i) => ({ fileName: `parte-${i}.bin`, mimeType: "application/octet-stream", data: b64(8 * MB) }));
      const r = await t.api.post(`/messages/${ticketId}`, { medias }, a.agent);
      expectError(r, 413, "ERR_MEDIA_TOO_LARGE");
      expect(r.body.data).toMatchObject({ max: 30 * MB });
      expect(filesUnder(tenantDir)).toEqual(before);
      expect(fs.existsSync(tenantDir)).toBe(false);
      expect((await messagesOf(t, ticketId, a.agent)).messages.filter((m) => m.fromMe)).toEqual([]);
    });

    it("the web chat does not support media: the message is stored as failed with ERR_CHANNEL_UNSUPPORTED", async () => {
      const before = filesUnder(tenantDir);
      const r = await t.api.post(`/messages/${ticketId}`, { body: "a foto", medias: [{ fileName: "foto.png", mimeType: "image/png", data: b64(2048, 0x01) }] }, a.agent);
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ fromMe: true, status: "failed", failReason: "ERR_CHANNEL_UNSUPPORTED", mediaType: "image", body: "a foto" });
      expect(r.body.media).toMatchObject({ fileName: "foto.png", mimeType: "image/png", size: 2048 });
      // The file is kept, inside the tenant's folder.
      const after = filesUnder(tenantDir);
      expect(after.length).toBe(before.length + 1);
      const added = after.find((x) => !before.includes(x))!;
      expect(fs.statSync(added).size).toBe(2048);
      // The failure is recorded, not thrown away.
      const stored = (await messagesOf(t, ticketId, a.agent)).messages.at(-1)!;
      expect(stored).toMatchObject({ id: r.body.id, status: "failed", failReason: "ERR_CHANNEL_UNSUPPORTED", mediaType: "image" });
      // Two files: two messages, the text on the first.
      const two = await t.api.post(
        `/messages/${ticketId}`,
        { body: "dois", medias: [{ fileName: "a.pdf", mimeType: "application/pdf", data: b64(10) }, { fileName: "b.ogg", mimeType: "audio/ogg", data: b64(10) }] },
        a.agent,
      );
      expect(two.status).toBe(201);
      expect(two.body.messages.map((m: MessageView) => [m.body, m.mediaType, m.status])).toEqual([
        ["dois", "document", "failed"],
        [null, "audio", "failed"],
      ]);
      // A text still goes through.
      expect((await t.api.post(`/messages/${ticketId}`, { body: "texto" }, a.agent)).body).toMatchObject({ status: "sent" });
    });

    it("deleting a ticket removes its files, except one a forwarded copy in another ticket still shows", async () => {
      const own = await openTicket(t, a, conn.id, a.admin);
      const sent = await t.api.post(
        `/messages/${own.ticketId}`,
        { medias: [{ fileName: "só-minha.pdf", mimeType: "application/pdf", data: b64(64, 0x02) }, { fileName: "repassada.pdf", mimeType: "application/pdf", data: b64(64, 0x03) }] },
        a.admin,
      );
      expect(sent.status).toBe(201);
      const [onlyMine, shared] = sent.body.messages as Array<MessageView & { media: { url: string } }>;
      const fileOf = (m: { media: { url: string } }) => path.join(t.config.dataDir, decodeURIComponent(m.media.url.replace(/^\/api\/files\//, "")));
      expect(fs.existsSync(fileOf(onlyMine))).toBe(true);
      expect(fs.existsSync(fileOf(shared))).toBe(true);
      const other = await inbound(t, a.tenantId, conn.id, { body: "outro cliente" });
      const otherTicket = (await t.api.get(`/tickets/${other.ticketId}`, a.admin)).body;
      expect((await t.api.post("/forward-messages", { messageIds: [shared.id], contactId: otherTicket.contactId }, a.admin)).status).toBe(200);

      expect((await t.api.del(`/tickets/${own.ticketId}`, a.admin)).status).toBe(200);
      expect(fs.existsSync(fileOf(onlyMine))).toBe(false);
      expect(fs.existsSync(fileOf(shared))).toBe(true);
      const copy = (await messagesOf(t, other.ticketId, a.admin)).messages.find((m) => m.isForwarded)!;
      expect((await fetch(`${t.url}${(copy as MessageView & { media: { url: string } }).media.url}`, { headers: { authorization: `Bearer ${a.admin.token}`, "x-session-id": a.admin.sessionId } })).status).toBe(200);

      expect((await t.api.del(`/tickets/${other.ticketId}`, a.admin)).status).toBe(200);
      expect(fs.existsSync(fileOf(shared))).toBe(false);
    });

    it("a media item must be base64 and named; an empty send is refused", async () => {
      expectError(await t.api.post(`/messages/${ticketId}`, { medias: [{ fileName: "x.png", mimeType: "image/png", data: "not base64!" }] }, a.agent), 400, "ERR_VALIDATION");
      expectError(await t.api.post(`/messages/${ticketId}`, { medias: [{ mimeType: "image/png", data: b64(10) }] }, a.agent), 400, "ERR_VALIDATION");
      expectError(await t.api.post(`/messages/${ticketId}`, { body: "   " }, a.agent), 400, "ERR_REQUIRED_BODY");
    });
  });

  describe("forward", () => {
    it("up to 10 messages go into the target contact's ticket; 11 are refused", async () => {
      const src = await openTicket(t, a, conn.id, a.admin);
      const base = Date.now() - 60_000;
      const ids: number[] = [src.messageId];
      for (let i = 1; i <= 10; i++) ids.push((await inbound(t, a.tenantId, conn.id, { ext: src.ext, body: `fw${i}`, ts: base + i * 1000 })).messageId);
      expect(ids).toHaveLength(11);
      // The target contact already has an active ticket: the messages go there.
      const target = await inbound(t, a.tenantId, conn.id, { body: "sou o destino" });
      const targetTicket = (await t.api.get(`/tickets/${target.ticketId}`, a.admin)).body;

      const tooMany = await t.api.post("/forward-messages", { messageIds: ids, contactId: targetTicket.contactId }, a.admin);
      expectError(tooMany, 400, "ERR_FORWARD_LIMIT");
      expect((await messagesOf(t, target.ticketId, a.admin)).messages).toHaveLength(1);

      const ten = ids.slice(1);
      const r = await t.api.post("/forward-messages", { messageIds: [...ten].reverse(), contactId: targetTicket.contactId }, a.admin);
      expect(r.status).toBe(200);
      expect(r.body.ticketId).toBe(target.ticketId);
      expect(r.body.messages).toHaveLength(10);
      const got = (await messagesOf(t, target.ticketId, a.admin)).messages;
      expect(got.map((m) => m.body)).toEqual(["sou o destino", ...ten.map((_, i) => `fw${i + 1}`)]);
      expect(got.slice(1).every((m) => m.fromMe && m.isForwarded && m.status === "sent")).toBe(true);
      // The source ticket keeps its messages.
      expect((await messagesOf(t, src.ticketId, a.admin)).messages).toHaveLength(11);
    });

    it("to a contact with no active ticket opens one for the forwarder; another tenant's message or contact is 404", async () => {
      const src = await openTicket(t, a, conn.id, a.agent);
      const c = await t.api.post("/contacts", { name: `Destino ${uid()}`, number: "5511912340001" }, a.admin);
      expect(c.status).toBe(201);
      const r = await t.api.post("/forward-messages", { messageIds: [src.messageId], contactId: c.body.id, connectionId: conn.id }, a.agent);
      expect(r.status).toBe(200);
      const tk = (await t.api.get(`/tickets/${r.body.ticketId}`, a.agent)).body;
      expect(tk).toMatchObject({ contactId: c.body.id, status: "open", userId: a.agent.userId, connectionId: conn.id });

      const foreign = await inbound(t, b.tenantId, bConn.id);
      expectError(await t.api.post("/forward-messages", { messageIds: [foreign.messageId], contactId: c.body.id }, a.admin), 404, "ERR_MESSAGE_NOT_FOUND");
      const foreignContact = (await t.api.get(`/tickets/${foreign.ticketId}`, b.admin)).body.contactId;
      expectError(await t.api.post("/forward-messages", { messageIds: [src.messageId], contactId: foreignContact }, a.admin), 404, "ERR_CONTACT_NOT_FOUND");
      expect((await messagesOf(t, foreign.ticketId, b.admin)).messages).toHaveLength(1);

      // A deleted message is not forwarded (its text is gone).
      const gone = (await t.api.post(`/messages/${src.ticketId}`, { body: "apagada" }, a.agent)).body as MessageView;
      expect((await t.api.del(`/messages/${gone.id}`, a.agent)).status).toBe(200);
      const before = (await messagesOf(t, r.body.ticketId, a.agent)).messages.length;
      expectError(await t.api.post("/forward-messages", { messageIds: [gone.id], contactId: c.body.id }, a.agent), 404, "ERR_MESSAGE_NOT_FOUND");
      const after = (await messagesOf(t, r.body.ticketId, a.agent)).messages;
      expect(after).toHaveLength(before);
      expect(after.map((m) => m.body)).not.toContain("apagada");
    });
  });

  describe("edit and delete", () => {
    it("only one's own text messages can be edited", async () => {
      const { ticketId, messageId: visitorMsg } = await openTicket(t, a, conn.id, a.agent);
      const mine = (await t.api.post(`/messages/${ticketId}`, { body: "meu texto" }, a.agent)).body as MessageView;
      const media = (await t.api.post(`/messages/${ticketId}`, { medias: [{ fileName: "f.png", mimeType: "image/png", data: b64(10) }] }, a.agent)).body as MessageView;
      const byAdmin = (await t.api.post(`/messages/${ticketId}`, { body: "do admin" }, a.admin)).body as MessageView;

      expectError(await t.api.post(`/messagesEdit/${visitorMsg}`, { body: "x" }, a.agent), 409, "ERR_MESSAGE_EDIT_NOT_ALLOWED");
      expectError(await t.api.post(`/messagesEdit/${media.id}`, { body: "x" }, a.agent), 409, "ERR_MESSAGE_EDIT_NOT_ALLOWED");
      expectError(await t.api.post(`/messagesEdit/${byAdmin.id}`, { body: "x" }, a.agent), 409, "ERR_MESSAGE_EDIT_NOT_ALLOWED");
      expectError(await t.api.post(`/messagesEdit/${mine.id}`, { body: "x" }, a.admin), 409, "ERR_MESSAGE_EDIT_NOT_ALLOWED");
      const ok = await t.api.post(`/messagesEdit/${mine.id}`, { body: "meu texto corrigido" }, a.agent);
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ id: mine.id, body: "meu texto corrigido", isEdited: true });
      const stored = (await messagesOf(t, ticketId, a.agent)).messages;
      expect(stored.find((m) => m.id === visitorMsg)).toMatchObject({ body: "olá", isEdited: false });
      expect(stored.find((m) => m.id === byAdmin.id)).toMatchObject({ body: "do admin", isEdited: false });
      expect(stored.find((m) => m.id === mine.id)).toMatchObject({ body: "meu texto corrigido", isEdited: true });
      // A deleted message cannot be edited any more.
      expect((await t.api.del(`/messages/${mine.id}`, a.agent)).status).toBe(200);
      expectError(await t.api.post(`/messagesEdit/${mine.id}`, { body: "y" }, a.agent), 409, "ERR_MESSAGE_EDIT_NOT_ALLOWED");
    });

    it("deleting a visitor's message is 403 and leaves it", async () => {
      const { ticketId, messageId } = await openTicket(t, a, conn.id, a.agent);
      expectError(await t.api.del(`/messages/${messageId}`, a.agent), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.del(`/messages/${messageId}`, a.admin), 403, "ERR_NO_PERMISSION");
      expect((await messagesOf(t, ticketId, a.agent)).messages[0]).toMatchObject({ id: messageId, body: "olá", isDeleted: false });
    });

    it("another tenant's message id is 404 for edit, delete and reaction", async () => {
      const { ticketId } = await openTicket(t, b, bConn.id, b.admin);
      const theirs = (await t.api.post(`/messages/${ticketId}`, { body: "de B" }, b.admin)).body as MessageView;
      expectError(await t.api.post(`/messagesEdit/${theirs.id}`, { body: "x" }, a.admin), 404, "ERR_MESSAGE_NOT_FOUND");
      expectError(await t.api.del(`/messages/${theirs.id}`, a.admin), 404, "ERR_MESSAGE_NOT_FOUND");
      expectError(await t.api.post(`/messagesReaction/${theirs.id}`, { emoji: "👍" }, a.admin), 404, "ERR_MESSAGE_NOT_FOUND");
      expectError(await t.api.post(`/messagesEdit/99999999`, { body: "x" }, a.admin), 404, "ERR_MESSAGE_NOT_FOUND");
      expect((await messagesOf(t, ticketId, b.admin)).messages.find((m) => m.id === theirs.id)).toMatchObject({ body: "de B", isDeleted: false, isEdited: false });
    });
  });

  describe("delivery and read acks", () => {
    const ack = (tenantId: number, connectionId: number, providerMessageId: string, status: string) =>
      t.core.broker.call("channels.ack", { tenantId, connectionId, providerMessageId, status }) as Promise<{ applied: boolean }>;
    const statusOf = async (ticketId: number, id: number) => (await messagesOf(t, ticketId, a.admin)).messages.find((m) => m.id === id)!.status;

    it("move the status forward only: read then delivered stays read", async () => {
      const { ticketId } = await openTicket(t, a, conn.id, a.agent);
      const m = (await t.api.post(`/messages/${ticketId}`, { body: "confirmar" }, a.agent)).body as MessageView;
      expect(m).toMatchObject({ status: "sent", providerId: expect.any(String) });
      expect((await ack(a.tenantId, conn.id, m.providerId!, "delivered")).applied).toBe(true);
      expect(await statusOf(ticketId, m.id)).toBe("delivered");
      await ack(a.tenantId, conn.id, m.providerId!, "sent");
      expect(await statusOf(ticketId, m.id)).toBe("delivered");
      await ack(a.tenantId, conn.id, m.providerId!, "read");
      expect(await statusOf(ticketId, m.id)).toBe("read");
      await ack(a.tenantId, conn.id, m.providerId!, "delivered");
      expect(await statusOf(ticketId, m.id)).toBe("read");
      await ack(a.tenantId, conn.id, m.providerId!, "failed");
      expect(await statusOf(ticketId, m.id)).toBe("read");

      // Straight to read from sent; a failure after sent is recorded.
      const m2 = (await t.api.post(`/messages/${ticketId}`, { body: "segunda" }, a.agent)).body as MessageView;
      await ack(a.tenantId, conn.id, m2.providerId!, "read");
      expect(await statusOf(ticketId, m2.id)).toBe("read");
      const m3 = (await t.api.post(`/messages/${ticketId}`, { body: "terceira" }, a.agent)).body as MessageView;
      await t.core.broker.call("channels.ack", { tenantId: a.tenantId, connectionId: conn.id, providerMessageId: m3.providerId, status: "failed", reason: "blocked" });
      expect((await messagesOf(t, ticketId, a.admin)).messages.find((x) => x.id === m3.id)).toMatchObject({ status: "failed", failReason: "blocked" });
      // An unknown provider id changes nothing.
      expect((await ack(a.tenantId, conn.id, "unknown-id", "read")).applied).toBe(false);
    });

    it("an applied ack tells listeners the message as stored, the row read once; a status already reached writes nothing", async () => {
      const heard: Array<{ action: string; message: MessageView & { updatedAt?: unknown } }> = [];
      const listener = t.core.broker.createService({ name: `ack-listener-${uid()}`, events: { "messages.changed": (ctx: { params: { action: string; message: MessageView } }) => void heard.push(ctx.params) } });
      const seq = t.core.sequelize as unknown as { options: { logging: unknown } };
      const sql: string[] = [];
      try {
        const { ticketId } = await openTicket(t, a, conn.id, a.agent);
        const m = (await t.api.post(`/messages/${ticketId}`, { body: "contado" }, a.agent)).body as MessageView;
        heard.length = 0;
        seq.options.logging = (q: string) => void sql.push(q);
        expect((await ack(a.tenantId, conn.id, m.providerId!, "delivered")).applied).toBe(true);
        seq.options.logging = false;
        // The message read, its status written, the ticket read for who hears it: not the message again.
        expect(sql.filter((q) => /FROM `messages`/.test(q))).toHaveLength(1);
        expect(sql.filter((q) => /^Executing \([^)]*\): UPDATE `messages`/.test(q))).toHaveLength(1);
        for (let i = 0; i < 50 && !heard.some((h) => h.action === "update"); i++) await new Promise((r) => setTimeout(r, 20));
        const told = heard.find((h) => h.action === "update")!.message;
        const stored = (await t.core.broker.call("messages.one", { tenantId: a.tenantId, id: m.id })) as MessageView;
        expect(told).toEqual(stored);
        expect(told).toMatchObject({ status: "delivered", failReason: null });

        // Delivered again, or sent after delivered: read, not written, nobody told.
        sql.length = 0;
        heard.length = 0;
        seq.options.logging = (q: string) => void sql.push(q);
        expect((await ack(a.tenantId, conn.id, m.providerId!, "delivered")).applied).toBe(true);
        expect((await ack(a.tenantId, conn.id, m.providerId!, "sent")).applied).toBe(true);
        seq.options.logging = false;
        expect(sql.filter((q) => /UPDATE/.test(q))).toEqual([]);
        expect(await statusOf(ticketId, m.id)).toBe("delivered");
        expect(heard.filter((h) => h.action === "update")).toEqual([]);
      } finally {
        seq.options.logging = false;
        await t.core.broker.destroyService(listener);
      }
    });

    it("an ack naming another tenant is refused and changes nothing", async () => {
      const { ticketId } = await openTicket(t, a, conn.id, a.agent);
      const m = (await t.api.post(`/messages/${ticketId}`, { body: "isolado" }, a.agent)).body as MessageView;
      await expect(ack(b.tenantId, conn.id, m.providerId!, "read")).rejects.toMatchObject({ type: "ERR_CONNECTION_NOT_FOUND" });
      await expect(ack(b.tenantId, bConn.id, m.providerId!, "read")).resolves.toEqual({ applied: false });
      expect(await statusOf(ticketId, m.id)).toBe("sent");
    });
  });

  it("a closed ticket takes no new message from an agent", async () => {
    const { ticketId } = await openTicket(t, a, conn.id, a.agent);
    await t.api.put(`/tickets/${ticketId}`, { status: "closed" }, a.agent);
    const r = await t.api.post(`/messages/${ticketId}`, { body: "depois de fechado" }, a.agent);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect((await messagesOf(t, ticketId, a.admin)).messages.map((m) => m.body)).toEqual(["olá"]);
  });

  it("an agent who may not see a ticket can neither read nor write its messages", async () => {
    const other = await connectWebchat(t, a, a.queueIds[1]);
    const { ticketId, messageId } = await inbound(t, a.tenantId, other.id);
    expectError(await t.api.get(`/messages/${ticketId}`, a.agent), 404, "ERR_TICKET_NOT_FOUND");
    expectError(await t.api.post(`/messages/${ticketId}`, { body: "x" }, a.agent), 404, "ERR_TICKET_NOT_FOUND");
    expectError(await t.api.post(`/messagesReaction/${messageId}`, { emoji: "👍" }, a.agent), 404, "ERR_MESSAGE_NOT_FOUND");
  });
});
