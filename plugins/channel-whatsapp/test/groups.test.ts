/**
 * Groups: the metadata cache (TTL on an injected clock, one fetch for concurrent callers, kept
 * right by the socket's events), members as identities, new groups under spec §5's rules, and
 * join requests.
 */
import type { GroupMetadata } from "@whiskeysockets/baileys";
import { answerJoinRequests, checkNewGroup, createGroup, GroupDirectory, listJoinRequests } from "../src/groups";
import { FakeSession, GROUP_JID, groupMeta, MemoryLids, REF } from "./fixtures/wa";

function directory(meta: GroupMetadata = groupMeta(), ttlMs = 60_000) {
  const session = new FakeSession();
  session.groups.set(meta.id, meta);
  let now = 1_000_000;
  const dir = new GroupDirectory({ fetch: (jid) => session.groupMetadata(jid), ttlMs, now: () => now });
  return { session, dir, advance: (ms: number) => (now += ms), fetches: () => session.callsOf("groupMetadata").length };
}

describe("GroupDirectory", () => {
  it("fetches once, serves from the cache while young, fetches again when aged", async () => {
    const { dir, advance, fetches } = directory();
    expect((await dir.get(GROUP_JID)).subject).toBe("Clientes VIP");
    advance(59_999);
    await dir.get(GROUP_JID);
    expect(fetches()).toBe(1);
    advance(1);
    await dir.get(GROUP_JID);
    expect(fetches()).toBe(2);
  });

  it("concurrent callers share one fetch", async () => {
    const { dir, fetches } = directory();
    const all = await Promise.all([dir.get(GROUP_JID), dir.cachedGroupMetadata(GROUP_JID), dir.nameOf(GROUP_JID), dir.get(GROUP_JID)]);
    expect(fetches()).toBe(1);
    expect((all[1] as GroupMetadata).id).toBe(GROUP_JID);
    expect(all[2]).toBe("Clientes VIP");
  });

  it("cachedGroupMetadata answers undefined when it cannot fetch (Baileys then asks itself)", async () => {
    const { dir } = directory();
    expect(await dir.cachedGroupMetadata("120363000000000404@g.us")).toBeUndefined();
    await expect(dir.get("120363000000000404@g.us")).rejects.toThrow("item-not-found");
  });

  it("nameOf keeps an old name when a refresh fails, and is undefined for a group never seen", async () => {
    const { dir, session, advance } = directory();
    await dir.get(GROUP_JID);
    session.groups.delete(GROUP_JID);
    advance(120_000);
    expect(await dir.nameOf(GROUP_JID)).toBe("Clientes VIP");
    expect(await dir.nameOf("120363000000000404@g.us")).toBeUndefined();
  });

  it("groups.upsert fills the cache without a fetch", async () => {
    const { dir, fetches } = directory();
    dir.upsert([groupMeta({ subject: "Novo nome" })]);
    expect((await dir.get(GROUP_JID)).subject).toBe("Novo nome");
    expect(fetches()).toBe(0);
  });

  it("groups.update merges the change and answers the group's rename for the core", async () => {
    const { dir } = directory();
    await dir.get(GROUP_JID);
    const events = dir.onUpdate(REF, [{ id: GROUP_JID, subject: "VIP 2024", author: "5511911111111@s.whatsapp.net" }, { id: GROUP_JID, announce: true }]);
    expect(events).toEqual([{ ...REF, externalId: GROUP_JID, name: "VIP 2024" }]);
    expect(dir.peek(GROUP_JID)).toMatchObject({ subject: "VIP 2024", announce: true });
    expect(dir.peek(GROUP_JID)?.author).toBeUndefined();
  });

  it("group-participants.update adds, removes, promotes and demotes in the cached list", async () => {
    const { dir, fetches } = directory();
    await dir.get(GROUP_JID);
    dir.onParticipants({ id: GROUP_JID, action: "add", participants: [{ id: "77000000000003@lid", phoneNumber: "5511955556666@s.whatsapp.net" }] });
    dir.onParticipants({ id: GROUP_JID, action: "remove", participants: [{ id: "5511922222222@s.whatsapp.net" }] });
    dir.onParticipants({ id: GROUP_JID, action: "promote", participants: ["77000000000003@lid"] });
    dir.onParticipants({ id: GROUP_JID, action: "demote", participants: [{ id: "77000000000002@lid" }] });
    const meta = await dir.get(GROUP_JID);
    expect(fetches()).toBe(1);
    expect(meta.participants.map((p) => [p.id, p.admin ?? null])).toEqual([
      ["5511911111111@s.whatsapp.net", "superadmin"],
      ["77000000000002@lid", null],
      ["77000000000003@lid", "admin"],
    ]);
    expect(meta.size).toBe(3);
  });

  it("a number change makes the next read fetch WhatsApp's list", async () => {
    const { dir, fetches } = directory();
    await dir.get(GROUP_JID);
    dir.onParticipants({ id: GROUP_JID, action: "modify", participants: [{ id: "77000000000002@lid" }] });
    await dir.get(GROUP_JID);
    expect(fetches()).toBe(2);
  });

  it("an event while a fetch is on its way makes that answer stale (no old member list kept for a TTL)", async () => {
    const session = new FakeSession();
    session.groups.set(GROUP_JID, groupMeta());
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const dir = new GroupDirectory({ fetch: async (jid) => (await gate, session.groupMetadata(jid)), now: () => 5 });
    const pending = dir.get(GROUP_JID);
    dir.onParticipants({ id: GROUP_JID, action: "remove", participants: ["5511911111111@s.whatsapp.net"] });
    release();
    await pending;
    await dir.get(GROUP_JID);
    expect(session.callsOf("groupMetadata")).toHaveLength(2);
  });

  it("keeps at most `max` groups", async () => {
    const dir = new GroupDirectory({ fetch: async () => groupMeta(), max: 2 });
    dir.upsert([groupMeta({ id: "1@g.us" }), groupMeta({ id: "2@g.us" }), groupMeta({ id: "3@g.us" })]);
    expect(dir.size).toBe(2);
    expect(dir.peek("1@g.us")).toBeUndefined();
  });

  it("members as identities: phone when known (from the list or the LID directory), LID otherwise, with admin flags", async () => {
    const { dir } = directory();
    const lids = new MemoryLids();
    lids.map.set("77000000000002@lid", "5511977778888@s.whatsapp.net");
    expect(await dir.participants(GROUP_JID, lids)).toEqual([
      { externalId: "5511911111111", phone: "5511911111111", admin: true, superAdmin: true },
      { externalId: "5511922222222", phone: "5511922222222", lid: "77000000000001@lid", admin: false, superAdmin: false },
      { externalId: "5511977778888", phone: "5511977778888", lid: "77000000000002@lid", admin: true, superAdmin: false },
    ]);
    expect((await dir.participants(GROUP_JID))[2]).toEqual({ externalId: "77000000000002@lid", lid: "77000000000002@lid", admin: true, superAdmin: false });
  });
});

describe("createGroup (spec §5)", () => {
  const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100)]);
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100)]);

  it("creates with the trimmed name and the participants' JIDs, each once, then sets the photo", async () => {
    const session = new FakeSession();
    const g = await createGroup(session, { name: "  Equipe Vendas ", participants: ["5511933334444", "+55 11 93333-4444", "77000000000002@lid"], picture: { data: jpeg, mimeType: "image/jpeg" } });
    expect(session.callsOf("groupCreate")).toEqual([["Equipe Vendas", ["5511933334444@s.whatsapp.net", "77000000000002@lid"]]]);
    expect(session.callsOf("groupUpdatePicture")).toEqual([["120363099999999999@g.us", jpeg]]);
    expect(g).toEqual({ externalId: "120363099999999999@g.us", name: "Equipe Vendas", participants: ["5511900000000", "5511933334444", "77000000000002@lid"], pictureSet: true });
  });

  it("a photo WhatsApp refuses does not undo the group", async () => {
    const session = new FakeSession();
    session.pictureError = new Error("not-acceptable");
    const g = await createGroup(session, { name: "G", participants: ["5511933334444"], picture: { data: png, mimeType: "image/png" } });
    expect(g.pictureSet).toBe(false);
    expect(session.callsOf("groupCreate")).toHaveLength(1);
  });

  const refused = async (g: Parameters<typeof checkNewGroup>[0]) => {
    const session = new FakeSession();
    const err = await createGroup(session, g).catch((e: unknown) => e);
    expect(session.callsOf("groupCreate")).toEqual([]);
    return err;
  };

  it("a name is required", async () => {
    expect(await refused({ name: "   ", participants: ["5511933334444"] })).toMatchObject({ type: "ERR_VALIDATION", code: 400, data: { field: "name", rule: "required" } });
  });

  it("a name longer than WhatsApp takes", async () => {
    expect(await refused({ name: "x".repeat(101), participants: ["5511933334444"] })).toMatchObject({ type: "ERR_VALIDATION", data: { field: "name", rule: "max", max: 100 } });
  });

  it("at least one participant", async () => {
    expect(await refused({ name: "G", participants: [] })).toMatchObject({ type: "ERR_REQUIRED_CONTACT", code: 400, data: { field: "participants" } });
  });

  it("at most 1,023 participants (1,023 pass the check)", async () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => `55119${String(10000000 + i)}`);
    expect(checkNewGroup({ name: "G", participants: many(1023) }).jids).toHaveLength(1023);
    expect(await refused({ name: "G", participants: many(1024) })).toMatchObject({ type: "ERR_GROUP_PARTICIPANT_LIMIT", code: 400, data: { count: 1024, max: 1023 } });
  });

  it("an invalid participant is named", async () => {
    expect(await refused({ name: "G", participants: ["5511933334444", "abc"] })).toMatchObject({ type: "ERR_CONTACT_NUMBER_INVALID", data: { field: "participants[1]", value: "abc" } });
    expect(await refused({ name: "G", participants: [GROUP_JID] })).toMatchObject({ type: "ERR_CONTACT_NUMBER_INVALID" });
  });

  it("a photo over 5 MB", async () => {
    const big = Buffer.concat([jpeg, Buffer.alloc(5 * 1024 * 1024)]);
    expect(await refused({ name: "G", participants: ["5511933334444"], picture: { data: big, mimeType: "image/jpeg" } })).toMatchObject({
      type: "ERR_GROUP_PICTURE_TOO_LARGE",
      code: 413,
      data: { field: "picture", max: 5 * 1024 * 1024 },
    });
  });

  it("a photo that is not an image, by type or by content", async () => {
    expect(await refused({ name: "G", participants: ["5511933334444"], picture: { data: Buffer.from("%PDF-1.4"), mimeType: "application/pdf" } })).toMatchObject({ type: "ERR_INVALID_IMAGE_FORMAT" });
    expect(await refused({ name: "G", participants: ["5511933334444"], picture: { data: Buffer.from("%PDF-1.4 really"), mimeType: "image/jpeg" } })).toMatchObject({ type: "ERR_INVALID_IMAGE_FORMAT" });
  });
});

describe("join requests", () => {
  it("lists requests as identities with time and method", async () => {
    const session = new FakeSession();
    session.joinRequests.set(GROUP_JID, [
      { jid: "77000000000005@lid", phone_number: "5511944445555@s.whatsapp.net", request_method: "invite_link", request_time: "1710082800" },
      { jid: "5511966667777@s.whatsapp.net", request_method: "non_admin_add", request_time: "1710082900" },
      { jid: "77000000000006@lid" },
    ]);
    expect(await listJoinRequests(session, GROUP_JID)).toEqual([
      { externalId: "5511944445555", phone: "5511944445555", requestedAt: 1710082800000, method: "invite_link" },
      { externalId: "5511966667777", phone: "5511966667777", requestedAt: 1710082900000, method: "non_admin_add" },
      { externalId: "77000000000006@lid" },
    ]);
  });

  it("approves by the JID WhatsApp listed (a LID for a phone identity) and reports each answer", async () => {
    const session = new FakeSession();
    session.joinRequests.set(GROUP_JID, [{ jid: "77000000000005@lid", phone_number: "5511944445555@s.whatsapp.net" }, { jid: "5511966667777@s.whatsapp.net" }]);
    session.requestAnswers = (jids) => jids.map((jid) => ({ jid, status: jid.startsWith("5511966") ? "404" : "200" }));
    const r = await answerJoinRequests(session, GROUP_JID, ["5511944445555", "5511966667777"], "approve");
    expect(session.callsOf("groupRequestParticipantsUpdate")).toEqual([[GROUP_JID, ["77000000000005@lid", "5511966667777@s.whatsapp.net"], "approve"]]);
    expect(r).toEqual([
      { externalId: "5511944445555", ok: true },
      { externalId: "5511966667777", ok: false, error: "404" },
    ]);
  });

  it("rejects", async () => {
    const session = new FakeSession();
    session.joinRequests.set(GROUP_JID, [{ jid: "5511966667777@s.whatsapp.net" }]);
    expect(await answerJoinRequests(session, GROUP_JID, ["5511966667777"], "reject")).toEqual([{ externalId: "5511966667777", ok: true }]);
    expect(session.callsOf("groupRequestParticipantsUpdate")[0][2]).toBe("reject");
  });

  it("refuses a non-group, an empty choice and a bad action", async () => {
    const session = new FakeSession();
    await expect(listJoinRequests(session, "5511966667777")).rejects.toMatchObject({ type: "ERR_VALIDATION", data: { field: "group" } });
    await expect(answerJoinRequests(session, GROUP_JID, [], "approve")).rejects.toMatchObject({ type: "ERR_REQUIRED_CONTACT" });
    await expect(answerJoinRequests(session, GROUP_JID, ["5511966667777"], "ban" as never)).rejects.toMatchObject({ type: "ERR_VALIDATION", data: { field: "action" } });
  });
});
