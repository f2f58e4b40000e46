/** The Send API bodies, the 1000-byte split and the messaging window (pure). */
import { attachmentTypeOf, bodiesFor, HOUR_MS, MAX_TEXT_BYTES, splitText, windowFor } from "./outbound";

const bytes = (s: string) => Buffer.byteLength(s, "utf8");

describe("instagram outbound", () => {
  it("keeps a short text whole and splits a long one at word boundaries, every part within 1000 bytes", () => {
    expect(splitText("  olá  ")).toEqual(["olá"]);
    const words = Array.from({ length: 400 }, (_, i) => `palavra${i}`).join(" ");
    const parts = splitText(words);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(bytes(p)).toBeLessThanOrEqual(MAX_TEXT_BYTES);
    // No word is cut: joined back with spaces, the text is the same.
    expect(parts.join(" ")).toBe(words);
  });

  it("prefers paragraph and sentence ends, and never cuts inside a character", () => {
    const para = `${"Primeiro parágrafo com texto. ".repeat(20).trim()}\n\n${"Segundo parágrafo aqui. ".repeat(30).trim()}`;
    const parts = splitText(para);
    expect(parts[0].endsWith("texto.")).toBe(true);
    const sentences = "Frase curta. ".repeat(120).trim();
    for (const p of splitText(sentences)) expect(p.endsWith(".")).toBe(true);
    // Emoji (4 bytes each) with no spaces: a hard cut between characters.
    const emoji = "😀".repeat(600);
    const cut = splitText(emoji);
    expect(cut.map(bytes)).toEqual([1000, 1000, 400]);
    expect(cut.join("")).toBe(emoji);
  });

  it("builds text and attachment bodies, the caption after the file, the tag when asked", () => {
    expect(bodiesFor("1784", { kind: "text", body: "oi" }, null, false)).toEqual([{ recipient: { id: "1784" }, messaging_type: "RESPONSE", message: { text: "oi" } }]);
    expect(bodiesFor("1784", { kind: "media", body: "segue", media: { url: "https://x/y.pdf", mimeType: "application/pdf" } }, "https://x/y.pdf", true)).toEqual([
      { recipient: { id: "1784" }, messaging_type: "MESSAGE_TAG", tag: "HUMAN_AGENT", message: { attachment: { type: "file", payload: { url: "https://x/y.pdf" } } } },
      { recipient: { id: "1784" }, messaging_type: "MESSAGE_TAG", tag: "HUMAN_AGENT", message: { text: "segue" } },
    ]);
    expect(["image/png", "video/mp4", "audio/ogg; codecs=opus", "application/zip"].map(attachmentTypeOf)).toEqual(["image", "video", "audio", "file"]);
  });

  it("answers within 24 hours, tags up to 7 days when allowed, refuses beyond", () => {
    const now = Date.now();
    expect(windowFor(now - 23 * HOUR_MS, now, false)).toEqual({ ok: true, tag: false });
    expect(windowFor(null, now, false)).toEqual({ ok: true, tag: false });
    expect(windowFor(now - 25 * HOUR_MS, now, false)).toEqual({ ok: false, code: "ERR_INSTAGRAM_WINDOW_CLOSED" });
    expect(windowFor(now - 25 * HOUR_MS, now, true)).toEqual({ ok: true, tag: true });
    expect(windowFor(now - 6 * 24 * HOUR_MS, now, true)).toEqual({ ok: true, tag: true });
    expect(windowFor(now - 8 * 24 * HOUR_MS, now, true)).toEqual({ ok: false, code: "ERR_INSTAGRAM_HUMAN_AGENT_EXPIRED" });
  });
});
