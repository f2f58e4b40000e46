/**
 * The internal chat against a real core on MariaDB: the bundled plugin loaded by the host (its
 * own database migrated), allowed by the platform level for the tenants, its routes answering
 * through the gateway. One-to-one and group chats, live pushes to the members only, unread
 * counts, history pages, every §5 rule (texts, image URLs, audio too short, file types and
 * sizes), groups by admins only, and 404 across tenants on every route and for a group the
 * caller is not in.
 */
import { createConnection } from "mysql2/promise";
import { io as ioClient, type Socket } from "socket.io-client";
import { createSuper, createTenant, startCore, uid, type Auth, type Res, type TenantFixture, type TestCore } from "@openatende/core/testkit";

jest.setTimeout(180_000);

let t: TestCore;
let a: TenantFixture;
let b: TenantFixture;
let free: TenantFixture;

const EV = (e: string) => `plugin:module-internal-chat:${e}`;
/** A 1×1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
/** A WebM (EBML) header followed by 2 KB: what Chrome's recorder makes, long enough for the byte floor. */
const webm = (bytes = 2048) => Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(bytes, 7)]).toString("base64");

function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
}

async function ok<T = any>(p: Promise<Res<T>>, status = 200): Promise<T> {
  const r = await p;
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function waitFor<T>(what: string, read: () => Promise<T> | T, good: (v: T) => boolean, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (good(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function socketOf(who: Auth): Promise<{ socket: Socket; events: Array<{ event: string; payload: any }> }> {
  const events: Array<{ event: string; payload: any }> = [];
  const socket = ioClient(t.url, { path: "/socket.io", transports: ["websocket"], auth: { token: who.token, sessionId: who.sessionId }, reconnection: false, forceNew: true });
  socket.onAny((event, payload) => events.push({ event, payload }));
  await new Promise<void>((resolve, reject) => {
    socket.on("ready", () => resolve());
    socket.on("connect_error", reject);
  });
  return { socket, events };
}

const conversations = (who: Auth) => ok(t.api.get("/chat-interno/conversations", who));
const unreadFrom = async (who: Auth, userId: number) => (await conversations(who)).users.find((u: { id: number }) => u.id === userId)?.unread;
const text = (who: Auth, to: Record<string, number>, body: unknown) => t.api.post("/chat-interno/messages", { ...to, body }, who);
const file = (who: Auth, to: Record<string, number>, f: { mimeType: string; data: string; fileName?: string }, extra: Record<string, unknown> = {}) =>
  t.api.post("/chat-interno/media", { ...to, file: { fileName: f.fileName ?? "file", mimeType: f.mimeType, data: f.data }, ...extra }, who);

beforeAll(async () => {
  t = await startCore({ env: { NAMESPACE: `internal-chat-${uid()}` } });
  const sup = await createSuper(t);
  [a, b, free] = await Promise.all([createTenant(t, { tier: "PLUS" }), createTenant(t, { tier: "PLUS" }), createTenant(t)]);
  for (const f of [a, b, free]) expect((await t.api.put(`/plugins/module-internal-chat/tenants/${f.tenantId}`, { allowed: true }, sup)).status).toBe(200);
  await waitFor("GET /chat-interno/conversations", () => t.api.get("/chat-interno/conversations", a.admin), (r) => r.status !== 404);
});

afterAll(async () => {
  await t?.stop();
});

describe("the internal chat plugin in a core (MariaDB)", () => {
  it("has its own database, migrated by the host when it loaded the plugin", async () => {
    const db = await createConnection({ host: "127.0.0.1", port: 3306, user: "root", password: "" });
    try {
      const own = `${t.config.database.database}__module_internal_chat`;
      const [tables] = await db.query("SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME", [own]);
      expect((tables as Array<{ name: string }>).map((r) => r.name).sort()).toEqual(["_migrations", "_schema", "conversations", "members", "messages"]);
    } finally {
      await db.end();
    }
  });

  it("refuses a FREE tenant with the licence code naming PLUS", async () => {
    for (const r of [await t.api.get("/chat-interno/conversations", free.agent), await text(free.agent, { userId: free.admin.userId }, "Oi")]) {
      expect(r.body.error).toBe("ERR_LICENSE_TIER_REQUIRED");
      expect(r.body.data).toMatchObject({ requiredTier: "PLUS" });
    }
  });

  it("one-to-one: a text reaches the other user live, counts as unread until read, and pages back through history", async () => {
    const sup = await socketOf(a.supervisor);
    const outsider = await socketOf(a.admin);
    try {
      const sent = await ok(text(a.agent, { userId: a.supervisor.userId }, "  Bom dia, pode ajudar?  "));
      expect(sent).toMatchObject({ seq: 1, userId: a.agent.userId, kind: "text", body: "Bom dia, pode ajudar?" });
      const heard = await waitFor("the push", () => sup.events.filter((e) => e.event === EV("message")), (x) => x.length === 1);
      expect(heard[0].payload).toEqual({ conversation: { kind: "direct", userIds: [a.agent.userId, a.supervisor.userId].sort((x, y) => x - y) }, message: sent });

      const list = await conversations(a.supervisor);
      expect(list.users.map((u: { id: number }) => u.id).sort()).toEqual([a.admin.userId, a.agent.userId].sort());
      expect(list.users.find((u: { id: number }) => u.id === a.agent.userId)).toMatchObject({ name: "Agent", unread: 1, last: { kind: "text", preview: "Bom dia, pode ajudar?", userId: a.agent.userId } });
      expect(await unreadFrom(a.agent, a.supervisor.userId)).toBe(0); // the sender has read their own

      await ok(t.api.post("/chat-interno/read", { userId: a.agent.userId }, a.supervisor));
      expect(await unreadFrom(a.supervisor, a.agent.userId)).toBe(0);
      expect(sup.events.filter((e) => e.event === EV("read")).map((e) => e.payload.lastReadSeq)).toEqual([1]);

      // 34 more: pages of 30 back from the newest, then the rest; unread counts them.
      for (let i = 2; i <= 35; i++) await ok(text(i % 2 ? a.agent : a.supervisor, i % 2 ? { userId: a.supervisor.userId } : { userId: a.agent.userId }, `m${i}`));
      const p1 = await ok(t.api.get(`/chat-interno/messages?userId=${a.agent.userId}`, a.supervisor));
      expect(p1.messages.map((m: { seq: number }) => m.seq)).toEqual(Array.from({ length: 30 }, (_, i) => i + 6));
      expect(p1.hasMore).toBe(true);
      const p2 = await ok(t.api.get(`/chat-interno/messages?userId=${a.agent.userId}&before=6`, a.supervisor));
      expect(p2.messages.map((m: { body: string }) => m.body)).toEqual(["Bom dia, pode ajudar?", "m2", "m3", "m4", "m5"]);
      expect(p2.hasMore).toBe(false);
      const small = await ok(t.api.get(`/chat-interno/messages?userId=${a.supervisor.userId}&before=20&limit=3`, a.agent));
      expect(small.messages.map((m: { seq: number }) => m.seq)).toEqual([17, 18, 19]);
      expect(await unreadFrom(a.supervisor, a.agent.userId)).toBe(1); // only m35 from the agent since its last own message (m34)

      // Nobody else heard any of it; a chat not started yet is empty.
      expect(outsider.events.filter((e) => e.event.startsWith("plugin:module-internal-chat"))).toEqual([]);
      expect(await ok(t.api.get(`/chat-interno/messages?userId=${a.agent.userId}`, a.admin))).toMatchObject({ messages: [], hasMore: false });
      expect(sup.events.filter((e) => e.event === EV("message")).length).toBe(35);
    } finally {
      sup.socket.close();
      outsider.socket.close();
    }
  });

  it("refuses invalid messages, invalid image URLs, audio too short and files of other types or too large (spec §4, §5)", async () => {
    const to = { userId: a.admin.userId };
    for (const body of ["", "   ", "x".repeat(4001), 42, null]) expectError(await text(a.agent, to, body), 400, "ERR_INTERNAL_CHAT_INVALID_MESSAGE");
    expectError(await t.api.post("/chat-interno/messages", to, a.agent), 400, "ERR_INTERNAL_CHAT_INVALID_MESSAGE");
    for (const imageUrl of ["javascript:alert(1)", "ftp://files.test/a.png", "not a url", "data:image/png;base64,AAAA", "https://user:pw@img.test/a.png", `https://img.test/${"a".repeat(2100)}.png`, 7])
      expectError(await t.api.post("/chat-interno/messages", { ...to, imageUrl }, a.agent), 400, "ERR_INTERNAL_CHAT_INVALID_IMAGE_URL");
    const byUrl = await ok(t.api.post("/chat-interno/messages", { ...to, imageUrl: "https://img.test/cat.png", body: "gato" }, a.agent));
    expect(byUrl).toMatchObject({ kind: "image", mediaUrl: "https://img.test/cat.png", body: "gato" });

    // Audio: declared under 1 s, no duration, or under the byte floor: too short. Not audio inside: refused.
    expectError(await file(a.agent, to, { mimeType: "audio/webm", data: webm() }, { durationMs: 999 }), 400, "ERR_INTERNAL_CHAT_AUDIO_TOO_SHORT");
    expectError(await file(a.agent, to, { mimeType: "audio/webm", data: webm() }), 400, "ERR_INTERNAL_CHAT_AUDIO_TOO_SHORT");
    expectError(await file(a.agent, to, { mimeType: "audio/webm", data: webm(100) }, { durationMs: 5000 }), 400, "ERR_INTERNAL_CHAT_AUDIO_TOO_SHORT");
    expectError(await file(a.agent, to, { mimeType: "audio/webm;codecs=opus", data: Buffer.alloc(4096, 65).toString("base64") }, { durationMs: 3000 }), 400, "ERR_INTERNAL_CHAT_FILE_TYPE");
    const audio = await ok(file(a.agent, to, { mimeType: "audio/webm;codecs=opus", data: webm(), fileName: "audio.webm" }, { durationMs: 2500 }));
    expect(audio).toMatchObject({ kind: "audio", durationMs: 2500, mimeType: "audio/webm", size: 2052, mediaUrl: expect.stringMatching(/^\/api\/files\//) });
    const fetched = await fetch(`${t.url}${audio.mediaUrl}`, { headers: { authorization: `Bearer ${a.admin.token}`, "x-session-id": a.admin.sessionId } });
    expect(fetched.status).toBe(200);

    // Only images and audio; an image must be one by its content (the core's check); 10 MB at most.
    for (const mimeType of ["application/pdf", "text/html", "image/svg+xml", "video/mp4", "nonsense"]) expectError(await file(a.agent, to, { mimeType, data: webm() }), 400, "ERR_INTERNAL_CHAT_FILE_TYPE");
    expectError(await file(a.agent, to, { mimeType: "image/png", data: Buffer.from("<html><script>x</script></html>").toString("base64") }), 400, "ERR_INVALID_IMAGE_FORMAT");
    expectError(await file(a.agent, to, { mimeType: "image/png", data: Buffer.alloc(10 * 1024 * 1024 + 1).toString("base64") }), 413, "ERR_INTERNAL_CHAT_FILE_TOO_LARGE");
    expectError(await file(a.agent, to, { mimeType: "image/png", data: "" }), 400, "ERR_NO_FILE_UPLOADED");
    const image = await ok(file(a.agent, to, { mimeType: "image/png", data: PNG, fileName: "dot.png" }, { body: "olha" }));
    expect(image).toMatchObject({ kind: "image", mimeType: "image/png", body: "olha", fileName: expect.any(String) });

    // Talking to oneself, or to nobody in particular: a validation error.
    expectError(await text(a.agent, { userId: a.agent.userId }, "eu"), 400, "ERR_VALIDATION");
    expectError(await text(a.agent, { userId: a.admin.userId, groupId: 5 }, "os dois"), 400, "ERR_VALIDATION");
    const history = await ok(t.api.get(`/chat-interno/messages?userId=${a.agent.userId}`, a.admin));
    expect(history.messages.map((m: { kind: string }) => m.kind)).toEqual(["image", "audio", "image"]);
    expect((await conversations(a.admin)).users.find((u: { id: number }) => u.id === a.agent.userId).last).toMatchObject({ kind: "image", preview: "olha", userId: a.agent.userId });
  });

  it("groups: admins set them up (name, image ≤ 5 MB image only, active, users of the tenant); members chat live; others get 404", async () => {
    expectError(await t.api.post("/chat-interno/groups", { name: "Equipe", userIds: [a.agent.userId] }, a.agent), 403, "ERR_NO_PERMISSION");
    expectError(await t.api.post("/chat-interno/groups", { name: "Equipe", userIds: [a.agent.userId, b.agent.userId] }, a.admin), 404, "ERR_USER_NOT_FOUND");
    expect((await t.api.post("/chat-interno/groups", { name: "  ", userIds: [a.agent.userId] }, a.admin)).body.error).toBe("ERR_VALIDATION");
    expect((await t.api.post("/chat-interno/groups", { name: "Equipe", userIds: [] }, a.admin)).body.error).toBe("ERR_VALIDATION");
    const g = await ok(t.api.post("/chat-interno/groups", { name: " Equipe Suporte ", userIds: [a.agent.userId, a.admin.userId, a.agent.userId] }, a.admin));
    expect(g).toMatchObject({ name: "Equipe Suporte", active: true, imageUrl: null, userIds: [a.admin.userId, a.agent.userId].sort((x, y) => x - y) });

    // Photo: image only, 5 MB at most, an image by its content.
    const img = (data: string, mimeType = "image/png") => t.api.post("/chat-interno/groups/image", { id: g.id, file: { fileName: "g.png", mimeType, data } }, a.admin);
    expectError(await img(webm(), "audio/webm"), 400, "ERR_INTERNAL_CHAT_FILE_TYPE");
    expectError(await img(PNG, "image/svg+xml"), 400, "ERR_INTERNAL_CHAT_FILE_TYPE");
    expectError(await img(Buffer.alloc(5 * 1024 * 1024 + 1).toString("base64")), 413, "ERR_INTERNAL_CHAT_FILE_TOO_LARGE");
    expectError(await img(Buffer.from("GIF? no").toString("base64")), 400, "ERR_INVALID_IMAGE_FORMAT");
    expect((await ok(img(PNG))).imageUrl).toMatch(/^\/api\/files\//);

    const adminSocket = await socketOf(a.admin);
    const supSocket = await socketOf(a.supervisor);
    try {
      const m = await ok(text(a.agent, { groupId: g.id }, "Reunião às 15h"));
      await waitFor("the group push", () => adminSocket.events.filter((e) => e.event === EV("message")), (x) => x.length === 1);
      expect(adminSocket.events.find((e) => e.event === EV("message"))!.payload).toEqual({ conversation: { kind: "group", groupId: g.id }, message: m });
      const mine = (await conversations(a.admin)).groups;
      expect(mine).toEqual([expect.objectContaining({ id: g.id, name: "Equipe Suporte", unread: 1, last: expect.objectContaining({ preview: "Reunião às 15h" }) })]);

      // The supervisor is not in it: 404 on every route of it, no push, not in their list.
      expect((await conversations(a.supervisor)).groups).toEqual([]);
      expectError(await t.api.get(`/chat-interno/messages?groupId=${g.id}`, a.supervisor), 404, "ERR_INTERNAL_CHAT_GROUP_NOT_FOUND");
      expectError(await text(a.supervisor, { groupId: g.id }, "posso?"), 404, "ERR_INTERNAL_CHAT_GROUP_NOT_FOUND");
      expectError(await file(a.supervisor, { groupId: g.id }, { mimeType: "image/png", data: PNG }), 404, "ERR_INTERNAL_CHAT_GROUP_NOT_FOUND");
      expectError(await t.api.post("/chat-interno/read", { groupId: g.id }, a.supervisor), 404, "ERR_INTERNAL_CHAT_GROUP_NOT_FOUND");

      // Added later: no old unread, but the history; removed: 404 again.
      await ok(t.api.put("/chat-interno/groups", { id: g.id, userIds: [a.agent.userId, a.admin.userId, a.supervisor.userId] }, a.admin));
      expect((await conversations(a.supervisor)).groups).toEqual([expect.objectContaining({ id: g.id, unread: 0 })]);
      expect((await ok(t.api.get(`/chat-interno/messages?groupId=${g.id}`, a.supervisor))).messages.map((x: { body: string }) => x.body)).toEqual(["Reunião às 15h"]);
      await waitFor("groups.changed for the new member", () => supSocket.events.filter((e) => e.event === EV("groups.changed")), (x) => x.length >= 1);
      await ok(t.api.put("/chat-interno/groups", { id: g.id, userIds: [a.agent.userId, a.admin.userId] }, a.admin));
      expectError(await t.api.get(`/chat-interno/messages?groupId=${g.id}`, a.supervisor), 404, "ERR_INTERNAL_CHAT_GROUP_NOT_FOUND");
      expect(supSocket.events.filter((e) => e.event === EV("message"))).toEqual([]);

      // Inactive: history stays, nothing new goes in.
      await ok(t.api.put("/chat-interno/groups", { id: g.id, active: false, name: "Equipe antiga" }, a.admin));
      expectError(await text(a.agent, { groupId: g.id }, "alguém?"), 409, "ERR_INTERNAL_CHAT_GROUP_INACTIVE");
      expect((await conversations(a.agent)).groups[0]).toMatchObject({ name: "Equipe antiga", active: false });
      expect((await ok(t.api.get("/chat-interno/groups", a.admin))).map((x: { name: string }) => x.name)).toEqual(["Equipe antiga"]);
      expectError(await t.api.get("/chat-interno/groups", a.agent), 403, "ERR_NO_PERMISSION");

      await ok(t.api.del(`/chat-interno/groups?id=${g.id}`, a.admin));
      expectError(await t.api.get(`/chat-interno/messages?groupId=${g.id}`, a.agent), 404, "ERR_INTERNAL_CHAT_GROUP_NOT_FOUND");
      expect((await conversations(a.agent)).groups).toEqual([]);
    } finally {
      adminSocket.socket.close();
      supSocket.socket.close();
    }
  });

  it("another tenant's user or group answers 404 on every route", async () => {
    const g = await ok(t.api.post("/chat-interno/groups", { name: "Só da A", userIds: [a.admin.userId, a.agent.userId] }, a.admin));
    const before = (await ok(t.api.get(`/chat-interno/messages?groupId=${g.id}`, a.admin))).messages.length;
    const other = { userId: b.agent.userId };
    const group = { groupId: g.id };
    for (const [to, code] of [
      [other, "ERR_USER_NOT_FOUND"],
      [group, "ERR_INTERNAL_CHAT_GROUP_NOT_FOUND"],
    ] as const) {
      const q = new URLSearchParams(Object.entries(to).map(([k, v]): [string, string] => [k, String(v)])).toString();
      const who = "userId" in to ? a.agent : b.admin; // A's agent to B's user; B's admin to A's group
      expectError(await t.api.get(`/chat-interno/messages?${q}`, who), 404, code);
      expectError(await text(who, to, "olá"), 404, code);
      expectError(await t.api.post("/chat-interno/messages", { ...to, imageUrl: "https://img.test/a.png" }, who), 404, code);
      expectError(await file(who, to, { mimeType: "image/png", data: PNG }), 404, code);
      expectError(await file(who, to, { mimeType: "audio/ogg", data: webm() }, { durationMs: 2000 }), 404, code);
      expectError(await t.api.post("/chat-interno/read", to, who), 404, code);
    }
    expectError(await t.api.put("/chat-interno/groups", { id: g.id, name: "Minha" }, b.admin), 404, "ERR_INTERNAL_CHAT_GROUP_NOT_FOUND");
    expectError(await t.api.post("/chat-interno/groups/image", { id: g.id, file: { fileName: "g.png", mimeType: "image/png", data: PNG } }, b.admin), 404, "ERR_INTERNAL_CHAT_GROUP_NOT_FOUND");
    expectError(await t.api.del(`/chat-interno/groups?id=${g.id}`, b.admin), 404, "ERR_INTERNAL_CHAT_GROUP_NOT_FOUND");
    expectError(await t.api.post("/chat-interno/groups", { name: "Mista", userIds: [b.admin.userId, a.agent.userId] }, b.admin), 404, "ERR_USER_NOT_FOUND");
    // B's lists show none of A's users, groups or chats; A's group is untouched.
    const bList = await conversations(b.admin);
    expect(bList.users.map((u: { id: number }) => u.id).sort()).toEqual([b.supervisor.userId, b.agent.userId].sort());
    expect(bList.groups).toEqual([]);
    expect(await ok(t.api.get("/chat-interno/groups", b.admin))).toEqual([]);
    expect((await ok(t.api.get("/chat-interno/users", b.admin))).map((u: { id: number }) => u.id).sort()).toEqual([b.admin.userId, b.supervisor.userId, b.agent.userId].sort());
    const still = await ok(t.api.get(`/chat-interno/messages?groupId=${g.id}`, a.admin));
    expect(still.messages.length).toBe(before);
    expect((await ok(t.api.get("/chat-interno/groups", a.admin))).find((x: { id: number }) => x.id === g.id)).toMatchObject({ name: "Só da A", imageUrl: null });
  });
});
