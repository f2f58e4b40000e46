/**
 * A "messages" change as what the plugin hands the core: each message type, replies,
 * reactions, statuses (failed with Meta's code and title; 131047 as template required) and
 * value-level errors.
 */
import { actionsOf, msOf, withoutSupersededStatuses } from "./normalise";

const from = "5511988887777";
const m = (type: string, body: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ from, id: `wamid.${type}`, timestamp: "1760000000", type, ...body, ...extra });

describe("WABA webhook values", () => {
  it("turns each message type into a draft with its body, file, reply and sender's name", () => {
    const actions = actionsOf({
      contacts: [{ profile: { name: "Ana" }, wa_id: from }],
      messages: [
        m("text", { text: { body: "oi" } }, { context: { from, id: "wamid.quoted" } }),
        m("image", { image: { id: "55", mime_type: "image/jpeg", caption: "foto" } }),
        m("document", { document: { id: "56", mime_type: "application/pdf", filename: "a.pdf" } }),
        m("location", { location: { latitude: -23.5, longitude: -46.6, name: "Loja" } }),
        m("contacts", { contacts: [{ name: { formatted_name: "Beto" }, phones: [{ phone: "+55 11 9999-0000" }] }] }),
        m("interactive", { interactive: { type: "list_reply", list_reply: { id: "r1", title: "Boleto" } } }),
        m("button", { button: { payload: "P", text: "Sim" } }),
        m("unsupported", { errors: [{ code: 131051, title: "Message type unknown" }] }),
      ],
    });
    const drafts = actions.map((a) => (a.kind === "message" ? a : null));
    expect(drafts[0]!.draft).toEqual({ providerMessageId: "wamid.text", timestamp: 1_760_000_000_000, from: { externalId: from, phone: from, name: "Ana" }, body: "oi", replyToProviderId: "wamid.quoted" });
    expect(drafts[1]).toMatchObject({ draft: { body: "foto" }, media: { id: "55", mimeType: "image/jpeg", fileName: "image-55.jpg" } });
    expect(drafts[2]).toMatchObject({ draft: { body: "" }, media: { id: "56", fileName: "a.pdf" } });
    expect(drafts[3]!.draft).toMatchObject({ body: "📍 Loja", location: { latitude: -23.5, longitude: -46.6, name: "Loja" } });
    expect(drafts[4]!.draft).toMatchObject({ contactCard: { name: "Beto", phone: "+55 11 9999-0000" } });
    expect(drafts.slice(5).map((d) => d!.draft.body)).toEqual(["Boleto", "Sim", "[unsupported: Message type unknown]"]);
  });

  it("makes reactions changes, statuses acks and errors log lines", () => {
    const actions = actionsOf({
      messages: [m("reaction", { reaction: { message_id: "wamid.x", emoji: "👍" } }), m("reaction", { reaction: { message_id: "wamid.x" } })],
      statuses: [
        { id: "wamid.a", status: "delivered", timestamp: "1760000001", recipient_id: from },
        { id: "wamid.b", status: "failed", timestamp: "1760000002", recipient_id: from, errors: [{ code: 131026, title: "Message undeliverable" }] },
        { id: "wamid.c", status: "failed", timestamp: "1760000003", recipient_id: from, errors: [{ code: 131047, title: "Re-engagement message" }] },
        { id: "wamid.d", status: "deleted" },
      ],
      errors: [{ code: 130429, title: "Rate limit hit", error_data: { details: "slow down" } }],
    });
    expect(actions).toEqual([
      { kind: "reaction", targetId: "wamid.x", emoji: "👍", by: from, timestamp: 1_760_000_000_000 },
      { kind: "reaction", targetId: "wamid.x", emoji: "", by: from, timestamp: 1_760_000_000_000 },
      { kind: "ack", providerMessageId: "wamid.a", status: "delivered", timestamp: 1_760_000_001_000, recipient: from },
      { kind: "ack", providerMessageId: "wamid.b", status: "failed", reason: "131026 Message undeliverable", timestamp: 1_760_000_002_000, recipient: from },
      { kind: "ack", providerMessageId: "wamid.c", status: "failed", reason: "ERR_WABA_TEMPLATE_REQUIRED", timestamp: 1_760_000_003_000, recipient: from },
      { kind: "skip", reason: "status deleted of wamid.d" },
      { kind: "error", code: 130429, title: "Rate limit hit", detail: "slow down" },
    ]);
    expect(msOf(undefined)).toBeGreaterThan(1e12);
  });

  it("keeps only the furthest of a message's statuses in one change; failed always goes, other messages untouched", () => {
    const st = (id: string, status: string, ts: number) => ({ id, status, timestamp: String(ts), recipient_id: from });
    const actions = actionsOf({
      messages: [m("text", { text: { body: "oi" } })],
      statuses: [st("wamid.a", "sent", 1), st("wamid.b", "sent", 1), st("wamid.a", "read", 3), st("wamid.a", "delivered", 2), st("wamid.a", "read", 4), st("wamid.c", "sent", 1), { ...st("wamid.c", "failed", 2), errors: [{ code: 131026, title: "Message undeliverable" }] }],
    });
    const kept = withoutSupersededStatuses(actions);
    expect(kept.map((a) => (a.kind === "ack" ? `${a.providerMessageId}:${a.status}@${a.timestamp / 1000}` : a.kind))).toEqual(["message", "wamid.b:sent@1", "wamid.a:read@3", "wamid.c:sent@1", "wamid.c:failed@2"]);
    // Nothing superseded: the same list.
    const plain = actionsOf({ statuses: [st("wamid.x", "delivered", 1), st("wamid.y", "read", 1)] });
    expect(withoutSupersededStatuses(plain)).toEqual(plain);
  });
});
