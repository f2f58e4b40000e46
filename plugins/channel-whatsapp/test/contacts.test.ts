/**
 * Contacts: profile pictures (hidden → null, cached with a TTL on an injected clock), the
 * "WhatsApp-validated" check (spec §8's invalid-number error when there is no account), and
 * contact sync from contacts.upsert and the history's contacts.
 */
import { Boom } from "@hapi/boom";
import { checkNumber, contactUpdates, historyContactUpdates, ProfilePictures, validatedContact } from "../src/contacts";
import { CUSTOMER, CUSTOMER_JID, CUSTOMER_LID, FakeSession, GROUP_JID, IMPORT_ALL, MemoryLids, REF } from "./fixtures/wa";

/** What Baileys throws for an iq answered with an error node (assertNodeErrorFree). */
const iqError = (text: string, code: number) => new Boom(text, { data: code });

describe("profile pictures", () => {
  function pictures() {
    let now = 0;
    const session = new FakeSession();
    const pics = new ProfilePictures({ ttlMs: 10_000, failureTtlMs: 1_000, now: () => now });
    return { session, pics, advance: (ms: number) => (now += ms), asked: () => session.callsOf("profilePictureUrl").length };
  }

  it("the URL of a visible picture, asked once per TTL", async () => {
    const { session, pics, advance, asked } = pictures();
    session.pictures.set(CUSTOMER_JID, "https://pps.whatsapp.net/v/t61/abc.jpg");
    expect(await pics.get(session, CUSTOMER)).toBe("https://pps.whatsapp.net/v/t61/abc.jpg");
    expect(session.callsOf("profilePictureUrl")[0]).toEqual([CUSTOMER_JID, "image", undefined]);
    advance(9_999);
    await pics.get(session, CUSTOMER);
    expect(asked()).toBe(1);
    advance(1);
    await pics.get(session, CUSTOMER);
    expect(asked()).toBe(2);
  });

  it("hidden by privacy (not-authorized) → null, never an error, kept for the TTL", async () => {
    const { session, pics, advance, asked } = pictures();
    session.pictures.set(CUSTOMER_JID, iqError("not-authorized", 401));
    expect(await pics.get(session, CUSTOMER)).toBeNull();
    advance(5_000);
    expect(await pics.get(session, CUSTOMER)).toBeNull();
    expect(asked()).toBe(1);
  });

  it("no picture (item-not-found, or an empty answer) → null", async () => {
    const { session, pics } = pictures();
    session.pictures.set(CUSTOMER_JID, iqError("item-not-found", 404));
    session.pictures.set("5511933334444@s.whatsapp.net", undefined);
    expect(await pics.get(session, CUSTOMER)).toBeNull();
    expect(await pics.get(session, "5511933334444")).toBeNull();
  });

  it("a failure that says nothing about the picture (timeout) → null, asked again soon", async () => {
    const { session, pics, advance, asked } = pictures();
    session.pictures.set(CUSTOMER_JID, new Boom("Timed Out", { statusCode: 408 }));
    expect(await pics.get(session, CUSTOMER)).toBeNull();
    advance(1_000);
    session.pictures.set(CUSTOMER_JID, "https://pps.whatsapp.net/new.jpg");
    expect(await pics.get(session, CUSTOMER)).toBe("https://pps.whatsapp.net/new.jpg");
    expect(asked()).toBe(2);
  });

  it("forget() drops a cached picture (contacts.update said it changed)", async () => {
    const { session, pics, asked } = pictures();
    session.pictures.set(CUSTOMER_JID, "https://pps.whatsapp.net/1.jpg");
    await pics.get(session, CUSTOMER);
    pics.forget(CUSTOMER);
    session.pictures.set(CUSTOMER_JID, "https://pps.whatsapp.net/2.jpg");
    expect(await pics.get(session, CUSTOMER)).toBe("https://pps.whatsapp.net/2.jpg");
    expect(asked()).toBe(2);
  });

  it("groups and LIDs are asked by their JID; an identity that is no JID is null without asking", async () => {
    const { session, pics, asked } = pictures();
    session.pictures.set(GROUP_JID, "https://pps.whatsapp.net/g.jpg");
    expect(await pics.get(session, GROUP_JID)).toBe("https://pps.whatsapp.net/g.jpg");
    expect(await pics.get(session, CUSTOMER_LID)).toBeNull();
    expect(await pics.get(session, "not a number")).toBeNull();
    expect(asked()).toBe(2);
  });

  it("concurrent look-ups of one contact ask once", async () => {
    const { session, pics, asked } = pictures();
    session.pictures.set(CUSTOMER_JID, "https://pps.whatsapp.net/1.jpg");
    await Promise.all([pics.get(session, CUSTOMER), pics.get(session, CUSTOMER_JID), pics.get(session, CUSTOMER)]);
    expect(asked()).toBe(1);
  });
});

describe("WhatsApp-validated numbers", () => {
  it("a number with an account → exists, with the identity WhatsApp answered", async () => {
    const session = new FakeSession();
    // A Brazilian mobile typed with the ninth digit, known to WhatsApp without it.
    session.registered.set("5511988887777", "551188887777@s.whatsapp.net");
    expect(await checkNumber(session, "+55 (11) 98888-7777")).toEqual({ exists: true, externalId: "551188887777", jid: "551188887777@s.whatsapp.net" });
    expect(session.callsOf("onWhatsApp")).toEqual([["5511988887777"]]);
    expect(await validatedContact(session, REF, "5511988887777")).toEqual({ ...REF, externalId: "551188887777", phone: "551188887777", validated: true });
  });

  it("a number with no account is spec §8's invalid-number error", async () => {
    const session = new FakeSession();
    await expect(checkNumber(session, "5511900001111")).rejects.toMatchObject({ type: "ERR_CONTACT_NUMBER_INVALID", code: 400, data: { reason: "not-on-whatsapp" } });
  });

  it("a malformed number is refused without asking WhatsApp", async () => {
    const session = new FakeSession();
    for (const bad of ["", "12345", "abc", "1234567890123456"]) {
      await expect(checkNumber(session, bad)).rejects.toMatchObject({ type: "ERR_CONTACT_NUMBER_INVALID", data: { reason: "invalid" } });
    }
    expect(session.callsOf("onWhatsApp")).toEqual([]);
  });

  it("an answer with exists:false is not an account", async () => {
    const session = new FakeSession();
    session.onWhatsApp = async () => [{ jid: "5511900001111@s.whatsapp.net", exists: false }];
    await expect(checkNumber(session, "5511900001111")).rejects.toMatchObject({ type: "ERR_CONTACT_NUMBER_INVALID" });
  });
});

describe("contact sync", () => {
  it("names: address book, then verified business name, then the person's own", async () => {
    const { events } = await contactUpdates(REF, [
      { id: CUSTOMER_JID, name: "Maria (cliente)", notify: "Mari" },
      { id: "5511933334444@s.whatsapp.net", verifiedName: "Padaria Sol", notify: "padaria" },
      { id: "5511955556666@s.whatsapp.net", notify: "Zé" },
    ]);
    expect(events).toEqual([
      { ...REF, externalId: CUSTOMER, phone: CUSTOMER, name: "Maria (cliente)" },
      { ...REF, externalId: "5511933334444", phone: "5511933334444", name: "Padaria Sol" },
      { ...REF, externalId: "5511955556666", phone: "5511955556666", name: "Zé" },
    ]);
  });

  it("a contact naming its LID and phone teaches the mapping and merges once", async () => {
    const lids = new MemoryLids();
    const first = await contactUpdates(REF, [{ id: CUSTOMER_LID, phoneNumber: CUSTOMER_JID, notify: "Maria" }], { lids });
    const again = await contactUpdates(REF, [{ id: CUSTOMER_LID, phoneNumber: CUSTOMER_JID, notify: "Maria" }], { lids });
    expect(first.events).toEqual([{ ...REF, externalId: CUSTOMER, phone: CUSTOMER, name: "Maria", previousExternalId: CUSTOMER_LID }]);
    expect(again.events).toEqual([{ ...REF, externalId: CUSTOMER, phone: CUSTOMER, name: "Maria" }]);
  });

  it("a LID-only contact resolves through the directory, or stays the LID", async () => {
    const lids = new MemoryLids();
    lids.map.set(CUSTOMER_LID, CUSTOMER_JID);
    expect((await contactUpdates(REF, [{ id: CUSTOMER_LID, notify: "Maria" }], { lids })).events).toEqual([{ ...REF, externalId: CUSTOMER, phone: CUSTOMER, name: "Maria" }]);
    expect((await contactUpdates(REF, [{ id: "55500000000001@lid", notify: "Ana" }], { lids })).events).toEqual([{ ...REF, externalId: "55500000000001@lid", name: "Ana" }]);
  });

  it("pictures: a URL or null passed on, 'changed' listed for a new look-up", async () => {
    const r = await contactUpdates(REF, [
      { id: CUSTOMER_JID, imgUrl: "https://pps.whatsapp.net/x.jpg" },
      { id: "5511933334444@s.whatsapp.net", imgUrl: null },
      { id: "5511955556666@s.whatsapp.net", imgUrl: "changed" },
    ]);
    expect(r.events).toEqual([
      { ...REF, externalId: CUSTOMER, phone: CUSTOMER, avatarUrl: "https://pps.whatsapp.net/x.jpg" },
      { ...REF, externalId: "5511933334444", phone: "5511933334444", avatarUrl: null },
    ]);
    expect(r.avatarsChanged).toEqual(["5511955556666"]);
  });

  it("groups, broadcasts, newsletters, the account itself and contacts that say nothing are left out", async () => {
    const session = new FakeSession();
    const r = await contactUpdates(
      REF,
      [{ id: GROUP_JID, name: "G" }, { id: "status@broadcast", name: "S" }, { id: "1203@newsletter", name: "N" }, { id: "5511900000000@s.whatsapp.net", name: "Eu" }, { id: CUSTOMER_JID }],
      { session },
    );
    expect(r).toEqual({ events: [], avatarsChanged: [] });
  });

  it("history contacts only when the import settings ask for them, and then made even if they never wrote", async () => {
    const list = [{ id: CUSTOMER_JID, name: "Maria" }];
    expect((await historyContactUpdates(REF, list, { ...IMPORT_ALL, contacts: false })).events).toEqual([]);
    expect((await historyContactUpdates(REF, list, undefined)).events).toEqual([]);
    expect((await historyContactUpdates(REF, list, IMPORT_ALL)).events).toEqual([{ ...REF, externalId: CUSTOMER, phone: CUSTOMER, name: "Maria", create: true }]);
  });
});
