import { acksOf, addressesOf, normaliseMessage, unwrap, vcardPhone, FILE_MAX_BYTES } from "./normalise";
import { bareJid, phoneOf, recipientJid } from "./jid";

const CHAT = "5511988887777@s.whatsapp.net";
const msg = (message: Record<string, unknown>, info: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  type: "Message",
  event: { Info: { Chat: CHAT, Sender: "5511988887777:3@s.whatsapp.net", IsFromMe: false, IsGroup: false, ID: "3EB0AAA", PushName: "Ana", Timestamp: "2026-05-01T10:00:00-03:00", ...info }, Message: message },
  ...extra,
});

describe("wuzapi events → the channel contract", () => {
  it("addresses: devices stripped, phone numbers preferred to LIDs, groups and their members", () => {
    expect(bareJid("5511988887777.0:12@s.whatsapp.net")).toBe(CHAT);
    expect(bareJid("")).toBe("");
    expect(phoneOf(CHAT)).toBe("5511988887777");
    expect(phoneOf("123456789012345@lid")).toBeUndefined();
    expect(recipientJid("+55 (11) 98888-7777")).toBe(CHAT);
    expect(recipientJid("120363000000000001@g.us")).toBe("120363000000000001@g.us");
    expect(recipientJid("not a number")).toBeNull();
    expect(addressesOf({ Chat: "99887766@lid", Sender: "99887766:2@lid", SenderAlt: "5511988887777:2@s.whatsapp.net" })).toEqual({ chat: CHAT, sender: CHAT, fromMe: false, isGroup: false });
    expect(addressesOf({ Chat: "99887766@lid", Sender: "99887766@lid", SenderAlt: "" }).chat).toBe("99887766@lid");
  });

  it("a text: WhatsApp's id and time, the contact's name and number", () => {
    const a = normaliseMessage(msg({ conversation: "oi" }));
    expect(a).toEqual({
      kind: "inbound",
      sender: CHAT,
      draft: { providerMessageId: "3EB0AAA", timestamp: Date.parse("2026-05-01T13:00:00Z"), from: { externalId: CHAT, phone: "5511988887777", name: "Ana" }, body: "oi" },
    });
    // Go's zero time: the time it arrived.
    const before = Date.now();
    const z = normaliseMessage(msg({ conversation: "oi" }, { Timestamp: "0001-01-01T00:00:00Z" }));
    expect(z.kind === "inbound" && z.draft.timestamp).toBeGreaterThanOrEqual(before);
  });

  it("wrappers are opened: ephemeral, view once, document with caption", () => {
    expect(unwrap({ ephemeralMessage: { message: { viewOnceMessageV2: { message: { imageMessage: { caption: "x" } } } } } })).toEqual({ imageMessage: { caption: "x" } });
    const a = normaliseMessage(msg({ ephemeralMessage: { message: { extendedTextMessage: { text: "some", contextInfo: { stanzaID: "Q1" } } } } }));
    expect(a.kind === "inbound" && a.draft).toMatchObject({ body: "some", replyToProviderId: "Q1" });
  });

  it("files: the message's own type, the document's name; over 10 MB a note instead", () => {
    const small = normaliseMessage(msg({ documentMessage: { mimetype: "application/pdf", fileName: "a.pdf", caption: "segue" } }, {}, { base64: "QUJD", mimeType: "text/plain", fileName: "3EB0AAA.pdf" }));
    expect(small.kind === "inbound" && small.draft).toMatchObject({ body: "segue", media: { data: "QUJD", mimeType: "application/pdf", fileName: "a.pdf", size: 3 } });
    const big = "A".repeat(Math.ceil(((FILE_MAX_BYTES + 10) * 4) / 3));
    const huge = normaliseMessage(msg({ videoMessage: { mimetype: "video/mp4" } }, {}, { base64: big, fileName: "V.mp4" }));
    expect(huge.kind === "inbound" && huge.draft.media).toBeUndefined();
    expect(huge.kind === "inbound" && huge.draft.body).toMatch(/^📎 V\.mp4 \(10\.0 MB\): larger than 10 MB, not kept$/);
    const s3 = normaliseMessage(msg({ imageMessage: { mimetype: "image/jpeg" } }, {}, { s3: { url: "https://bucket.example/x.jpg" } }));
    expect(s3.kind === "inbound" && s3.draft.media).toEqual({ url: "https://bucket.example/x.jpg", mimeType: "image/jpeg", fileName: "image-3EB0AAA.jpg" });
  });

  it("live locations, several contact cards, polls", () => {
    const live = normaliseMessage(msg({ liveLocationMessage: { degreesLatitude: 1.5, degreesLongitude: -2.25 } }));
    expect(live.kind === "inbound" && live.draft).toMatchObject({ location: { latitude: 1.5, longitude: -2.25 }, body: "📍 (1.5, -2.25)" });
    const cards = normaliseMessage(msg({ contactsArrayMessage: { displayName: "2 contatos", contacts: [{ displayName: "A", vcard: "TEL;waid=5511911112222:+55" }, { displayName: "B", vcard: "TEL:+1 555 0100" }] } }));
    expect(cards.kind === "inbound" && cards.draft).toMatchObject({ contactCard: { name: "A", phone: "5511911112222" }, body: "👤 A 5511911112222\n👤 B +1 555 0100" });
    expect(vcardPhone("BEGIN:VCARD\nFN:x\nEND:VCARD")).toBeUndefined();
    const poll = normaliseMessage(msg({ pollCreationMessageV3: { name: "Horário?", options: [{ optionName: "manhã" }, { optionName: "tarde" }] } }));
    expect(poll.kind === "inbound" && poll.draft.body).toBe("📊 Horário?\n- manhã\n- tarde");
  });

  it("groups name the member; the phone's own messages are fromMe without the account's name", () => {
    const g = normaliseMessage(msg({ conversation: "oi" }, { Chat: "120363000000000001@g.us", IsGroup: true, Sender: "5511911112222:5@s.whatsapp.net", PushName: "Caio" }));
    expect(g.kind === "inbound" && g.draft).toMatchObject({ from: { externalId: "120363000000000001@g.us" }, isGroup: true, participant: { externalId: "5511911112222@s.whatsapp.net", name: "Caio", phone: "5511911112222" } });
    expect(g.kind === "inbound" && g.draft.from.name).toBeUndefined();
    const mine = normaliseMessage(msg({ conversation: "pelo celular" }, { IsFromMe: true, Sender: "5511900000000:0@s.whatsapp.net", PushName: "Loja" }));
    expect(mine.kind === "inbound" && mine.draft).toMatchObject({ fromMe: true, from: { externalId: CHAT } });
    expect(mine.kind === "inbound" && mine.draft.from.name).toBeUndefined();
  });

  it("changes: reactions (by whom, removal as \"\"), edits with the new text, revokes", () => {
    const key = { remoteJID: CHAT, fromMe: true, ID: "T1" };
    expect(normaliseMessage(msg({ reactionMessage: { key, text: "😂" } }))).toMatchObject({ kind: "change", targetId: "T1", change: { type: "reaction", emoji: "😂", by: CHAT } });
    expect(normaliseMessage(msg({ reactionMessage: { key } }))).toMatchObject({ change: { type: "reaction", emoji: "" } });
    expect(normaliseMessage(msg({ protocolMessage: { key, type: 14, editedMessage: { extendedTextMessage: { text: "novo" } } } }))).toMatchObject({ kind: "change", targetId: "T1", change: { type: "edit", body: "novo" } });
    expect(normaliseMessage(msg({ protocolMessage: { key, type: 0 } }))).toMatchObject({ kind: "change", targetId: "T1", change: { type: "delete" } });
    expect(normaliseMessage(msg({ protocolMessage: { key, type: "REVOKE" } }))).toMatchObject({ change: { type: "delete" } });
    expect(normaliseMessage(msg({ protocolMessage: { type: 5 } })).kind).toBe("skip");
  });

  it("unknown kinds are a visible placeholder; key distribution alone, status posts and id-less events are skipped", () => {
    expect(normaliseMessage(msg({ messageContextInfo: {}, orderMessage: { itemCount: 1 } }))).toMatchObject({ kind: "inbound", draft: { body: "[unsupported message: orderMessage]" } });
    expect(normaliseMessage(msg({ senderKeyDistributionMessage: {}, messageContextInfo: {} })).kind).toBe("skip");
    expect(normaliseMessage(msg({ conversation: "x" }, { Chat: "status@broadcast" })).kind).toBe("skip");
    expect(normaliseMessage(msg({ conversation: "x" }, { ID: "" })).kind).toBe("skip");
  });

  it("receipts: Delivered and Read of each id, group members named, played mapped, ReadSelf none", () => {
    const r = (state: string | undefined, extra: Record<string, unknown> = {}) => ({ type: "ReadReceipt", ...(state ? { state } : {}), event: { Chat: CHAT, Sender: CHAT, IsGroup: false, MessageIDs: ["A", "B"], Timestamp: "2026-05-01T10:00:00Z", Type: "", ...extra } });
    expect(acksOf(r("Delivered")).map((a) => [a.providerMessageId, a.status])).toEqual([["A", "delivered"], ["B", "delivered"]]);
    expect(acksOf(r("Read"))[0]).toEqual({ providerMessageId: "A", status: "read", timestamp: Date.parse("2026-05-01T10:00:00Z") });
    expect(acksOf(r("ReadSelf"))).toEqual([]);
    expect(acksOf(r(undefined, { Type: "played" }))[0].status).toBe("played");
    expect(acksOf(r(undefined, { Type: "" }))[0].status).toBe("delivered");
    expect(acksOf({ type: "ReadReceipt", event: { MessageIDs: ["A"] } })).toEqual([]);
    expect(acksOf(r("Read", { IsGroup: true, Chat: "1203@g.us", Sender: "5511911112222:4@s.whatsapp.net" }))[0].participant).toBe("5511911112222@s.whatsapp.net");
  });
});
