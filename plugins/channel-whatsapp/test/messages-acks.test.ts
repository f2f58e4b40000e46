/**
 * messages.update statuses and group receipts → the core's acks. The mapping only: ordering
 * ("never downgrade") is the core's rule, so a late lower status is still told as it came.
 */
import { proto, type MessageUserReceiptUpdate, type WAMessageUpdate } from "@whiskeysockets/baileys";
import { acksFromReceipts, acksFromUpdates, ackStatusOf } from "../src/messages";
import { CUSTOMER_JID, GROUP_JID, REF, T0 } from "./fixtures/wa";

const S = proto.WebMessageInfo.Status;
const update = (id: string, status: number | null, fromMe = true, extra: Record<string, unknown> = {}): WAMessageUpdate => ({
  key: { remoteJid: CUSTOMER_JID, fromMe, id },
  update: { status, ...extra },
});

describe("messages.update", () => {
  it("maps every status of the proto", () => {
    const acks = acksFromUpdates(REF, [update("A", S.SERVER_ACK), update("B", S.DELIVERY_ACK), update("C", S.READ), update("D", S.PLAYED), update("E", S.ERROR)]);
    expect(acks).toEqual([
      { ...REF, providerMessageId: "A", status: "sent" },
      { ...REF, providerMessageId: "B", status: "delivered" },
      { ...REF, providerMessageId: "C", status: "read" },
      { ...REF, providerMessageId: "D", status: "played" },
      { ...REF, providerMessageId: "E", status: "failed", reason: "WhatsApp refused the message" },
    ]);
  });

  it("PENDING, missing statuses and other updates (edits, revokes) are no acks", () => {
    expect(acksFromUpdates(REF, [update("P", S.PENDING), update("N", null), { key: { id: "X", fromMe: true }, update: { message: null, messageStubType: proto.WebMessageInfo.StubType.REVOKE } }])).toEqual([]);
  });

  it("statuses of received messages (the account reading them) are no acks", () => {
    expect(acksFromUpdates(REF, [update("IN", S.READ, false)])).toEqual([]);
  });

  it("an out-of-order update is passed on as it came (the core never moves a status back)", () => {
    expect(acksFromUpdates(REF, [update("A", S.READ), update("A", S.DELIVERY_ACK)]).map((a) => a.status)).toEqual(["read", "delivered"]);
  });

  it("a failure says why when WhatsApp did", () => {
    const [a] = acksFromUpdates(REF, [update("E", S.ERROR, true, { messageStubParameters: ["463"] })]);
    expect(a.reason).toBe("463");
  });

  it("a status given by name reads the same", () => {
    expect(ackStatusOf("READ")).toBe("read");
    expect(ackStatusOf("PENDING")).toBeUndefined();
    expect(ackStatusOf(99)).toBeUndefined();
  });
});

describe("message-receipt.update (groups)", () => {
  const receipt = (id: string, userJid: string, r: Record<string, number>, fromMe = true): MessageUserReceiptUpdate => ({
    key: { remoteJid: GROUP_JID, fromMe, id },
    receipt: { userJid, ...r },
  });

  it("receipt → delivered, read → read, played → played, each with the member and its time", () => {
    const acks = acksFromReceipts(REF, [
      receipt("G1", "5511933334444:2@s.whatsapp.net", { receiptTimestamp: T0 }),
      receipt("G1", "77000000000009@lid", { readTimestamp: T0 + 5 }),
      receipt("G2", "5511933334444@s.whatsapp.net", { playedTimestamp: T0 + 9 }),
    ]);
    expect(acks).toEqual([
      { ...REF, providerMessageId: "G1", status: "delivered", timestamp: T0 * 1000, participant: "5511933334444" },
      { ...REF, providerMessageId: "G1", status: "read", timestamp: (T0 + 5) * 1000, participant: "77000000000009@lid" },
      { ...REF, providerMessageId: "G2", status: "played", timestamp: (T0 + 9) * 1000, participant: "5511933334444" },
    ]);
  });

  it("a receipt with several times gives each, in forward order", () => {
    const acks = acksFromReceipts(REF, [receipt("G3", "5511933334444@s.whatsapp.net", { readTimestamp: T0 + 2, receiptTimestamp: T0 + 1 })]);
    expect(acks.map((a) => [a.status, a.timestamp])).toEqual([
      ["delivered", (T0 + 1) * 1000],
      ["read", (T0 + 2) * 1000],
    ]);
  });

  it("receipts of received messages are ignored", () => {
    expect(acksFromReceipts(REF, [receipt("IN", "5511933334444@s.whatsapp.net", { readTimestamp: T0 }, false)])).toEqual([]);
  });

  it("Long timestamps (as the proto decodes them) read the same", () => {
    const r = proto.UserReceipt.fromObject({ userJid: "5511933334444@s.whatsapp.net", readTimestamp: T0 });
    expect(typeof r.readTimestamp).toBe("object");
    const [a] = acksFromReceipts(REF, [{ key: { remoteJid: GROUP_JID, fromMe: true, id: "L" }, receipt: r }]);
    expect(a.timestamp).toBe(T0 * 1000);
  });
});
