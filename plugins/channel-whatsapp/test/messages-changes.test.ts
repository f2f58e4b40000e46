/**
 * Messages that change another message (reactions, edits, revokes) → the core's change
 * events on the target's id; and what is skipped, each with its reason.
 */
import { getContentType, proto } from "@whiskeysockets/baileys";
import { normaliseMessage, SKIP_DECRYPTION_FAILED } from "../src/messages";
import { context, CUSTOMER, CUSTOMER_JID, CUSTOMER_LID, GROUP_JID, REF, T0, text, waMessage } from "./fixtures/wa";

const PT = proto.Message.ProtocolMessage.Type;

describe("reactions", () => {
  it("a customer's reaction → change reaction by the customer", async () => {
    const msg = waMessage({ message: { reactionMessage: { key: { remoteJid: CUSTOMER_JID, fromMe: true, id: "MINE1" }, text: "👍", senderTimestampMs: T0 * 1000 + 250 } } });
    expect(await normaliseMessage(context(), msg)).toEqual([
      { kind: "change", change: { ...REF, providerMessageId: "MINE1", change: { type: "reaction", emoji: "👍", by: CUSTOMER }, timestamp: T0 * 1000 + 250 } },
    ]);
  });

  it("an empty reaction text takes the reaction away", async () => {
    const msg = waMessage({ message: { reactionMessage: { key: { remoteJid: CUSTOMER_JID, fromMe: true, id: "MINE1" }, text: "" } } });
    const [a] = await normaliseMessage(context(), msg);
    expect(a).toEqual({ kind: "change", change: { ...REF, providerMessageId: "MINE1", change: { type: "reaction", emoji: "", by: CUSTOMER }, timestamp: T0 * 1000 } });
  });

  it("a reaction made on the account's phone is fromMe, by the account", async () => {
    const msg = waMessage({ fromMe: true, message: { reactionMessage: { key: { remoteJid: CUSTOMER_JID, fromMe: false, id: "THEIRS1" }, text: "❤️" } } });
    const [a] = await normaliseMessage(context(), msg);
    expect(a).toEqual({ kind: "change", change: { ...REF, providerMessageId: "THEIRS1", change: { type: "reaction", emoji: "❤️", by: "5511900000000", fromMe: true }, timestamp: T0 * 1000 } });
  });

  it("in a group the reactor is the member, not the group", async () => {
    const msg = waMessage({
      remoteJid: GROUP_JID,
      participant: "77000000000009@lid",
      participantAlt: "5511933334444@s.whatsapp.net",
      message: { reactionMessage: { key: { remoteJid: GROUP_JID, fromMe: true, id: "G1" }, text: "😂" } },
    });
    const actions = await normaliseMessage(context(), msg);
    expect(actions.at(-1)).toEqual({ kind: "change", change: { ...REF, providerMessageId: "G1", change: { type: "reaction", emoji: "😂", by: "5511933334444" }, timestamp: T0 * 1000 } });
  });

  it("a reaction from a LID whose phone is unknown is by the LID identity", async () => {
    const msg = waMessage({ remoteJid: CUSTOMER_LID, message: { reactionMessage: { key: { remoteJid: CUSTOMER_LID, fromMe: true, id: "M" }, text: "🙏" } } });
    const [a] = await normaliseMessage(context(), msg);
    expect((a as { change: { change: { by: string } } }).change.change.by).toBe(CUSTOMER_LID);
  });
});

describe("edits", () => {
  it("protocolMessage MESSAGE_EDIT → change edit with the new text and the edit's time", async () => {
    const msg = waMessage({
      message: { protocolMessage: { type: PT.MESSAGE_EDIT, key: { remoteJid: CUSTOMER_JID, fromMe: false, id: "ORIG1" }, editedMessage: { conversation: "texto corrigido" }, timestampMs: T0 * 1000 + 9000 } },
    });
    expect(await normaliseMessage(context(), msg)).toEqual([
      { kind: "change", change: { ...REF, providerMessageId: "ORIG1", change: { type: "edit", body: "texto corrigido" }, timestamp: T0 * 1000 + 9000 } },
    ]);
  });

  it("the editedMessage wrapper around the protocol message (how 7.x receives edits)", async () => {
    const msg = waMessage({
      message: {
        editedMessage: {
          message: { protocolMessage: { type: PT.MESSAGE_EDIT, key: { remoteJid: CUSTOMER_JID, id: "ORIG2" }, editedMessage: { extendedTextMessage: { text: "novo texto" } } } },
        },
      },
    });
    const [a] = await normaliseMessage(context(), msg);
    expect(a).toEqual({ kind: "change", change: { ...REF, providerMessageId: "ORIG2", change: { type: "edit", body: "novo texto" }, timestamp: T0 * 1000 } });
  });

  it("an editedMessage wrapper with the new content itself edits the message of its own key", async () => {
    const msg = waMessage({ id: "ORIG3", message: { editedMessage: { message: { conversation: "versão 2" } } } });
    const [a] = await normaliseMessage(context(), msg);
    expect(a).toEqual({ kind: "change", change: { ...REF, providerMessageId: "ORIG3", change: { type: "edit", body: "versão 2" }, timestamp: T0 * 1000 } });
  });

  it("an edited caption", async () => {
    const msg = waMessage({
      message: { protocolMessage: { type: PT.MESSAGE_EDIT, key: { id: "IMG1" }, editedMessage: { imageMessage: { caption: "legenda nova" } } } },
    });
    const [a] = await normaliseMessage(context(), msg);
    expect((a as { change: { change: unknown } }).change.change).toEqual({ type: "edit", body: "legenda nova" });
  });
});

describe("revokes", () => {
  it("protocolMessage REVOKE → change delete of the target", async () => {
    const msg = waMessage({ message: { protocolMessage: { type: PT.REVOKE, key: { remoteJid: CUSTOMER_JID, fromMe: false, id: "GONE1" } } } });
    expect(await normaliseMessage(context(), msg)).toEqual([{ kind: "change", change: { ...REF, providerMessageId: "GONE1", change: { type: "delete" }, timestamp: T0 * 1000 } }]);
  });

  it("a revoke inside an ephemeral wrapper (disappearing-messages chat)", async () => {
    const msg = waMessage({ message: { ephemeralMessage: { message: { protocolMessage: { type: PT.REVOKE, key: { id: "GONE2" } } } } } });
    const [a] = await normaliseMessage(context(), msg);
    expect((a as { change: { providerMessageId: string } }).change.providerMessageId).toBe("GONE2");
  });
});

describe("skips, each with its reason", () => {
  const skipOf = async (msg: ReturnType<typeof waMessage>) => {
    const actions = await normaliseMessage(context(), msg);
    expect(actions).toHaveLength(1);
    expect(actions[0].kind).toBe("skip");
    return (actions[0] as { reason: string }).reason;
  };

  it("a decryption failure stub (CIPHERTEXT) is the reason the session side counts", async () => {
    const msg = waMessage({ stubType: proto.WebMessageInfo.StubType.CIPHERTEXT, stubParameters: ["Bad MAC"] });
    expect(await skipOf(msg)).toBe(SKIP_DECRYPTION_FAILED);
    expect(SKIP_DECRYPTION_FAILED).toBe("decryption-failed");
  });

  it("group notification stubs", async () => {
    const msg = waMessage({ remoteJid: GROUP_JID, stubType: proto.WebMessageInfo.StubType.GROUP_PARTICIPANT_ADD, stubParameters: ['{"id":"1@s.whatsapp.net"}'] });
    expect(await skipOf(msg)).toBe("stub:GROUP_PARTICIPANT_ADD");
  });

  it("status broadcast and newsletters", async () => {
    expect(await skipOf(text("story", { remoteJid: "status@broadcast", participant: CUSTOMER_JID }))).toBe("status-broadcast");
    expect(await skipOf(text("news", { remoteJid: "120363000000000000@newsletter" }))).toBe("newsletter");
  });

  it("a message carrying only a sender-key distribution", async () => {
    const msg = waMessage({ remoteJid: GROUP_JID, participant: CUSTOMER_JID, message: { senderKeyDistributionMessage: { groupId: GROUP_JID, axolotlSenderKeyDistributionMessage: Buffer.from([1, 2]) } } });
    expect(await skipOf(msg)).toBe("sender-key-distribution");
  });

  it("a sender-key distribution beside real content is the content", async () => {
    const msg = waMessage({ remoteJid: GROUP_JID, participant: CUSTOMER_JID, message: { senderKeyDistributionMessage: { groupId: GROUP_JID }, conversation: "oi grupo" } });
    const actions = await normaliseMessage(context(), msg);
    expect(actions.at(-1)).toMatchObject({ kind: "inbound", message: { body: "oi grupo", isGroup: true } });
  });

  it("a fast-ratchet key beside the text is passed over too (Baileys' getContentType would pick the key)", async () => {
    // Fields come in field-number order: the key (15) before a poll (49).
    const msg = waMessage({ remoteJid: GROUP_JID, participant: CUSTOMER_JID, message: { pollCreationMessage: { name: "Pizza?", options: [{ optionName: "Sim" }] }, fastRatchetKeySenderKeyDistributionMessage: { groupId: GROUP_JID } } });
    expect(getContentType(msg.message!)).toBe("fastRatchetKeySenderKeyDistributionMessage");
    const actions = await normaliseMessage(context(), msg);
    expect(actions.at(-1)).toMatchObject({ kind: "inbound", message: { body: "📊 Pizza?\n• Sim" } });
    expect(await skipOf(waMessage({ remoteJid: GROUP_JID, participant: CUSTOMER_JID, message: { fastRatchetKeySenderKeyDistributionMessage: { groupId: GROUP_JID } } }))).toBe("sender-key-distribution");
  });

  it("history-sync notifications and other protocol messages", async () => {
    expect(await skipOf(waMessage({ fromMe: true, message: { protocolMessage: { type: PT.HISTORY_SYNC_NOTIFICATION, historySyncNotification: { chunkOrder: 1 } } } }))).toBe("history-sync-notification");
    expect(await skipOf(waMessage({ fromMe: true, message: { protocolMessage: { type: PT.APP_STATE_SYNC_KEY_SHARE } } }))).toBe("protocol:APP_STATE_SYNC_KEY_SHARE");
    expect(await skipOf(waMessage({ message: { protocolMessage: { type: PT.EPHEMERAL_SETTING, ephemeralExpiration: 86400 } } }))).toBe("protocol:EPHEMERAL_SETTING");
  });

  it("encrypted poll votes, pins and keep-in-chat are signalling", async () => {
    expect(await skipOf(waMessage({ message: { pollUpdateMessage: { pollCreationMessageKey: { id: "P1" } } } }))).toBe("signalling:pollUpdateMessage");
    expect(await skipOf(waMessage({ message: { pinInChatMessage: { key: { id: "X" } } } }))).toBe("signalling:pinInChatMessage");
    expect(await skipOf(waMessage({ message: { keepInChatMessage: { key: { id: "X" } } } }))).toBe("signalling:keepInChatMessage");
  });

  it("a message with no content at all", async () => {
    expect(await skipOf(waMessage({}))).toBe("empty");
  });

  it("the account's chat with itself", async () => {
    expect(await skipOf(text("nota", { remoteJid: "5511900000000@s.whatsapp.net", fromMe: true }))).toBe("own-chat");
  });
});
