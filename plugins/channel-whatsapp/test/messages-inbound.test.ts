/**
 * Every content kind a person can send, built with Baileys' own protobuf types, → the exact
 * InboundMessage the core receives. Files go through the SessionPort's download; one that
 * cannot be had still brings its message, with a visible note.
 */
import { proto } from "@whiskeysockets/baileys";
import { MEDIA_MAX_BYTES } from "@openatende/plugin-sdk";
import { normaliseMessage } from "../src/messages";
import type { InboundAction } from "../src/ports";
import { context, CUSTOMER, CUSTOMER_JID, mediaFields, REF, T0, text, waMessage } from "./fixtures/wa";

const base = (id: string) => ({ ...REF, providerMessageId: id, timestamp: T0 * 1000, from: { externalId: CUSTOMER, phone: CUSTOMER, name: "Maria" } });

async function one(message: Record<string, unknown>, ctx = context()) {
  const msg = waMessage({ id: "MSG1", pushName: "Maria", message });
  const actions = await normaliseMessage(ctx, msg);
  expect(actions).toHaveLength(1);
  expect(actions[0].kind).toBe("inbound");
  return (actions[0] as Extract<InboundAction, { kind: "inbound" }>).message;
}

describe("text", () => {
  it("conversation → body, phone identity, timestamp in ms from the proto's Long", async () => {
    const msg = text("Olá, tudo bem?", { id: "T1", pushName: "Maria" });
    expect(typeof msg.messageTimestamp).toBe("object"); // a Long, as Baileys decodes it
    expect(await normaliseMessage(context(), msg)).toEqual([{ kind: "inbound", message: { ...base("T1"), body: "Olá, tudo bem?" } }]);
  });

  it("a plain-number timestamp is read the same way", async () => {
    const msg = text("x", { id: "T2" });
    msg.messageTimestamp = T0 + 5;
    const [a] = await normaliseMessage(context(), msg);
    expect((a as { message: { timestamp: number } }).message.timestamp).toBe((T0 + 5) * 1000);
  });

  it("a message without timestamp takes the context's clock", async () => {
    const msg = text("x", { id: "T3" });
    msg.messageTimestamp = null;
    const [a] = await normaliseMessage(context({ now: () => 1_234_000 }), msg);
    expect((a as { message: { timestamp: number } }).message.timestamp).toBe(1_234_000);
  });

  it("extendedTextMessage with a quote → body and replyToProviderId (the quoted stanza id)", async () => {
    const m = await one({
      extendedTextMessage: { text: "Sim, esse mesmo", contextInfo: { stanzaId: "QUOTED1", participant: CUSTOMER_JID, quotedMessage: { conversation: "É este?" } } },
    });
    expect(m).toEqual({ ...base("MSG1"), body: "Sim, esse mesmo", replyToProviderId: "QUOTED1" });
  });

  it("a reply to a media message keeps the quote too", async () => {
    const ctx = context();
    ctx.session.media.set("*", Buffer.from("jpeg-bytes"));
    const m = await one({ imageMessage: { ...mediaFields("image/jpeg"), caption: "esta", contextInfo: { stanzaId: "Q2" } } }, ctx);
    expect(m.replyToProviderId).toBe("Q2");
  });
});

describe("media, downloaded through the session and handed inline", () => {
  const cases: Array<[string, Record<string, unknown>, { mimeType: string; fileName: string; body?: string }]> = [
    ["image with caption", { imageMessage: { ...mediaFields("image/jpeg"), caption: "Foto do produto" } }, { mimeType: "image/jpeg", fileName: "image-MSG1.jpg", body: "Foto do produto" }],
    ["video", { videoMessage: { ...mediaFields("video/mp4"), caption: "vídeo" } }, { mimeType: "video/mp4", fileName: "video-MSG1.mp4", body: "vídeo" }],
    ["audio", { audioMessage: { ...mediaFields("audio/mpeg") } }, { mimeType: "audio/mpeg", fileName: "audio-MSG1.mp3" }],
    ["voice note (ptt)", { audioMessage: { ...mediaFields("audio/ogg; codecs=opus"), ptt: true, seconds: 4 } }, { mimeType: "audio/ogg", fileName: "voice-MSG1.ogg" }],
    ["document", { documentMessage: { ...mediaFields("application/pdf"), fileName: "orcamento.pdf" } }, { mimeType: "application/pdf", fileName: "orcamento.pdf" }],
    [
      "document with caption (documentWithCaptionMessage)",
      { documentWithCaptionMessage: { message: { documentMessage: { ...mediaFields("application/pdf"), fileName: "nota.pdf", caption: "segue a nota" } } } },
      { mimeType: "application/pdf", fileName: "nota.pdf", body: "segue a nota" },
    ],
    ["sticker", { stickerMessage: { ...mediaFields("image/webp"), isAnimated: false } }, { mimeType: "image/webp", fileName: "sticker-MSG1.webp" }],
    ["video note (ptvMessage)", { ptvMessage: { ...mediaFields("video/mp4") } }, { mimeType: "video/mp4", fileName: "video-MSG1.mp4" }],
  ];

  it.each(cases)("%s", async (_name, message, want) => {
    const ctx = context();
    const bytes = Buffer.from(`bytes of ${_name}`);
    ctx.session.media.set("MSG1", bytes);
    const m = await one(message, ctx);
    expect(m).toEqual({
      ...base("MSG1"),
      ...(want.body ? { body: want.body } : {}),
      media: { data: bytes.toString("base64"), mimeType: want.mimeType, fileName: want.fileName, size: bytes.length },
    });
    expect(ctx.session.callsOf("downloadMedia")).toEqual([["MSG1"]]);
  });

  it("a failed download still brings the message, with a visible note after the caption", async () => {
    const ctx = context();
    ctx.session.media.set("MSG1", new Error("410 Gone and the phone did not re-upload"));
    const m = await one({ imageMessage: { ...mediaFields("image/jpeg"), caption: "olha isso" } }, ctx);
    expect(m).toEqual({ ...base("MSG1"), body: "olha isso\n[image: media could not be downloaded]" });
  });

  it("a failed download without caption is the note alone", async () => {
    const ctx = context();
    ctx.session.media.set("MSG1", new Error("boom"));
    const m = await one({ audioMessage: { ...mediaFields("audio/ogg; codecs=opus"), ptt: true } }, ctx);
    expect(m).toEqual({ ...base("MSG1"), body: "[voice note: media could not be downloaded]" });
  });

  it("a file WhatsApp declares larger than 10 MB is not downloaded (the core would refuse the message)", async () => {
    const ctx = context();
    const m = await one({ documentMessage: { ...mediaFields("application/zip", MEDIA_MAX_BYTES + 1), fileName: "backup.zip" } }, ctx);
    expect(m.body).toBe("[document backup.zip: media too large to receive (10 MB, at most 10 MB)]");
    expect(m.media).toBeUndefined();
    expect(ctx.session.callsOf("downloadMedia")).toEqual([]);
  });

  it("a download that turns out larger than 10 MB is dropped with the note", async () => {
    const ctx = context();
    ctx.session.media.set("MSG1", Buffer.alloc(MEDIA_MAX_BYTES + 10));
    const m = await one({ videoMessage: { ...mediaFields("video/mp4", 100) } }, ctx);
    expect(m.media).toBeUndefined();
    expect(m.body).toMatch(/^\[video: media too large to receive/);
  });
});

describe("wrappers are unwrapped", () => {
  const inner = { extendedTextMessage: { text: "dentro" } };
  it.each([
    ["ephemeralMessage", { ephemeralMessage: { message: inner } }],
    ["viewOnceMessage", { viewOnceMessage: { message: inner } }],
    ["viewOnceMessageV2", { viewOnceMessageV2: { message: inner } }],
    ["viewOnceMessageV2Extension", { viewOnceMessageV2Extension: { message: inner } }],
    ["ephemeral around viewOnceV2", { ephemeralMessage: { message: { viewOnceMessageV2: { message: inner } } } }],
  ])("%s", async (_n, message) => {
    expect((await one(message)).body).toBe("dentro");
  });

  it("a view-once image is downloaded like any image", async () => {
    const ctx = context();
    ctx.session.media.set("MSG1", Buffer.from("img"));
    const m = await one({ viewOnceMessageV2: { message: { imageMessage: { ...mediaFields("image/jpeg"), viewOnce: true } } } }, ctx);
    expect(m.media).toEqual({ data: Buffer.from("img").toString("base64"), mimeType: "image/jpeg", fileName: "image-MSG1.jpg", size: 3 });
  });
});

describe("location and contacts", () => {
  it("location → structured location and a readable body", async () => {
    const m = await one({ locationMessage: { degreesLatitude: -23.5613991, degreesLongitude: -46.6565712, name: "Loja Paulista", address: "Av. Paulista, 1000" } });
    expect(m).toEqual({
      ...base("MSG1"),
      location: { latitude: -23.5613991, longitude: -46.6565712, name: "Loja Paulista, Av. Paulista, 1000" },
      body: "📍 Loja Paulista, Av. Paulista, 1000 (-23.561399, -46.656571)",
    });
  });

  it("location without a name", async () => {
    const m = await one({ locationMessage: { degreesLatitude: 1.5, degreesLongitude: 2.25 } });
    expect(m).toEqual({ ...base("MSG1"), location: { latitude: 1.5, longitude: 2.25 }, body: "📍 (1.5, 2.25)" });
  });

  it("live location", async () => {
    const m = await one({ liveLocationMessage: { degreesLatitude: -22.9, degreesLongitude: -43.2, caption: "estou chegando", sequenceNumber: 3 } });
    expect(m).toEqual({ ...base("MSG1"), location: { latitude: -22.9, longitude: -43.2, name: "estou chegando" }, body: "📍 Live location estou chegando (-22.9, -43.2)" });
  });

  const vcard = (name: string, waid: string, pretty: string) => `BEGIN:VCARD\nVERSION:3.0\nFN:${name}\nTEL;type=CELL;type=VOICE;waid=${waid}:${pretty}\nEND:VCARD`;

  it("contactMessage → contact card (the vCard's waid as phone)", async () => {
    const m = await one({ contactMessage: { displayName: "João Silva", vcard: vcard("João Silva", "5521977776666", "+55 21 97777-6666") } });
    expect(m).toEqual({ ...base("MSG1"), contactCard: { name: "João Silva", phone: "5521977776666" }, body: "👤 João Silva 5521977776666" });
  });

  it("a vCard without waid takes the TEL digits", async () => {
    const m = await one({ contactMessage: { vcard: "BEGIN:VCARD\nVERSION:3.0\nFN:Ana\nTEL;TYPE=CELL:+55 (11) 3333-4444\nEND:VCARD" } });
    expect(m.contactCard).toEqual({ name: "Ana", phone: "551133334444" });
  });

  it("contactsArrayMessage → every card in the body, the first as the card", async () => {
    const m = await one({
      contactsArrayMessage: {
        displayName: "2 contatos",
        contacts: [
          { displayName: "Ana", vcard: vcard("Ana", "5511955554444", "+55 11 95555-4444") },
          { displayName: "Bia", vcard: vcard("Bia", "5511966665555", "+55 11 96666-5555") },
        ],
      },
    });
    expect(m).toEqual({ ...base("MSG1"), contactCard: { name: "Ana", phone: "5511955554444" }, body: "👤 Ana 5511955554444\n👤 Bia 5511966665555" });
  });
});

describe("interactive kinds become readable text", () => {
  it.each([
    ["poll", { pollCreationMessage: { name: "Melhor horário?", options: [{ optionName: "Manhã" }, { optionName: "Tarde" }], selectableOptionsCount: 1 } }, "📊 Melhor horário?\n• Manhã\n• Tarde"],
    ["poll v3", { pollCreationMessageV3: { name: "Sim ou não", options: [{ optionName: "Sim" }, { optionName: "Não" }] } }, "📊 Sim ou não\n• Sim\n• Não"],
    ["buttons response", { buttonsResponseMessage: { selectedButtonId: "btn-2", selectedDisplayText: "Falar com atendente" } }, "Falar com atendente"],
    ["buttons response without text", { buttonsResponseMessage: { selectedButtonId: "btn-2" } }, "btn-2"],
    ["list response", { listResponseMessage: { title: "Plano Premium", description: "R$ 99/mês", singleSelectReply: { selectedRowId: "row-3" } } }, "Plano Premium\nR$ 99/mês"],
    ["list response (id only)", { listResponseMessage: { singleSelectReply: { selectedRowId: "row-3" } } }, "row-3"],
    ["template button reply", { templateButtonReplyMessage: { selectedId: "t1", selectedDisplayText: "Confirmar", selectedIndex: 0 } }, "Confirmar"],
    ["interactive response", { interactiveResponseMessage: { body: { text: "Quero o boleto" }, nativeFlowResponseMessage: { name: "quick_reply", paramsJson: "{}" } } }, "Quero o boleto"],
    ["group invite", { groupInviteMessage: { groupJid: "1203@g.us", inviteCode: "abc", groupName: "Promoções", caption: "entra aí" } }, "👥 Group invitation: Promoções\nentra aí"],
  ])("%s", async (_n, message, body) => {
    expect((await one(message)).body).toBe(body);
  });
});

describe("unknown kinds are shown, never dropped", () => {
  it("a kind this plugin does not know → a placeholder naming it", async () => {
    const m = await one({ requestPhoneNumberMessage: {} });
    expect(m).toEqual({ ...base("MSG1"), body: "[unsupported WhatsApp message: requestPhoneNumberMessage]" });
  });

  it("a payment request is a placeholder too", async () => {
    const m = await one({ requestPaymentMessage: { currencyCodeIso4217: "BRL", amount1000: 5000 } });
    expect(m.body).toBe("[unsupported WhatsApp message: requestPaymentMessage]");
  });

  it("the placeholder round-trips through the protobuf encoding (a real decoded message)", async () => {
    const encoded = proto.WebMessageInfo.encode(waMessage({ id: "ENC1", message: { productMessage: { businessOwnerJid: CUSTOMER_JID } } })).finish();
    const decoded = proto.WebMessageInfo.decode(encoded);
    const [a] = await normaliseMessage(context(), decoded as never);
    expect((a as { message: { body: string } }).message.body).toBe("[unsupported WhatsApp message: productMessage]");
  });
});
