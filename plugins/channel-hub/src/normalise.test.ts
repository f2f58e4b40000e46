/** The hub's webhook events as the channel contract's messages and acks (no services). */
import { mimeOf, normaliseEvent, parseHubTime, PayloadError } from "./normalise";
import { contentsFor, recipientFor } from "./outbound";
import { checkMediaLink, mediaLink } from "./media-link";
import { secretMatches } from "./webhook";

const CHANNEL = "3f2a9c1e-6b7d-4e8f-9a0b-1c2d3e4f5a6b";
/** The sample a Chatwoot fork captured (INTEGRATIONS.md §2.4). */
const sample = (over: Record<string, unknown> = {}, message: Record<string, unknown> = {}) => ({
  type: "MESSAGE",
  id: "evt-1",
  timestamp: "2024-03-29 10:38:07 pm",
  subscriptionId: CHANNEL,
  channel: "facebook",
  direction: "IN",
  message: {
    id: "msg-1",
    from: "6543210987654321",
    to: CHANNEL,
    direction: "IN",
    channel: "facebook",
    visitor: { name: "Ana Souza", firstName: "Ana", lastName: "Souza", picture: "https://cdn.example/ana.jpg" },
    isGroup: "false",
    contents: [{ type: "text", text: "teste" }],
    timestamp: "2024-03-29 10:38:07 pm",
    ...message,
  },
  ...over,
});

describe("hub webhook events", () => {
  it("reads the hub's own timestamps as Brasília time, and ISO, seconds and ms as given", () => {
    expect(parseHubTime("2024-03-29 10:38:07 pm")).toBe(Date.parse("2024-03-30T01:38:07Z"));
    expect(parseHubTime("2024-03-29 12:05:00 am")).toBe(Date.parse("2024-03-29T03:05:00Z"));
    expect(parseHubTime("2024-03-29 12:05:00 pm")).toBe(Date.parse("2024-03-29T15:05:00Z"));
    expect(parseHubTime("2024-03-29T10:38:07Z")).toBe(Date.parse("2024-03-29T10:38:07Z"));
    expect(parseHubTime(1711752000)).toBe(1711752000000);
    expect(parseHubTime(1711752000123)).toBe(1711752000123);
    expect(parseHubTime("nonsense", 42)).toBe(42);
  });

  it("makes a MESSAGE an inbound message with the visitor as the contact", () => {
    const n = normaliseEvent(sample());
    expect(n).toMatchObject({ kind: "message", claims: [CHANNEL, CHANNEL] });
    if (n.kind !== "message") throw new Error();
    expect(n.draft).toEqual({
      providerMessageId: "msg-1",
      timestamp: Date.parse("2024-03-30T01:38:07Z"),
      from: { externalId: "6543210987654321", name: "Ana Souza", avatarUrl: "https://cdn.example/ana.jpg" },
      body: "teste",
    });
  });

  it("reads files, locations, e-mails and groups; skips echoes and empty messages", () => {
    const file = normaliseEvent(sample({}, { contents: [{ type: "file", fileUrl: "https://files.example/a.jpg", fileMimeType: "image", fileName: "a.jpg", fileCaption: "olha" }] }));
    expect(file.kind === "message" && file.draft).toMatchObject({ media: { url: "https://files.example/a.jpg", mimeType: "image/jpeg", fileName: "a.jpg" }, body: "olha" });
    const loc = normaliseEvent(sample({}, { contents: [{ type: "location", latitude: -23.5, longitude: -46.6 }] }));
    expect(loc.kind === "message" && loc.draft.location).toEqual({ latitude: -23.5, longitude: -46.6 });
    const mail = normaliseEvent(sample({ channel: "email" }, { from: "ana@example.com", channel: "email", contents: [{ type: "email", subject: "Pedido", html: "<p>Oi &amp; tchau</p>" }] }));
    expect(mail.kind === "message" && mail.draft).toMatchObject({ from: { externalId: "ana@example.com", email: "ana@example.com" }, body: "Pedido\n\nOi & tchau" });
    const group = normaliseEvent(sample({}, { isGroup: "true", group: { id: "g-1", name: "Turma" } }));
    expect(group.kind === "message" && group.draft).toMatchObject({ isGroup: true, from: { externalId: "g-1", name: "Turma" }, participant: { externalId: "6543210987654321", name: "Ana Souza" } });
    expect(normaliseEvent(sample({ direction: "OUT" }, { direction: "OUT" })).kind).toBe("skip");
    expect(normaliseEvent(sample({}, { contents: [{ type: "unknown" }] })).kind).toBe("skip");
    expect(mimeOf("application/pdf", "file")).toBe("application/pdf");
    expect(mimeOf("", "audio")).toBe("audio/ogg");
  });

  it("makes MESSAGE_STATUS an ack, failures with the hub's reason; refuses what is not the hub's", () => {
    const st = (code: string, extra: Record<string, unknown> = {}) =>
      normaliseEvent({ type: "MESSAGE_STATUS", timestamp: "2024-03-29 10:38:09 pm", subscriptionId: CHANNEL, channel: "facebook", messageId: "out-1", contentIndex: 0, messageStatus: { timestamp: "2024-03-29 10:38:09 pm", code, description: code, ...extra } });
    expect(st("DELIVERED")).toMatchObject({ kind: "ack", providerMessageId: "out-1", status: "delivered" });
    expect(st("READ")).toMatchObject({ status: "read" });
    expect(st("REJECTED", { error: { message: "outside the 24h window" } })).toMatchObject({ status: "failed", reason: "outside the 24h window" });
    expect(st("CLICKED").kind).toBe("skip");
    expect(() => normaliseEvent([])).toThrow(PayloadError);
    expect(() => normaliseEvent({ type: "MESSAGE" })).toThrow(PayloadError);
    expect(() => normaliseEvent({ type: "MESSAGE_STATUS", messageId: "x" })).toThrow(PayloadError);
    expect(() => normaliseEvent({})).toThrow(PayloadError);
  });
});

describe("hub sends, links and secrets", () => {
  it("addresses each variant's recipients and builds its contents", () => {
    expect(recipientFor("whatsapp", "+55 (11) 98888-7777")).toBe("5511988887777");
    expect(recipientFor("whatsapp", "ana")).toBeNull();
    expect(recipientFor("email", "ana@example.com")).toBe("ana@example.com");
    expect(recipientFor("email", "ana")).toBeNull();
    expect(recipientFor("instagram", "1784140")).toBe("1784140");
    expect(recipientFor("facebook", "has space")).toBeNull();
    const s = { variant: "telegram" as const, emailSubject: "Atendimento" };
    expect(contentsFor(s, { kind: "text", body: "oi" }, null)).toEqual([{ type: "text", text: "oi" }]);
    expect(contentsFor(s, { kind: "media", body: "foto", media: { mimeType: "image/png", fileName: "a.png" } }, "https://x/a")).toEqual([
      { type: "file", fileUrl: "https://x/a", fileMimeType: "photo", fileName: "a.png", fileCaption: "foto" },
    ]);
    expect(contentsFor({ ...s, variant: "email" }, { kind: "text", body: "a < b\nok" }, null)).toEqual([{ type: "email", subject: "Atendimento", html: "a &lt; b<br>ok" }]);
  });

  it("signs file links for one connection and a day; compares webhook secrets whatever their length", () => {
    const link = mediaLink({ publicUrl: "https://atende.example/", token: "tok-123456789", secret: "k".repeat(40), connectionId: 7, path: "tenants/1/a.pdf", now: 1000 });
    const m = /\/api\/hub\/tok-123456789\/media\/(\d+)\/([^?]+)\?p=(.+)$/.exec(link)!;
    const parts = { expires: Number(m[1]), signature: m[2], p: m[3] };
    expect(checkMediaLink(parts, "k".repeat(40), 7, 2000)).toBe("tenants/1/a.pdf");
    expect(checkMediaLink(parts, "k".repeat(40), 8, 2000)).toBeNull();
    expect(checkMediaLink(parts, "j".repeat(40), 7, 2000)).toBeNull();
    expect(checkMediaLink({ ...parts, p: Buffer.from("tenants/2/b.pdf").toString("base64url") }, "k".repeat(40), 7, 2000)).toBeNull();
    expect(checkMediaLink(parts, "k".repeat(40), 7, parts.expires + 1)).toBeNull();
    expect(secretMatches("a".repeat(40), "a".repeat(40))).toBe(true);
    expect(secretMatches("a".repeat(39), "a".repeat(40))).toBe(false);
    expect(secretMatches(undefined, "a".repeat(40))).toBe(false);
    expect(secretMatches("", "")).toBe(false);
  });
});
