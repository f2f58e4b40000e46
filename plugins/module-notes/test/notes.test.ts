/**
 * The notes module against a real core on MariaDB: the bundled plugin is loaded by the host,
 * allowed by the platform level for the tenants, and GET /api/notes answers through the core
 * API. Tenants never see each other's notes, whatever they ask; the filters (author, tag,
 * kind, date range, search, pages) select what they say; an agent sees their own ticket notes
 * and the contact notes; a FREE tenant is refused with the licence code naming PLUS.
 */
import { QueryTypes } from "sequelize";
import { createSuper, createTenant, startCore, uid, type Auth, type Res, type TenantFixture, type TestCore } from "@openatende/core/testkit";

jest.setTimeout(120_000);

type Note = { kind: "ticket" | "contact"; id: number; targetId: number; contactId: number; contactName: string; userId: number | null; userName: string | null; title: string | null; body: string; createdAt: string };
type NotesPage = { rows: Note[]; count: number; hasMore: boolean };

let t: TestCore;
let sup: Auth;
let a: TenantFixture;
let b: TenantFixture;
let free: TenantFixture;
/** A word only these tests' notes carry (the database is the test's own, but keep searches exact). */
const word = `zq${uid()}`;

const ids: {
  tagVip: number;
  tagLoja: number;
  c1: number;
  c2: number;
  tk1: number;
  tk2: number;
  agentTicketNote: number;
  adminTicketNote: number;
  supContactNote: number;
  adminContactNote: number;
  bTicketNote: number;
  bContactNote: number;
  cb: number;
} = {} as never;

function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
}

const qs = (q: Record<string, unknown>) =>
  Object.entries(q)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(Array.isArray(v) ? JSON.stringify(v) : String(v))}`)
    .join("&");

async function notes(who: Auth, q: Record<string, unknown> = {}): Promise<NotesPage> {
  const r = await t.api.get<NotesPage>(`/notes?${qs(q)}`, who);
  if (r.status !== 200) throw new Error(`GET /notes?${qs(q)}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}
const keys = (p: NotesPage) => p.rows.map((n) => `${n.kind}:${n.id}`).sort();
const key = (kind: "ticket" | "contact", id: number) => `${kind}:${id}`;

async function connection(f: TenantFixture): Promise<number> {
  const c = await t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", settings: { title: "Fale conosco" } }, f.admin);
  expect(c.status).toBe(201);
  expect((await t.api.post(`/connections/${c.body.id}/connect`, {}, f.admin)).status).toBe(200);
  return c.body.id;
}

async function contact(f: TenantFixture, name: string, number: string, tagIds: number[] = []): Promise<number> {
  const c = await t.api.post("/contacts", { name, number }, f.admin);
  expect(c.status).toBe(201);
  if (tagIds.length) expect((await t.api.put(`/contacts/${c.body.id}/tags`, { tagIds }, f.admin)).status).toBe(200);
  return c.body.id;
}

async function ticket(who: Auth, contactId: number, connectionId: number): Promise<number> {
  const r = await t.api.post("/tickets", { contactId, connectionId }, who);
  expect(r.status).toBe(201);
  return r.body.id;
}

async function ticketNote(who: Auth, ticketId: number, body: string): Promise<number> {
  const r = await t.api.post(`/tickets/${ticketId}/notes`, { body }, who);
  expect(r.status).toBe(201);
  return r.body.id;
}

async function contactNote(who: Auth, contactId: number, title: string, description: string): Promise<number> {
  const r = await t.api.post(`/contacts/${contactId}/notes`, { title, description }, who);
  expect(r.status).toBe(201);
  return (r.body.id ?? r.body.notes?.find((n: { title: string }) => n.title === title)?.id) as number;
}

/** The route appears once the host has started the plugin and the gateway has its alias. */
async function waitForRoute(who: Auth) {
  for (let i = 0; i < 150; i++) {
    const r = await t.api.get("/notes", who);
    if (r.status !== 404) return;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error("GET /notes never appeared");
}

beforeAll(async () => {
  t = await startCore();
  sup = await createSuper(t);
  [a, b, free] = await Promise.all([createTenant(t, { tier: "PLUS" }), createTenant(t, { tier: "PLUS" }), createTenant(t)]);
  // A bundled plugin of a paid tier is allowed only where the platform level says so.
  for (const f of [a, b, free]) expect((await t.api.put(`/plugins/module-notes/tenants/${f.tenantId}`, { allowed: true }, sup)).status).toBe(200);
  await waitForRoute(a.admin);

  const connA = await connection(a);
  ids.tagVip = (await t.api.post("/tags", { name: `VIP ${uid()}`, color: "#AA0011" }, a.admin)).body.id;
  ids.tagLoja = (await t.api.post("/tags", { name: `Loja ${uid()}`, color: "#00AA11" }, a.admin)).body.id;
  ids.c1 = await contact(a, "Carla Souza", "5511987650001", [ids.tagVip]);
  ids.c2 = await contact(a, "Diego Lima", "5511987650002", [ids.tagLoja]);
  ids.tk1 = await ticket(a.agent, ids.c1, connA);
  ids.tk2 = await ticket(a.admin, ids.c2, connA);
  ids.agentTicketNote = await ticketNote(a.agent, ids.tk1, `Pedido 1234 atrasado ${word}`);
  ids.adminTicketNote = await ticketNote(a.admin, ids.tk2, `Cliente pediu desconto ${word}`);
  ids.supContactNote = await contactNote(a.supervisor, ids.c1, "Preferência", `Prefere contato por e-mail ${word}`);
  ids.adminContactNote = await contactNote(a.admin, ids.c2, "Endereço", `Entregar na portaria ${word}`);
  // The admin's ticket note was written in January (the clock of the test is the database's: back-date it).
  await t.core.deps.sequelize.query("UPDATE ticket_notes SET createdAt = '2026-01-10 12:00:00' WHERE id = ?", { replacements: [ids.adminTicketNote], type: QueryTypes.UPDATE });

  const connB = await connection(b);
  const cb = (ids.cb = await contact(b, "Bruno de Outra Empresa", "5511987650009"));
  ids.bTicketNote = await ticketNote(b.admin, await ticket(b.admin, cb, connB), `Nota de B ${word}`);
  ids.bContactNote = await contactNote(b.admin, cb, "Só de B", `Contato de B ${word}`);
});

afterAll(async () => {
  await t?.stop();
});

describe("GET /notes (module-notes, MariaDB)", () => {
  it("answers both kinds of the caller's tenant, newest first, with contact, author and title", async () => {
    const p = await notes(a.admin);
    expect(keys(p)).toEqual([key("ticket", ids.agentTicketNote), key("ticket", ids.adminTicketNote), key("contact", ids.supContactNote), key("contact", ids.adminContactNote)].sort());
    expect(p.count).toBe(4);
    expect(p.hasMore).toBe(false);
    expect(p.rows[p.rows.length - 1]).toMatchObject({ kind: "ticket", id: ids.adminTicketNote, targetId: ids.tk2, contactId: ids.c2, contactName: "Diego Lima", userName: "Admin", title: null });
    expect(p.rows.find((n) => n.id === ids.supContactNote && n.kind === "contact")).toMatchObject({ targetId: ids.c1, contactId: ids.c1, contactName: "Carla Souza", userName: "Supervisor", title: "Preferência", body: `Prefere contato por e-mail ${word}` });
    const dates = p.rows.map((n) => n.createdAt);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it("never shows another tenant's notes, whatever the request names", async () => {
    const bKeys = [key("ticket", ids.bTicketNote), key("contact", ids.bContactNote)];
    expect(keys(await notes(b.admin))).toEqual([...bKeys].sort());
    for (const q of [{}, { search: word }, { search: "de B" }, { tenantId: b.tenantId }, { userIds: [b.admin.userId] }, { limit: 100 }]) {
      const p = await notes(a.admin, q);
      for (const k of bKeys) expect(keys(p)).not.toContain(k);
    }
    expect((await notes(a.admin, { userIds: [b.admin.userId] })).rows).toEqual([]);
    // A tenantId in the request is not the tenant: A's own answer, B's request is B's.
    expect(keys(await notes(b.admin, { tenantId: a.tenantId }))).toEqual([...bKeys].sort());
    expect((await notes(b.admin, { search: "Pedido 1234" })).rows).toEqual([]);
  });

  it("filters by author, tag, kind, date range and search", async () => {
    expect(keys(await notes(a.admin, { userIds: [a.agent.userId] }))).toEqual([key("ticket", ids.agentTicketNote)]);
    expect(keys(await notes(a.admin, { userIds: [a.admin.userId, a.supervisor.userId] }))).toEqual([key("ticket", ids.adminTicketNote), key("contact", ids.supContactNote), key("contact", ids.adminContactNote)].sort());
    // A tag selects the notes whose contact carries it (both kinds).
    expect(keys(await notes(a.admin, { tagIds: [ids.tagVip] }))).toEqual([key("ticket", ids.agentTicketNote), key("contact", ids.supContactNote)].sort());
    expect(keys(await notes(a.admin, { tagIds: [ids.tagLoja], kinds: ["contact"] }))).toEqual([key("contact", ids.adminContactNote)]);
    expect(keys(await notes(a.admin, { kinds: ["ticket"] }))).toEqual([key("ticket", ids.agentTicketNote), key("ticket", ids.adminTicketNote)].sort());
    // January holds the back-dated note only; a range ending before it holds nothing.
    expect(keys(await notes(a.admin, { from: "2026-01-01", to: "2026-01-31" }))).toEqual([key("ticket", ids.adminTicketNote)]);
    expect(keys(await notes(a.admin, { from: "2026-01-10T12:00:00Z", to: "2026-01-10T12:00:00Z" }))).toEqual([key("ticket", ids.adminTicketNote)]);
    expect((await notes(a.admin, { to: "2025-12-31" })).count).toBe(0);
    expect(keys(await notes(a.admin, { from: "2026-02-01" }))).not.toContain(key("ticket", ids.adminTicketNote));
    expect((await notes(a.admin, { from: "2026-02-01" })).count).toBe(3);
    // Search: a ticket note's text, a contact note's text, nothing.
    expect(keys(await notes(a.admin, { search: "pedido 1234" }))).toEqual([key("ticket", ids.agentTicketNote)]);
    expect(keys(await notes(a.admin, { search: "portaria" }))).toEqual([key("contact", ids.adminContactNote)]);
    expect((await notes(a.admin, { search: "nada disso existe" })).rows).toEqual([]);
    // Filters together.
    expect(keys(await notes(a.admin, { search: word, tagIds: [ids.tagVip], userIds: [a.supervisor.userId] }))).toEqual([key("contact", ids.supContactNote)]);
  });

  it("lists one contact's notes (its contact notes and its tickets' notes); another tenant's contact gives nothing", async () => {
    expect(keys(await notes(a.admin, { contactIds: [ids.c1] }))).toEqual([key("ticket", ids.agentTicketNote), key("contact", ids.supContactNote)].sort());
    expect(keys(await notes(a.admin, { contactIds: String(ids.c2) }))).toEqual([key("ticket", ids.adminTicketNote), key("contact", ids.adminContactNote)].sort());
    expect((await notes(a.admin, { contactIds: [ids.c1, ids.c2] })).count).toBe(4);
    expect(keys(await notes(a.admin, { contactIds: [ids.c1], kinds: ["contact"] }))).toEqual([key("contact", ids.supContactNote)]);
    expect(keys(await notes(a.admin, { contactIds: [ids.c2], tagIds: [ids.tagVip] }))).toEqual([]);
    expect(await notes(a.admin, { contactIds: [ids.cb] })).toEqual({ rows: [], count: 0, hasMore: false });
    expect(keys(await notes(a.admin, { contactIds: [ids.cb, ids.c1] }))).toEqual([key("ticket", ids.agentTicketNote), key("contact", ids.supContactNote)].sort());
    // The agents' rule holds: their own ticket notes and the contact's notes, not the admin's ticket note.
    expect(keys(await notes(a.agent, { contactIds: [ids.c2] }))).toEqual([key("contact", ids.adminContactNote)]);
    expect(keys(await notes(a.agent, { contactIds: [ids.c1] }))).toEqual([key("ticket", ids.agentTicketNote), key("contact", ids.supContactNote)].sort());
    expect(keys(await notes(b.admin, { contactIds: [ids.c1] }))).toEqual([]);
  });

  it("pages through the list", async () => {
    const all = await notes(a.admin);
    const p1 = await notes(a.admin, { page: 1, limit: 3 });
    const p2 = await notes(a.admin, { page: 2, limit: 3 });
    expect([p1.count, p1.hasMore, p1.rows.length, p2.count, p2.hasMore, p2.rows.length]).toEqual([4, true, 3, 4, false, 1]);
    expect([...p1.rows, ...p2.rows].map((n) => `${n.kind}:${n.id}`)).toEqual(all.rows.map((n) => `${n.kind}:${n.id}`));
  });

  it("an agent sees the ticket notes they wrote and every contact note; supervisors see all", async () => {
    const mine = [key("ticket", ids.agentTicketNote), key("contact", ids.supContactNote), key("contact", ids.adminContactNote)].sort();
    const p = await notes(a.agent);
    expect(keys(p)).toEqual(mine);
    expect(p.count).toBe(3);
    expect(keys(await notes(a.agent, { userIds: [a.admin.userId] }))).toEqual([key("contact", ids.adminContactNote)]);
    expect(keys(await notes(a.agent, { kinds: ["ticket"] }))).toEqual([key("ticket", ids.agentTicketNote)]);
    const p1 = await notes(a.agent, { limit: 2 });
    const p2 = await notes(a.agent, { limit: 2, page: 2 });
    expect([...p1.rows, ...p2.rows].map((n) => `${n.kind}:${n.id}`)).toEqual(p.rows.map((n) => `${n.kind}:${n.id}`));
    expect([p1.hasMore, p2.hasMore]).toEqual([true, false]);
    expect((await notes(a.supervisor)).count).toBe(4);
  });

  it("refuses wrong filters with ERR_VALIDATION naming the field", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ from: "2026-02-01", to: "2026-01-01" }, "to"],
      [{ from: "ontem" }, "from"],
      [{ limit: 101 }, "limit"],
      [{ page: 0 }, "page"],
      [{ userIds: "[-1]" }, "userIds"],
      [{ contactIds: "x" }, "contactIds"],
      [{ tagIds: "x" }, "tagIds"],
      [{ search: "x".repeat(121) }, "search"],
      [{ kinds: '["memo"]' }, "kinds"],
    ];
    for (const [q, field] of cases) {
      const r = await t.api.get(`/notes?${qs(q)}`, a.admin);
      expectError(r, 400, "ERR_VALIDATION");
      expect(r.body.data.field).toBe(field);
    }
    expectError(await t.api.get("/notes"), 401, "ERR_SESSION_REQUIRED");
  });

  it("refuses a FREE tenant with the licence code naming PLUS", async () => {
    for (const path of ["/notes", "/notes/export", "/notes/options"]) {
      const r = await t.api.get(path, free.admin);
      expectError(r, 403, "ERR_LICENSE_TIER_REQUIRED");
      expect(r.body.data).toMatchObject({ requiredTier: "PLUS" });
    }
  });

  it("exports the selection as CSV and lists the users and tags for the filters", async () => {
    const r = await t.api.get<string>(`/notes/export?${qs({ tagIds: [ids.tagVip] })}`, a.admin);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^text\/csv/);
    const lines = r.body.trim().split("\r\n");
    expect(lines[0]).toBe("kind,createdAt,contactId,contactName,userName,title,body,ticketId");
    expect(lines.slice(1).map((l) => l.split(",")[0]).sort()).toEqual(["contact", "ticket"]);
    expect(lines.join("\n")).toContain(`Pedido 1234 atrasado ${word}`);
    expect(lines.join("\n")).not.toContain("Nota de B");

    const o = await t.api.get<{ users: Array<{ id: number; name: string }>; tags: Array<{ id: number; name: string }> }>("/notes/options", a.agent);
    expect(o.status).toBe(200);
    expect(o.body.users.map((u) => u.id).sort()).toEqual([a.admin.userId, a.supervisor.userId, a.agent.userId].sort());
    expect(o.body.tags.map((x) => x.id).sort()).toEqual([ids.tagVip, ids.tagLoja].sort());
  });
});
