import { routeFor } from "./outbound";
import { messageIdFor, randomMessageId } from "./ids";

describe("wuzapi sends", () => {
  it("sends each file type through the call wuzapi has for it, with the data-URL prefix it checks", () => {
    const r = (m: string) => {
      const x = routeFor(m);
      return [x.path, x.field, x.prefix(m), x.caption];
    };
    expect(r("image/jpeg")).toEqual(["/chat/send/image", "Image", "image/jpeg", true]);
    expect(r("image/png")).toEqual(["/chat/send/image", "Image", "image/png", true]);
    expect(r("image/webp")).toEqual(["/chat/send/sticker", "Sticker", "image/webp", false]);
    expect(r("video/mp4")).toEqual(["/chat/send/video", "Video", "video/mp4", true]);
    expect(r("audio/ogg; codecs=opus")).toEqual(["/chat/send/audio", "Audio", "audio/ogg", false]);
    // Audio WhatsApp cannot play as a voice note, GIFs and anything else: a document.
    expect(r("audio/mpeg")).toEqual(["/chat/send/document", "Document", "application/octet-stream", true]);
    expect(r("image/gif")[0]).toBe("/chat/send/document");
    expect(r("application/pdf")[0]).toBe("/chat/send/document");
  });

  it("the WhatsApp id of a send is fixed by the connection and the core's message id", () => {
    const a = messageIdFor("conn-token-a", 42);
    expect(a).toMatch(/^3EB0[0-9A-F]{20}$/);
    expect(messageIdFor("conn-token-a", 42)).toBe(a);
    expect(messageIdFor("conn-token-a", 42, "caption")).not.toBe(a);
    expect(messageIdFor("conn-token-b", 42)).not.toBe(a);
    expect(messageIdFor("conn-token-a", 43)).not.toBe(a);
    expect(messageIdFor("conn-token-a", undefined)).toBeUndefined();
    expect(randomMessageId()).toMatch(/^3EB0[0-9A-F]{20}$/);
    expect(randomMessageId()).not.toBe(randomMessageId());
  });
});
