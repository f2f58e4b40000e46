/**
 * The Groups tab's WhatsApp routes (src/group-actions.ts) through the real gateway of a real
 * core (MariaDB, Redis, the access rules), with the plugin's session on a fake socket
 * (test/live-plugin.ts): a new group under spec §5's rules, each rule refused with its
 * catalogue code before WhatsApp is asked, another tenant's contacts and connections not
 * found, non-admins refused, and a group's join requests listed, approved and rejected.
 */
import { Boom } from "@hapi/boom";
import type { GroupMetadata } from "@whiskeysockets/baileys";
import { createTenant, startCore, uid, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { useFakeWhatsApp, type FakeWhatsApp } from "./live-plugin";
import { waMessage } from "./fixtures/wa";
import type { FakeSocket } from "./session/support/fake-socket";
import type { WASocketLike } from "../src/session/socket-factory";

jest.setTimeout(120_000);

const GROUP = "120363044444444444@g.us";
/** A PNG's first bytes: an image by content, whatever its declared type. */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]);

let t: TestCore;
let a: TenantFixture;
let b: TenantFixture;
let wa: FakeWhatsApp;
let sock: FakeSocket;
let conn: { id: number; token: string };
let idle: { id: number; token: string };
let otherTenantConn: { id: number; token: string };
const contacts: Record<string, number> = {};
let groupCreate: jest.SpiedFunction<WASocketLike["groupCreate"]>;

async function waitFor<T>(what: string, read: () => Promise<T | undefined | null | false>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function newConnection(who: Auth, name: string) {
  const r = await t.api.post("/connections", { name, type: "channel-whatsapp", settings: {} }, who);
  expect([r.status, r.body.error]).toEqual([201, undefined]);
  return { id: r.body.id as number, token: r.body.token as string };
}

async function newContact(who: Auth, body: Record<string, unknown>) {
  const r = await t.api.post("/contacts", body, who);
  expect([r.status, r.body.error]).toEqual([201, undefined]);
  return r.body.id as number;
}

const create = (body: Record<string, unknown>, who: Auth = a.admin) => t.api.post("/channel-whatsapp/groups", { token: conn.token, name: "Clientes VIP", contactIds: [contacts.ana], ...body }, who);
const errorOf = (r: { status: number; body: any }) => [r.status, r.body?.error, r.body?.data?.field];

beforeAll(async () => {
  t = await startCore({ env: { NAMESPACE: `wa-groups-${uid()}` } });
  wa = await useFakeWhatsApp(t.core.broker);
  a = await createTenant(t, { tier: "PLUS" });
  b = await createTenant(t, { tier: "PLUS" });

  conn = await newConnection(a.admin, "WhatsApp Loja");
  idle = await newConnection(a.admin, "WhatsApp Reserva");
  otherTenantConn = await newConnection(b.admin, "WhatsApp Outra Empresa");
  contacts.ana = await newContact(a.admin, { name: "Ana Souza", number: "5511988887777" });
  contacts.bruno = await newContact(a.admin, { name: "Bruno Lima", number: "5521977776666" });
  contacts.semNumero = await newContact(a.admin, { name: "Carla (só e-mail)", email: `carla-${uid()}@t.test` });
  contacts.deOutro = await newContact(b.admin, { name: "Cliente de outra empresa", number: "5531966665555" });

  // Linked: the connection opens on its fake socket.
  expect((await t.api.post(`/connections/${conn.id}/connect`, {}, a.admin)).status).toBe(200);
  sock = await waitFor("the connection's socket", async () => wa.factory.of(conn.id).at(-1));
  sock.open();
  await waitFor("connected", async () => (await t.api.get(`/connections/${conn.id}`, a.admin)).body.status === "connected");

  // WhatsApp answers a new group with its members, as groupCreate does.
  groupCreate = jest.spyOn(sock as WASocketLike, "groupCreate").mockImplementation(async (subject: string, participants: string[]) => ({
    id: "120363011111111111@g.us",
    subject,
    owner: "5511900000000@s.whatsapp.net",
    participants: [{ id: "5511900000000@s.whatsapp.net", admin: "superadmin" }, ...participants.map((id) => ({ id, admin: null }))],
  }) as GroupMetadata);
});

afterAll(async () => {
  await t?.stop();
});

describe("POST /channel-whatsapp/groups", () => {
  it("creates the group on WhatsApp with the contacts' numbers, each once, and the photo", async () => {
    const setPicture = jest.fn(async () => undefined);
    (sock as WASocketLike).updateProfilePicture = setPicture;
    const r = await create({ name: "  Clientes VIP  ", contactIds: [contacts.ana, contacts.bruno, contacts.ana], picture: { data: PNG.toString("base64"), mimeType: "image/png", fileName: "vip.png" } });
    expect([r.status, r.body.error]).toEqual([200, undefined]);
    expect(r.body).toEqual({
      externalId: "120363011111111111@g.us",
      name: "Clientes VIP",
      participants: ["5511900000000", "5511988887777", "5521977776666"],
      pictureSet: true,
    });
    expect(groupCreate.mock.calls).toEqual([["Clientes VIP", ["5511988887777@s.whatsapp.net", "5521977776666@s.whatsapp.net"]]]);
    expect(setPicture).toHaveBeenCalledTimes(1);
    expect(setPicture.mock.calls[0]).toEqual(["120363011111111111@g.us", PNG]);
    delete (sock as WASocketLike).updateProfilePicture;
  });

  it("still answers the group when WhatsApp does not take the photo", async () => {
    groupCreate.mockClear();
    const r = await create({ picture: { data: `data:image/png;base64,${PNG.toString("base64")}`, mimeType: "image/png" } });
    expect([r.status, r.body.pictureSet]).toEqual([200, false]);
    expect(groupCreate).toHaveBeenCalledTimes(1);
  });

  it("refuses each rule of spec §5 with its code, before WhatsApp is asked", async () => {
    groupCreate.mockClear();
    const many = Array.from({ length: 1024 }, (_, i) => 1_000_000 + i);
    const cases: Array<[Record<string, unknown>, [number, string, string | undefined]]> = [
      [{ name: undefined }, [400, "ERR_VALIDATION", "name"]],
      [{ name: "   " }, [400, "ERR_VALIDATION", "name"]],
      [{ name: "x".repeat(101) }, [400, "ERR_VALIDATION", "name"]],
      [{ token: undefined }, [400, "ERR_VALIDATION", "token"]],
      [{ contactIds: [] }, [400, "ERR_REQUIRED_CONTACT", "contactIds"]],
      [{ contactIds: undefined }, [400, "ERR_REQUIRED_CONTACT", "contactIds"]],
      [{ contactIds: many }, [400, "ERR_GROUP_PARTICIPANT_LIMIT", "contactIds"]],
      [{ contactIds: [contacts.semNumero] }, [400, "ERR_CONTACT_NUMBER_INVALID", "contactIds"]],
      [{ picture: { data: Buffer.alloc(5 * 1024 * 1024 + 1, 1).toString("base64"), mimeType: "image/jpeg" } }, [413, "ERR_GROUP_PICTURE_TOO_LARGE", "picture"]],
      [{ picture: { data: Buffer.from("%PDF-1.7 not an image").toString("base64"), mimeType: "image/png" } }, [400, "ERR_INVALID_IMAGE_FORMAT", "picture"]],
      [{ picture: { data: PNG.toString("base64"), mimeType: "application/pdf" } }, [400, "ERR_INVALID_IMAGE_FORMAT", "picture"]],
    ];
    for (const [body, expected] of cases) {
      const r = await create(body);
      expect([body, ...errorOf(r)]).toEqual([body, ...expected]);
    }
    // 1,023 contacts pass the limit (and are then looked up: these ids are nobody's).
    const r = await create({ contactIds: many.slice(1) });
    expect(errorOf(r)).toEqual([404, "ERR_CONTACT_NOT_FOUND", "contactIds"]);
    expect(groupCreate).not.toHaveBeenCalled();
  });

  it("does not find another tenant's contact or connection, and needs the session connected", async () => {
    groupCreate.mockClear();
    const other = await create({ contactIds: [contacts.ana, contacts.deOutro] });
    expect(errorOf(other)).toEqual([404, "ERR_CONTACT_NOT_FOUND", "contactIds"]);
    expect(other.body.data.ids).toEqual([contacts.deOutro]);
    expect(errorOf(await create({ token: otherTenantConn.token }))).toEqual([404, "ERR_CONNECTION_NOT_FOUND", "token"]);
    // Tenant B's admin cannot use tenant A's connection either.
    expect(errorOf(await create({ contactIds: [contacts.deOutro] }, b.admin))).toEqual([404, "ERR_CONNECTION_NOT_FOUND", "token"]);
    expect(errorOf(await create({ token: "no-such-connection-token" }))).toEqual([404, "ERR_CONNECTION_NOT_FOUND", "token"]);
    expect(errorOf(await create({ token: idle.token }))[0]).toBe(409);
    expect((await create({ token: idle.token })).body.error).toBe("ERR_SESSION_NOT_INITIALIZED");
    expect(groupCreate).not.toHaveBeenCalled();
  });

  it("is for admins only", async () => {
    groupCreate.mockClear();
    for (const who of [a.agent, a.supervisor]) expect(errorOf(await create({}, who))).toEqual([403, "ERR_NO_PERMISSION", undefined]);
    expect((await t.api.post("/channel-whatsapp/groups", { token: conn.token, name: "x", contactIds: [contacts.ana] })).status).toBe(401);
    expect(groupCreate).not.toHaveBeenCalled();
  });
});

describe("group join requests", () => {
  let groupContactId: number;
  let updates: Array<[string, string[], string]>;

  beforeAll(async () => {
    // A group message: the group reaches the Groups tab as a contact of its own.
    sock.groupMetadata = async (jid: string) => ({ id: jid, subject: "Clientes VIP", participants: [] }) as unknown as GroupMetadata;
    sock.upsert([waMessage({ remoteJid: GROUP, participant: "5511911111111@s.whatsapp.net", pushName: "Dora", message: { conversation: "Bom dia, grupo!" } })]);
    const ticket = await waitFor("the group ticket", async () => {
      const r = await t.api.get("/tickets?status=group&showAll=true", a.admin);
      return (r.body.tickets as Array<{ contactId: number; connectionId: number; isGroup: boolean }>).find((x) => x.isGroup && x.connectionId === conn.id);
    });
    groupContactId = ticket.contactId;

    (sock as WASocketLike).groupRequestParticipantsList = async (jid: string): Promise<Array<Record<string, string>>> =>
      jid === GROUP
        ? [
            { jid: "5511977776666@s.whatsapp.net", request_time: "1710082800", request_method: "invite_link" },
            { jid: "77000000000009@lid", phone_number: "5511966665555@s.whatsapp.net", request_time: "1710082900", request_method: "non_admin_add" },
          ]
        : [];
    updates = [];
    (sock as WASocketLike).groupRequestParticipantsUpdate = async (jid: string, participants: string[], action: "approve" | "reject") => {
      updates.push([jid, participants, action]);
      return participants.map((p) => ({ jid: p, status: p.startsWith("77000000000009") && action === "approve" ? "403" : "200" }));
    };
  });

  const list = (group: string | number, who: Auth = a.admin, tok = conn.token) => t.api.get(`/channel-whatsapp/groups/join-requests?token=${encodeURIComponent(tok)}&group=${encodeURIComponent(String(group))}`, who);
  const answer = (body: Record<string, unknown>, who: Auth = a.admin) => t.api.post("/channel-whatsapp/groups/join-requests", { token: conn.token, group: GROUP, ...body }, who);

  it("lists the pending requests by the group's JID or by its contact in the Groups tab", async () => {
    const expected = {
      group: GROUP,
      requests: [
        { externalId: "5511977776666", phone: "5511977776666", requestedAt: 1710082800000, method: "invite_link" },
        { externalId: "5511966665555", phone: "5511966665555", requestedAt: 1710082900000, method: "non_admin_add" },
      ],
    };
    const byJid = await list(GROUP);
    expect([byJid.status, byJid.body]).toEqual([200, expected]);
    const byContact = await list(groupContactId);
    expect([byContact.status, byContact.body]).toEqual([200, expected]);
  });

  it("approves and rejects, answering per person", async () => {
    updates.length = 0;
    const ok = await answer({ participants: ["5511977776666"], action: "approve" });
    expect([ok.status, ok.body]).toEqual([200, { group: GROUP, results: [{ externalId: "5511977776666", ok: true }] }]);
    // A LID requester is named by the phone the list gave; WhatsApp is asked with its LID.
    const rejected = await answer({ group: String(groupContactId), participants: ["5511966665555"], action: "reject" });
    expect([rejected.status, rejected.body]).toEqual([200, { group: GROUP, results: [{ externalId: "5511966665555", ok: true }] }]);
    const refused = await answer({ participants: ["5511966665555"], action: "approve" });
    expect(refused.body.results).toEqual([{ externalId: "5511966665555", ok: false, error: "403" }]);
    expect(updates).toEqual([
      [GROUP, ["5511977776666@s.whatsapp.net"], "approve"],
      [GROUP, ["77000000000009@lid"], "reject"],
      [GROUP, ["77000000000009@lid"], "approve"],
    ]);
  });

  it("refuses bad input, other tenants and non-admins before WhatsApp is asked", async () => {
    updates.length = 0;
    expect(errorOf(await answer({ participants: [], action: "approve" }))).toEqual([400, "ERR_REQUIRED_CONTACT", "participants"]);
    expect(errorOf(await answer({ participants: ["5511977776666"], action: "maybe" }))).toEqual([400, "ERR_VALIDATION", "action"]);
    expect(errorOf(await answer({ group: "5511988887777", participants: ["5511977776666"], action: "approve" }))).toEqual([400, "ERR_VALIDATION", "group"]);
    // A contact that is not a group, and another tenant's contact.
    expect(errorOf(await list(contacts.ana))).toEqual([400, "ERR_VALIDATION", "group"]);
    expect(errorOf(await list(contacts.deOutro))).toEqual([404, "ERR_CONTACT_NOT_FOUND", "group"]);
    expect(errorOf(await list(GROUP, a.admin, otherTenantConn.token))).toEqual([404, "ERR_CONNECTION_NOT_FOUND", "token"]);
    expect(errorOf(await list(GROUP, b.admin))).toEqual([404, "ERR_CONNECTION_NOT_FOUND", "token"]);
    for (const who of [a.agent, a.supervisor]) {
      expect(errorOf(await list(GROUP, who))).toEqual([403, "ERR_NO_PERMISSION", undefined]);
      expect(errorOf(await answer({ participants: ["5511977776666"], action: "approve" }, who))).toEqual([403, "ERR_NO_PERMISSION", undefined]);
    }
    expect(errorOf(await list(GROUP, a.admin, idle.token))).toEqual([409, "ERR_SESSION_NOT_INITIALIZED", undefined]);
    expect(updates).toEqual([]);
  });

  it("answers WhatsApp's refusal (not an admin of the group) with its own code", async () => {
    const before = sock.groupRequestParticipantsList;
    (sock as WASocketLike).groupRequestParticipantsList = async () => {
      throw new Boom("not-authorized", { statusCode: 401 });
    };
    try {
      const r = await list(GROUP);
      expect([r.status, r.body.error, r.body.data.reason]).toEqual([502, "ERR_WHATSAPP_GROUP_REFUSED", "not-authorized"]);
    } finally {
      sock.groupRequestParticipantsList = before;
    }
  });
});
