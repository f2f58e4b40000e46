/**
 * Connections, the spec's Channel (spec §3, §4, §5, §6): CRUD by admins, names unique per
 * tenant, settings checked by the channel plugin's manifest schema, typed delete confirmation,
 * the default flag, the free plan's one connection, transfer of conversations between two
 * connections, and status reports reaching the tenant's admins live.
 */
import { io as ioClient, Socket } from "socket.io-client";
import { startCore, createTenant, TestCore, TenantFixture, Auth, Res, uid } from "./helpers";

function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
}

type ConnectionView = { id: number; name: string; type: string; status: string; isDefault: boolean; queueId: number | null; token?: string; settings?: Record<string, unknown>; qrcode?: string | null };

const webchat = (name: string, extra: Record<string, unknown> = {}) => ({ name, type: "channel-webchat", ...extra });

async function inbound(t: TestCore, tenantId: number, connectionId: number, ext: string, body = "olá") {
  return (await t.core.broker.call("channels.inbound", {
    tenantId,
    connectionId,
    providerMessageId: `p-${uid()}-${uid()}`,
    timestamp: Date.now(),
    from: { externalId: ext, name: `Cliente ${ext}` },
    body,
  })) as { ticketId: number; messageId: number };
}

function socketOf(t: TestCore, auth: Auth): Promise<{ socket: Socket; events: Array<{ event: string; payload: any }> }> {
  const events: Array<{ event: string; payload: any }> = [];
  const socket = ioClient(t.url, { path: "/socket.io", transports: ["websocket"], auth: { token: auth.token, sessionId: auth.sessionId }, reconnection: false });
  socket.onAny((event, payload) => events.push({ event, payload }));
  return new Promise((resolve, reject) => {
    socket.on("ready", () => resolve({ socket, events }));
    socket.on("connect_error", reject);
  });
}

const waitFor = async (cond: () => boolean, ms = 5000) => {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe("connections (MariaDB)", () => {
  let t: TestCore;
  let a: TenantFixture;
  let b: TenantFixture;

  beforeAll(async () => {
    t = await startCore();
    a = await createTenant(t, { tier: "PLUS" });
    b = await createTenant(t, { tier: "PLUS" });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("an admin creates, reads, updates and deletes a connection; agents and supervisors cannot write", async () => {
    const c = await t.api.post("/connections", webchat("  Site principal  ", { greeting: "Olá!", farewell: "Tchau", queueId: a.queueIds[0], settings: { title: "Fale conosco", mainColor: "#00AAff" } }), a.admin);
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ name: "Site principal", type: "channel-webchat", status: "disconnected", queueId: a.queueIds[0], greeting: "Olá!", farewell: "Tchau", settings: { title: "Fale conosco", mainColor: "#00AAff" } });
    expect(c.body.token).toEqual(expect.any(String));
    const id = c.body.id as number;

    const got = await t.api.get(`/connections/${id}`, a.admin);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id, name: "Site principal", token: c.body.token });

    const up = await t.api.put(`/connections/${id}`, { name: "Site novo", greeting: "Oi", settings: { footerText: "rodapé" } }, a.admin);
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ id, name: "Site novo", greeting: "Oi", settings: { title: "Fale conosco", mainColor: "#00AAff", footerText: "rodapé" } });
    // The widget sees the settings.
    const cfg = await t.api.get(`/webchat/${c.body.token}/config`);
    expect(cfg.body).toMatchObject({ title: "Fale conosco", mainColor: "#00AAff", footerText: "rodapé" });

    for (const who of [a.agent, a.supervisor]) {
      expectError(await t.api.post("/connections", webchat(`X ${uid()}`), who), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.put(`/connections/${id}`, { name: "hack" }, who), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.del(`/connections/${id}?confirmation=EXCLUIR`, who), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.post(`/connections/${id}/connect`, {}, who), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.post(`/connections/${id}/disconnect`, {}, who), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.post("/connections/transfer", { fromConnectionId: id, toConnectionId: id + 1 }, who), 403, "ERR_NO_PERMISSION");
    }
    expect((await t.api.get(`/connections/${id}`, a.admin)).body.name).toBe("Site novo");

    const d = await t.api.del(`/connections/${id}?confirmation=EXCLUIR`, a.admin);
    expect(d.status).toBe(200);
    expect(d.body).toMatchObject({ id, deleted: true });
    expectError(await t.api.get(`/connections/${id}`, a.admin), 404, "ERR_CONNECTION_NOT_FOUND");
    // The widget of a deleted connection is gone too.
    expect((await t.api.get(`/webchat/${c.body.token}/config`)).status).toBe(404);
  });

  it("non-admins see connections without token, settings or QR code", async () => {
    const c = await t.api.post("/connections", webchat(`Sigilo ${uid()}`, { settings: { title: "t" } }), a.admin);
    for (const who of [a.agent, a.supervisor]) {
      const list = await t.api.get("/connections", who);
      expect(list.status).toBe(200);
      const mine = (list.body as ConnectionView[]).find((x) => x.id === c.body.id)!;
      expect(mine).toMatchObject({ id: c.body.id, name: c.body.name, type: "channel-webchat" });
      for (const k of ["token", "settings", "qrcode", "greeting", "farewell"]) expect(mine).not.toHaveProperty(k);
      const one = await t.api.get(`/connections/${c.body.id}`, who);
      expect(one.status).toBe(200);
      expect(one.body).not.toHaveProperty("token");
      expect(one.body).not.toHaveProperty("settings");
    }
    const adminList = (await t.api.get("/connections", a.admin)).body as ConnectionView[];
    expect(adminList.find((x) => x.id === c.body.id)!.token).toBe(c.body.token);
    // Another tenant sees nothing of it.
    expect(((await t.api.get("/connections", b.admin)).body as ConnectionView[]).map((x) => x.id)).not.toContain(c.body.id);
    expectError(await t.api.get(`/connections/${c.body.id}`, b.admin), 404, "ERR_CONNECTION_NOT_FOUND");
  });

  it("names are unique per tenant (409), and the same name in another tenant is fine", async () => {
    const name = `Atendimento ${uid()}`;
    expect((await t.api.post("/connections", webchat(name), a.admin)).status).toBe(201);
    expectError(await t.api.post("/connections", webchat(name), a.admin), 409, "ERR_CONNECTION_NAME_IN_USE");
    expectError(await t.api.post("/connections", webchat(`  ${name} `), a.admin), 409, "ERR_CONNECTION_NAME_IN_USE");
    expect((await t.api.post("/connections", webchat(name), b.admin)).status).toBe(201);
    const other = await t.api.post("/connections", webchat(`Outro ${uid()}`), a.admin);
    const clash = await t.api.put(`/connections/${other.body.id}`, { name }, a.admin);
    expectError(clash, 409, "ERR_CONNECTION_NAME_IN_USE");
    expect(clash.body.data.field).toBe("name");
    expect((await t.api.get(`/connections/${other.body.id}`, a.admin)).body.name).toBe(other.body.name);
    // Renaming to its own name is no clash.
    expect((await t.api.put(`/connections/${other.body.id}`, { name: other.body.name }, a.admin)).status).toBe(200);
  });

  it("type-specific settings follow the plugin's manifest schema; an unknown type is 404", async () => {
    const bad = await t.api.post("/connections", webchat(`Cor ${uid()}`, { settings: { mainColor: "red" } }), a.admin);
    expectError(bad, 400, "ERR_VALIDATION");
    expect(bad.body.data.field).toBe("settings.mainColor");
    expectError(await t.api.post("/connections", webchat(`Cor ${uid()}`, { settings: { mainColor: "#12345" } }), a.admin), 400, "ERR_VALIDATION");
    expectError(await t.api.post("/connections", webchat(`Cor ${uid()}`, { settings: { autoOpen: "sim" } }), a.admin), 400, "ERR_VALIDATION");
    const ok = await t.api.post("/connections", webchat(`Cor ${uid()}`, { settings: { mainColor: "#a1B2c3", unknownKey: "dropped" } }), a.admin);
    expect(ok.status).toBe(201);
    expect(ok.body.settings).toEqual({ mainColor: "#a1B2c3" });
    const badUpdate = await t.api.put(`/connections/${ok.body.id}`, { settings: { mainColor: "#GGGGGG" } }, a.admin);
    expectError(badUpdate, 400, "ERR_VALIDATION");
    expect(badUpdate.body.data.field).toBe("settings.mainColor");
    expect((await t.api.get(`/connections/${ok.body.id}`, a.admin)).body.settings).toEqual({ mainColor: "#a1B2c3" });

    // The queue a connection feeds must be the tenant's own.
    expectError(await t.api.post("/connections", webchat(`Fila ${uid()}`, { queueId: b.queueIds[0] }), a.admin), 404, "ERR_QUEUE_NOT_FOUND");
    expectError(await t.api.put(`/connections/${ok.body.id}`, { queueId: b.queueIds[0] }, a.admin), 404, "ERR_QUEUE_NOT_FOUND");
    expect((await t.api.put(`/connections/${ok.body.id}`, { queueId: a.queueIds[1] }, a.admin)).body.queueId).toBe(a.queueIds[1]);

    const unknown = await t.api.post("/connections", { name: `X ${uid()}`, type: "channel-pombo-correio" }, a.admin);
    expectError(unknown, 404, "ERR_PLUGIN_NOT_FOUND");
    expectError(await t.api.post("/connections", { name: `X ${uid()}` }, a.admin), 400, "ERR_VALIDATION");
    expectError(await t.api.post("/connections", webchat(""), a.admin), 400, "ERR_VALIDATION");
  });

  it("deleting needs the typed word (EXCLUIR / DELETE) or the connection's name", async () => {
    const make = async () => (await t.api.post("/connections", webchat(`Apagar ${uid()}`), a.admin)).body as ConnectionView;
    const c = await make();
    expectError(await t.api.del(`/connections/${c.id}`, a.admin), 400, "ERR_CONNECTION_DELETE_CONFIRMATION");
    expectError(await t.api.del(`/connections/${c.id}?confirmation=SIM`, a.admin), 400, "ERR_CONNECTION_DELETE_CONFIRMATION");
    expectError(await t.api.del(`/connections/${c.id}?confirmation=${encodeURIComponent(c.name + "x")}`, a.admin), 400, "ERR_CONNECTION_DELETE_CONFIRMATION");
    expect((await t.api.get(`/connections/${c.id}`, a.admin)).status).toBe(200);
    expect((await t.api.del(`/connections/${c.id}?confirmation=EXCLUIR`, a.admin)).status).toBe(200);
    const c2 = await make();
    expect((await t.api.del(`/connections/${c2.id}?confirmation=DELETE`, a.admin)).status).toBe(200);
    const c3 = await make();
    expect((await t.api.del(`/connections/${c3.id}?confirmation=${encodeURIComponent(c3.name)}`, a.admin)).status).toBe(200);
    // Another tenant's connection: 404 whatever is typed.
    const theirs = (await t.api.post("/connections", webchat(`Deles ${uid()}`), b.admin)).body as ConnectionView;
    expectError(await t.api.del(`/connections/${theirs.id}?confirmation=EXCLUIR`, a.admin), 404, "ERR_CONNECTION_NOT_FOUND");
    expect((await t.api.get(`/connections/${theirs.id}`, b.admin)).status).toBe(200);
  });

  it("only one connection is the default", async () => {
    const f = await createTenant(t, { tier: "PLUS" });
    const defaults = async () => ((await t.api.get("/connections", f.admin)).body as ConnectionView[]).filter((x) => x.isDefault).map((x) => x.id);
    const c1 = (await t.api.post("/connections", webchat("Um"), f.admin)).body as ConnectionView;
    expect(c1.isDefault).toBe(true); // the first one
    const c2 = (await t.api.post("/connections", webchat("Dois"), f.admin)).body as ConnectionView;
    expect(c2.isDefault).toBe(false);
    expect(await defaults()).toEqual([c1.id]);
    const c3 = (await t.api.post("/connections", webchat("Três", { isDefault: true }), f.admin)).body as ConnectionView;
    expect(c3.isDefault).toBe(true);
    expect(await defaults()).toEqual([c3.id]);
    expect((await t.api.put(`/connections/${c2.id}`, { isDefault: true }, f.admin)).body.isDefault).toBe(true);
    expect(await defaults()).toEqual([c2.id]);
    // A ticket opened without a connection goes to the default one.
    const contact = await t.api.post("/contacts", { name: "Padrão", number: "5511955550001" }, f.admin);
    const tk = await t.api.post("/tickets", { contactId: contact.body.id }, f.admin);
    expect(tk.status).toBe(201);
    expect(tk.body.connectionId).toBe(c2.id);
  });

  it("a FREE tenant may have one connection: a second is 403", async () => {
    const free = await createTenant(t);
    expect((await t.api.post("/connections", webchat("Única"), free.admin)).status).toBe(201);
    expectError(await t.api.post("/connections", webchat("Segunda"), free.admin), 403, "ERR_FREE_PLAN_CONNECTION_LIMIT");
    expect((await t.api.get("/connections", free.admin)).body).toHaveLength(1);
    // Concurrent attempts do not get past the limit either.
    const again = await Promise.all([1, 2, 3].map((i) => t.api.post("/connections", webchat(`Corrida ${i}`), free.admin)));
    expect(again.map((r) => r.status)).toEqual([403, 403, 403]);
    expect((await t.api.get("/connections", free.admin)).body).toHaveLength(1);
  });

  it("transfers conversations from one connection to another", async () => {
    const f = await createTenant(t, { tier: "PLUS" });
    const from = (await t.api.post("/connections", webchat("Origem", { queueId: f.queueIds[0] }), f.admin)).body as ConnectionView;
    const to = (await t.api.post("/connections", webchat("Destino", { queueId: f.queueIds[0] }), f.admin)).body as ConnectionView;
    const x = await inbound(t, f.tenantId, from.id, `x-${uid()}`); // active only on the origin
    const yExt = `y-${uid()}`;
    const yFrom = await inbound(t, f.tenantId, from.id, yExt); // active on both
    const yTo = await inbound(t, f.tenantId, to.id, yExt);
    const z = await inbound(t, f.tenantId, from.id, `z-${uid()}`); // closed on the origin
    await t.api.put(`/tickets/${z.ticketId}`, { status: "open" }, f.admin);
    await t.api.put(`/tickets/${z.ticketId}`, { status: "closed" }, f.admin);

    expectError(await t.api.post("/connections/transfer", { fromConnectionId: from.id, toConnectionId: from.id }, f.admin), 400, "ERR_CONNECTION_TRANSFER_SAME");
    expectError(await t.api.post("/connections/transfer", { fromConnectionId: from.id }, f.admin), 400, "ERR_VALIDATION");
    const theirs = (await t.api.post("/connections", webchat(`Deles ${uid()}`), b.admin)).body as ConnectionView;
    expectError(await t.api.post("/connections/transfer", { fromConnectionId: from.id, toConnectionId: theirs.id }, f.admin), 404, "ERR_CONNECTION_NOT_FOUND");
    expectError(await t.api.post("/connections/transfer", { fromConnectionId: theirs.id, toConnectionId: from.id }, f.admin), 404, "ERR_CONNECTION_NOT_FOUND");
    expect((await t.api.get(`/tickets/${x.ticketId}`, f.admin)).body.connectionId).toBe(from.id);

    const r = await t.api.post("/connections/transfer", { fromConnectionId: from.id, toConnectionId: to.id }, f.admin);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ fromConnectionId: from.id, toConnectionId: to.id, moved: 3 });
    const get = async (id: number) => (await t.api.get(`/tickets/${id}`, f.admin)).body;
    expect(await get(x.ticketId)).toMatchObject({ connectionId: to.id, status: "pending" });
    expect(await get(z.ticketId)).toMatchObject({ connectionId: to.id, status: "closed" });
    // The contact already active on the destination keeps that ticket; the origin's one is closed.
    expect(await get(yTo.ticketId)).toMatchObject({ connectionId: to.id, status: "pending" });
    expect(await get(yFrom.ticketId)).toMatchObject({ connectionId: to.id, status: "closed" });
    const all = (await t.api.get("/tickets?status=open,pending,closed&showAll=true&pageSize=100", f.admin)).body.tickets as Array<{ connectionId: number }>;
    expect(all.every((tk) => tk.connectionId === to.id)).toBe(true);
  });

  it("a moved ticket keeps taking its contact's messages on the destination", async () => {
    const f = await createTenant(t, { tier: "PLUS" });
    const from = (await t.api.post("/connections", webchat("O"), f.admin)).body as ConnectionView;
    const to = (await t.api.post("/connections", webchat("D"), f.admin)).body as ConnectionView;
    const ext = `m-${uid()}`;
    const first = await inbound(t, f.tenantId, from.id, ext, "antes");
    await t.api.post("/connections/transfer", { fromConnectionId: from.id, toConnectionId: to.id }, f.admin);
    const next = await inbound(t, f.tenantId, to.id, ext, "depois");
    expect(next.ticketId).toBe(first.ticketId);
    const msgs = (await t.api.get(`/messages/${first.ticketId}`, f.admin)).body.messages.map((m: { body: string }) => m.body);
    expect(msgs).toEqual(["antes", "depois"]);
  });

  it("connect and disconnect report the status, and the tenant's admins hear it live (nobody else does)", async () => {
    const c = (await t.api.post("/connections", webchat(`Ao vivo ${uid()}`), a.admin)).body as ConnectionView;
    const admin = await socketOf(t, a.admin);
    const agent = await socketOf(t, a.agent);
    const supervisor = await socketOf(t, a.supervisor);
    const otherAdmin = await socketOf(t, b.admin);
    const statusEvents = (s: { events: Array<{ event: string; payload: any }> }) =>
      s.events.filter((e) => e.event === `${a.tenantId}:whatsappSession` && e.payload.session.id === c.id).map((e) => e.payload.session.status as string);
    try {
      const on = await t.api.post(`/connections/${c.id}/connect`, {}, a.admin);
      expect(on.status).toBe(200);
      expect(on.body.status).toBe("connected");
      await waitFor(() => statusEvents(admin).includes("connected"));
      expect((await t.api.get(`/connections/${c.id}`, a.admin)).body.status).toBe("connected");
      expect(((await t.api.get("/connections", a.agent)).body as ConnectionView[]).find((x) => x.id === c.id)!.status).toBe("connected");

      const off = await t.api.post(`/connections/${c.id}/disconnect`, {}, a.admin);
      expect(off.body.status).toBe("disconnected");
      await waitFor(() => statusEvents(admin).includes("disconnected"));
      expect((await t.api.get(`/connections/${c.id}`, a.admin)).body.status).toBe("disconnected");

      // A plugin's own report (a QR code to scan) reaches the admins with the code.
      await t.core.broker.call("channels.status", { tenantId: a.tenantId, connectionId: c.id, status: "qrcode", qrcode: "QR-DATA" });
      await waitFor(() => statusEvents(admin).includes("qrcode"));
      expect(admin.events.find((e) => e.payload?.session?.status === "qrcode")!.payload).toMatchObject({ action: "update", session: { id: c.id, status: "qrcode", qrcode: "QR-DATA" } });
      expect((await t.api.get(`/connections/${c.id}`, a.admin)).body).toMatchObject({ status: "qrcode", qrcode: "QR-DATA" });
      expect((await t.api.get(`/connections/${c.id}`, a.agent)).body).not.toHaveProperty("qrcode");
      // A report naming another tenant is refused.
      await expect(t.core.broker.call("channels.status", { tenantId: b.tenantId, connectionId: c.id, status: "connected" })).rejects.toMatchObject({ type: "ERR_CONNECTION_NOT_FOUND" });
      expect((await t.api.get(`/connections/${c.id}`, a.admin)).body.status).toBe("qrcode");

      await new Promise((r) => setTimeout(r, 200));
      expect(statusEvents(agent)).toEqual([]);
      // Nor the supervisor: the QR code is for the admins, as in GET /connections/:id.
      expect(statusEvents(supervisor)).toEqual([]);
      expect(JSON.stringify(supervisor.events)).not.toContain("QR-DATA");
      expect(otherAdmin.events.filter((e) => e.event !== "ready")).toEqual([]);
    } finally {
      admin.socket.disconnect();
      agent.socket.disconnect();
      supervisor.socket.disconnect();
      otherAdmin.socket.disconnect();
    }
  });
});
