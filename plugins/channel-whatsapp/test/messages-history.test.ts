/**
 * The history a newly linked device receives, under the connection's import settings (spec §3):
 * the switches, the inclusive date range read in the tenant's zone, close-after-import, and the
 * `imported` mark. Live messages ignore the settings.
 */
import { historyVerdict, normaliseMessage } from "../src/messages";
import type { ImportSettings } from "../src/ports";
import { context, CUSTOMER, GROUP_JID, IMPORT_ALL, REF, T0, text, waMessage } from "./fixtures/wa";

const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const history = (importSettings: ImportSettings | undefined) => context({ source: "history", importSettings });

describe("switches", () => {
  it("history is not imported without settings, or with messages off", async () => {
    expect(await normaliseMessage(history(undefined), text("old"))).toEqual([{ kind: "skip", reason: "history-import-off" }]);
    expect(await normaliseMessage(history({ ...IMPORT_ALL, messages: false }), text("old"))).toEqual([{ kind: "skip", reason: "history-import-off" }]);
  });

  it("imported messages are marked, without closeTicket unless asked", async () => {
    const [a] = await normaliseMessage(history(IMPORT_ALL), text("antigo", { id: "H1" }));
    expect(a).toEqual({ kind: "inbound", message: { ...REF, providerMessageId: "H1", timestamp: T0 * 1000, from: { externalId: CUSTOMER, phone: CUSTOMER }, body: "antigo", imported: {} } });
  });

  it("closeTickets → imported.closeTicket", async () => {
    const [a] = await normaliseMessage(history({ ...IMPORT_ALL, closeTickets: true }), text("antigo"));
    expect((a as { message: { imported: unknown } }).message.imported).toEqual({ closeTicket: true });
  });

  it("group messages follow their own switch", async () => {
    const settings = { ...IMPORT_ALL, groupMessages: false };
    expect(await normaliseMessage(history(settings), text("grupo", { remoteJid: GROUP_JID, participant: "5511933334444@s.whatsapp.net" }))).toEqual([
      { kind: "skip", reason: "history-group-messages-off" },
    ]);
    const [a] = await normaliseMessage(history(settings), text("1:1"));
    expect(a.kind).toBe("inbound");
  });

  it("live messages never carry `imported` and ignore the settings", async () => {
    const [a] = await normaliseMessage(context({ importSettings: { ...IMPORT_ALL, messages: false } }), text("agora"));
    expect(a.kind).toBe("inbound");
    expect((a as { message: { imported?: unknown } }).message.imported).toBeUndefined();
  });
});

describe("date range, both ends inclusive", () => {
  const range: ImportSettings = { ...IMPORT_ALL, from: "2024-03-01", to: "2024-03-10" };
  it.each([
    ["2024-02-29T23:59:59Z", "history-before-range"],
    ["2024-03-01T00:00:00Z", "import"],
    ["2024-03-10T23:59:59Z", "import"],
    ["2024-03-11T00:00:00Z", "history-after-range"],
  ])("%s → %s (UTC when no zone)", async (iso, want) => {
    const [a] = await normaliseMessage(history(range), text("x", { timestamp: at(iso) }));
    expect(a.kind === "skip" ? (a as { reason: string }).reason : "import").toBe(want);
  });

  it("the days are the tenant's: 23:00 in São Paulo on the last day is inside, though UTC is already the next day", async () => {
    const late = at("2024-03-11T02:00:00Z"); // 2024-03-10 23:00 in America/Sao_Paulo
    const [utc] = await normaliseMessage(history(range), text("x", { timestamp: late }));
    const [sp] = await normaliseMessage(history({ ...range, timeZone: "America/Sao_Paulo" }), text("x", { timestamp: late }));
    expect(utc).toEqual({ kind: "skip", reason: "history-after-range" });
    expect(sp.kind).toBe("inbound");
  });

  it("open ends", () => {
    expect(historyVerdict({ ...IMPORT_ALL, from: "2024-03-01" }, false, Date.parse("2030-01-01T00:00:00Z"))).toEqual({ import: true, closeTicket: false });
    expect(historyVerdict({ ...IMPORT_ALL, to: "2024-03-01" }, false, Date.parse("2001-01-01T00:00:00Z"))).toEqual({ import: true, closeTicket: false });
  });
});

describe("history carries reactions beside their message", () => {
  it("each reaction becomes a change of the imported message, after it", async () => {
    const msg = waMessage({
      id: "H9",
      fromMe: true,
      message: { conversation: "Pedido confirmado" },
      reactions: [{ key: { remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: false, id: "R1" }, text: "👍", senderTimestampMs: T0 * 1000 + 60_000 }],
    });
    const actions = await normaliseMessage(history(IMPORT_ALL), msg);
    expect(actions.map((a) => a.kind)).toEqual(["inbound", "change"]);
    expect(actions[1]).toEqual({ kind: "change", change: { ...REF, providerMessageId: "H9", change: { type: "reaction", emoji: "👍", by: CUSTOMER }, timestamp: T0 * 1000 + 60_000 } });
  });
});
