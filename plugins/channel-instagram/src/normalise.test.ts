/** Instagram's webhook envelope read into events (pure). */
import { eventsOf, PayloadError, timeOf } from "./normalise";

const ACCOUNT = "17841400000000001";
const USER = "7000000000000001";
const env = (...messaging: unknown[]) => JSON.stringify({ object: "instagram", entry: [{ id: ACCOUNT, time: 1732400000000, messaging }] });
const from = (extra: Record<string, unknown>, sender = USER, recipient = ACCOUNT) => ({ sender: { id: sender }, recipient: { id: recipient }, timestamp: 1732400000123, ...extra });

describe("instagram webhook events", () => {
  it("reads texts, files, links, replies and echoes", () => {
    const [text, file, echo, link] = eventsOf(
      env(
        from({ message: { mid: "m1", text: "Oi", reply_to: { mid: "m0" } } }),
        from({ message: { mid: "m2", attachments: [{ type: "image", payload: { url: "https://cdn/x.jpg" } }, { type: "video", payload: { url: "https://cdn/v.mp4" } }] } }),
        from({ message: { mid: "m3", text: "nossa resposta", is_echo: true } }, ACCOUNT, USER),
        from({ message: { mid: "m4", attachments: [{ type: "ig_reel", payload: { url: "https://instagram.com/reel/1" } }] } }),
      ),
    );
    expect(text).toEqual({ kind: "message", account: ACCOUNT, customer: USER, timestamp: 1732400000123, mid: "m1", echo: false, text: "Oi", files: [], replyTo: "m0" });
    expect(file).toMatchObject({ kind: "message", mid: "m2", files: [{ url: "https://cdn/x.jpg", mimeType: "image/jpeg" }, { url: "https://cdn/v.mp4", mimeType: "video/mp4" }] });
    expect(echo).toMatchObject({ kind: "message", mid: "m3", echo: true, customer: USER });
    expect(link).toMatchObject({ kind: "message", text: "https://instagram.com/reel/1", files: [] });
  });

  it("reads reactions, postbacks, read receipts, referrals and deletions; skips stickers and unknown kinds", () => {
    const events = eventsOf(
      env(
        from({ reaction: { mid: "m9", action: "react", reaction: "love", emoji: "❤️" } }),
        from({ reaction: { mid: "m9", action: "unreact" } }),
        from({ postback: { mid: "p1", title: "Falar com vendas", payload: "SALES" } }),
        from({ read: { mid: "m8" } }),
        from({ referral: { ref: "promo", source: "IGME_LINK", type: "OPEN_THREAD" } }),
        from({ message: { mid: "m7", is_deleted: true } }),
        from({ message: { mid: "m6", attachments: [{ type: "image", payload: { url: "https://cdn/s.png", sticker_id: 369239263222822 } }] } }),
        from({ optin: {} }),
      ),
    );
    expect(events.map((e) => e.kind)).toEqual(["reaction", "reaction", "postback", "seen", "referral", "deleted", "skip", "skip"]);
    expect(events[0]).toMatchObject({ mid: "m9", emoji: "❤️", fromAccount: false });
    expect(events[1]).toMatchObject({ emoji: "" });
    expect(events[2]).toMatchObject({ mid: "p1", title: "Falar com vendas", payload: "SALES" });
    expect(events[3]).toMatchObject({ mid: "m8", customer: USER });
    expect(events[4]).toMatchObject({ ref: "promo", source: "IGME_LINK" });
  });

  it("refuses what is not Instagram's envelope", () => {
    expect(() => eventsOf("nope")).toThrow(PayloadError);
    expect(() => eventsOf(JSON.stringify({ object: "page", entry: [] }))).toThrow(PayloadError);
    expect(eventsOf(JSON.stringify({ object: "instagram", entry: [{ id: ACCOUNT, changes: [{ field: "comments" }] }] }))).toEqual([]);
    expect(timeOf(1732400000)).toBe(1732400000000);
    expect(timeOf("x", 5)).toBe(5);
  });
});
