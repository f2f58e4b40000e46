/**
 * Who a message is from: phone identities, LIDs resolved (with the key's alt, through the
 * directory, or left as the LID), the merge the core is told about the first time a LID's phone
 * is learnt, phone-sent messages, groups with their members, broadcast lists.
 */
import { normaliseMessage } from "../src/messages";
import type { InboundAction } from "../src/ports";
import { context, CUSTOMER, CUSTOMER_JID, CUSTOMER_LID, GROUP_JID, MemoryLids, REF, T0, text } from "./fixtures/wa";

const inboundOf = (actions: InboundAction[]) => (actions.find((a) => a.kind === "inbound") as Extract<InboundAction, { kind: "inbound" }>).message;
const contactsOf = (actions: InboundAction[]) => actions.filter((a) => a.kind === "contact").map((a) => (a as { contact: unknown }).contact);

describe("1:1 chats", () => {
  it("a phone JID with a device part is the bare number", async () => {
    const actions = await normaliseMessage(context(), text("oi", { remoteJid: "5511988887777:4@s.whatsapp.net", pushName: "Maria" }));
    expect(inboundOf(actions).from).toEqual({ externalId: CUSTOMER, phone: CUSTOMER, name: "Maria" });
  });

  it("a LID with its phone as remoteJidAlt: the phone identity, the mapping remembered, the merge told first", async () => {
    const ctx = context();
    const actions = await normaliseMessage(ctx, text("oi", { id: "L1", remoteJid: CUSTOMER_LID, remoteJidAlt: CUSTOMER_JID, addressingMode: "lid", pushName: "Maria" }));
    expect(ctx.lids.remembered).toEqual([[CUSTOMER_LID, CUSTOMER_JID]]);
    expect(actions).toEqual([
      { kind: "contact", contact: { ...REF, externalId: CUSTOMER, phone: CUSTOMER, previousExternalId: CUSTOMER_LID, name: "Maria" } },
      { kind: "inbound", message: { ...REF, providerMessageId: "L1", timestamp: T0 * 1000, from: { externalId: CUSTOMER, phone: CUSTOMER, name: "Maria" }, body: "oi" } },
    ]);
  });

  it("the same mapping seen again merges nothing more", async () => {
    const ctx = context();
    await normaliseMessage(ctx, text("1", { remoteJid: CUSTOMER_LID, remoteJidAlt: CUSTOMER_JID }));
    const again = await normaliseMessage(ctx, text("2", { remoteJid: CUSTOMER_LID, remoteJidAlt: CUSTOMER_JID }));
    expect(contactsOf(again)).toEqual([]);
    expect(inboundOf(again).from).toEqual({ externalId: CUSTOMER, phone: CUSTOMER });
  });

  it("a phone JID with its LID as alt (PN addressing) teaches the same mapping", async () => {
    const ctx = context();
    const actions = await normaliseMessage(ctx, text("oi", { remoteJid: CUSTOMER_JID, remoteJidAlt: CUSTOMER_LID, addressingMode: "pn" }));
    expect(ctx.lids.map.get(CUSTOMER_LID)).toBe(CUSTOMER_JID);
    expect(contactsOf(actions)).toEqual([{ ...REF, externalId: CUSTOMER, phone: CUSTOMER, previousExternalId: CUSTOMER_LID }]);
  });

  it("a LID without alt resolves through the directory (no merge: nothing new was learnt)", async () => {
    const lids = new MemoryLids();
    lids.map.set(CUSTOMER_LID, CUSTOMER_JID);
    const actions = await normaliseMessage(context({ lids }), text("oi", { remoteJid: CUSTOMER_LID }));
    expect(actions).toHaveLength(1);
    expect(inboundOf(actions).from).toEqual({ externalId: CUSTOMER, phone: CUSTOMER });
  });

  it("a LID nobody knows the phone of stays the LID identity, without phone", async () => {
    const actions = await normaliseMessage(context(), text("oi", { remoteJid: `${CUSTOMER_LID.replace("@", ":7@")}`, pushName: "Maria" }));
    expect(inboundOf(actions).from).toEqual({ externalId: CUSTOMER_LID, name: "Maria" });
  });

  it("once learnt, the LID contact's next message goes to the phone identity the merge named", async () => {
    const ctx = context();
    const before = await normaliseMessage(ctx, text("1", { remoteJid: CUSTOMER_LID }));
    const learn = await normaliseMessage(ctx, text("2", { remoteJid: CUSTOMER_LID, remoteJidAlt: CUSTOMER_JID }));
    const after = await normaliseMessage(ctx, text("3", { remoteJid: CUSTOMER_LID }));
    expect((inboundOf(before).from as { externalId: string }).externalId).toBe(CUSTOMER_LID);
    expect(contactsOf(learn)).toEqual([{ ...REF, externalId: CUSTOMER, phone: CUSTOMER, previousExternalId: CUSTOMER_LID }]);
    expect((inboundOf(after).from as { externalId: string }).externalId).toBe(CUSTOMER);
  });

  it("a directory failure is not hidden (the message would land on a contact no merge ever folds back)", async () => {
    const lids = new MemoryLids();
    lids.phoneOf = async () => {
      throw new Error("lid table unavailable");
    };
    await expect(normaliseMessage(context({ lids }), text("oi", { remoteJid: CUSTOMER_LID }))).rejects.toThrow("lid table unavailable");
  });
});

describe("messages sent from the account's phone", () => {
  it("fromMe: the chat's other side is `from`, without the account's push name", async () => {
    const actions = await normaliseMessage(context(), text("Seu pedido saiu", { id: "ME1", fromMe: true, pushName: "Loja Centro" }));
    expect(actions).toEqual([{ kind: "inbound", message: { ...REF, providerMessageId: "ME1", timestamp: T0 * 1000, from: { externalId: CUSTOMER, phone: CUSTOMER }, body: "Seu pedido saiu", fromMe: true } }]);
  });

  it("an alt that names the account itself is never taken as the customer's phone", async () => {
    const ctx = context();
    const actions = await normaliseMessage(ctx, text("x", { fromMe: true, remoteJid: CUSTOMER_LID, remoteJidAlt: "5511900000000@s.whatsapp.net" }));
    expect(ctx.lids.remembered).toEqual([]);
    expect(inboundOf(actions).from).toEqual({ externalId: CUSTOMER_LID });
  });
});

describe("groups", () => {
  const groups = { nameOf: async (jid: string) => (jid === GROUP_JID ? "Clientes VIP" : undefined) };

  it("from = the group (named from the directory), participant = the member with push name and phone", async () => {
    const actions = await normaliseMessage(context({ groups }), text("bom dia", { id: "G1", remoteJid: GROUP_JID, participant: "5511933334444@s.whatsapp.net", pushName: "Carlos" }));
    expect(actions).toEqual([
      {
        kind: "inbound",
        message: {
          ...REF,
          providerMessageId: "G1",
          timestamp: T0 * 1000,
          from: { externalId: GROUP_JID, name: "Clientes VIP" },
          body: "bom dia",
          isGroup: true,
          participant: { externalId: "5511933334444", phone: "5511933334444", name: "Carlos" },
        },
      },
    ]);
  });

  it("a LID member with participantAlt: phone identity and the merge", async () => {
    const actions = await normaliseMessage(context({ groups }), text("oi", { remoteJid: GROUP_JID, participant: "77000000000009@lid", participantAlt: "5511933334444@s.whatsapp.net", pushName: "Carlos" }));
    expect(contactsOf(actions)).toEqual([{ ...REF, externalId: "5511933334444", phone: "5511933334444", previousExternalId: "77000000000009@lid", name: "Carlos" }]);
    expect(inboundOf(actions).participant).toEqual({ externalId: "5511933334444", phone: "5511933334444", name: "Carlos" });
  });

  it("a LID member nobody knows stays a LID participant", async () => {
    const actions = await normaliseMessage(context(), text("oi", { remoteJid: GROUP_JID, participant: "77000000000009@lid" }));
    expect(inboundOf(actions).participant).toEqual({ externalId: "77000000000009@lid" });
    expect(inboundOf(actions).from).toEqual({ externalId: GROUP_JID });
  });

  it("the account's own message in a group (from its phone) has no participant", async () => {
    const actions = await normaliseMessage(context({ groups }), text("aviso", { remoteJid: GROUP_JID, participant: "5511900000000@s.whatsapp.net", fromMe: true }));
    const m = inboundOf(actions);
    expect(m).toMatchObject({ from: { externalId: GROUP_JID, name: "Clientes VIP" }, isGroup: true, fromMe: true });
    expect(m.participant).toBeUndefined();
  });
});

describe("broadcast lists", () => {
  it("a customer's broadcast-list message is their 1:1 message", async () => {
    const actions = await normaliseMessage(context(), text("promo", { remoteJid: "1710000000@broadcast", participant: CUSTOMER_JID, pushName: "Maria" }));
    expect(inboundOf(actions).from).toEqual({ externalId: CUSTOMER, phone: CUSTOMER, name: "Maria" });
    expect(inboundOf(actions).isGroup).toBeUndefined();
  });

  it("the account's own broadcast (from its phone) is skipped: each recipient gets their copy", async () => {
    expect(await normaliseMessage(context(), text("promo", { remoteJid: "1710000000@broadcast", fromMe: true }))).toEqual([{ kind: "skip", reason: "own-broadcast-list" }]);
  });
});
