/** The conformance kit's sample outbound messages, one per capability. */
import type { ChannelCapability, MediaRef, OutboundMessage } from "../channel-contract";

const DEFAULT_MEDIA: MediaRef = { url: "http://127.0.0.1:9/conformance.png", mimeType: "image/png", fileName: "conformance.png", size: 68 };
/** A 512x512 fully transparent lossless WebP: the sticker the kit sends by default. */
const STICKER_WEBP = "UklGRiwAAABXRUJQVlA4TB8AAAAv/8F/EAcQEREQCCT7e89QRP8z/vOf//znP//5z/8BAA==";
const DEFAULT_STICKER: MediaRef = { data: STICKER_WEBP, mimeType: "image/webp", fileName: "conformance.webp", size: 52 };

/** A well-formed message of each kind; reaction/edit/delete point at an earlier send. */
export function sampleMessage(kind: ChannelCapability, target: string, media: MediaRef = DEFAULT_MEDIA, sticker: MediaRef = DEFAULT_STICKER): OutboundMessage {
  switch (kind) {
    case "text":
      return { kind, body: "conformance: text" };
    case "media":
      return { kind, body: "conformance: media", media };
    case "sticker":
      return { kind, media: sticker };
    case "template":
      return { kind, name: "conformance", language: "en", parameters: ["x"] };
    case "reaction":
      return { kind, targetProviderId: target, emoji: "👍" };
    case "edit":
      return { kind, targetProviderId: target, body: "conformance: edited" };
    case "delete":
      return { kind, targetProviderId: target };
  }
}
