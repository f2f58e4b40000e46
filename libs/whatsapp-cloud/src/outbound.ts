/**
 * The contract's outbound messages as Cloud API calls (POST <messages>): text, media (the
 * file uploaded first, then sent by its media id; a file the core has only as a URL is sent by
 * `link`, which Meta fetches), stickers, reactions ("" takes one away), replies (`context`),
 * and interactive buttons and lists (interactive.ts). Every body carries
 * messaging_product "whatsapp" and recipient_type "individual".
 */
import { MEDIA_MAX_BYTES, type MediaRef, type OutboundMessage, type SendResult } from "@openatende/plugin-sdk";
import { GraphError, type GraphClient } from "./graph";
import type { InteractiveSpec } from "./interactive";
import { interactivePayload } from "./interactive";
import { readTemplateMessage, templateObject } from "./template-send";
import type { ChannelTemplate } from "@openatende/plugin-sdk";

export interface OutboundTarget {
  graph: GraphClient;
  /** The recipient's wa_id (digits). */
  to: string;
  /** The bytes of a MediaRef (inline or the core's stored file); null when it has only a URL. */
  readMedia(media: MediaRef): Promise<Buffer | null>;
  /** A template's definition at Meta (its buttons' kinds), for template sends; null when Meta has none. */
  templateDefinition?(name: string, language: string): Promise<ChannelTemplate | null>;
  /** The plugin's error-code prefix (provider.ts). */
  codes: string;
}

type MediaType = "image" | "video" | "audio" | "document" | "sticker";

/** Which Cloud API message type carries a file of this type (WhatsApp's supported media types). */
export function mediaTypeFor(mimeType: string): { type: MediaType; caption: boolean } {
  const mime = mimeType.split(";")[0].trim().toLowerCase();
  if (mime === "image/webp") return { type: "sticker", caption: false };
  if (mime === "image/jpeg" || mime === "image/png") return { type: "image", caption: true };
  if (mime === "video/mp4" || mime === "video/3gpp") return { type: "video", caption: true };
  if (["audio/aac", "audio/mp4", "audio/mpeg", "audio/amr", "audio/ogg", "audio/opus"].includes(mime)) return { type: "audio", caption: false };
  return { type: "document", caption: true };
}

const base = (to: string) => ({ messaging_product: "whatsapp", recipient_type: "individual", to });
const context = (replyTo?: string) => (replyTo ? { context: { message_id: replyTo } } : {});

async function post(t: OutboundTarget, body: Record<string, unknown>): Promise<SendResult> {
  const res = await t.graph.call<{ messages?: Array<{ id?: string }> }>("POST", t.graph.profile.messagesPath, body);
  const id = res.messages?.[0]?.id;
  if (typeof id !== "string" || !id) throw new GraphError("the API answered no message id", 502, 0, "No message id");
  return { providerMessageId: id, timestamp: Date.now() };
}

/** The media object of a send: an uploaded file's id, or the URL Meta fetches. */
async function mediaObject(t: OutboundTarget, media: MediaRef, type: MediaType): Promise<Record<string, unknown>> {
  const data = await t.readMedia(media);
  if (!data) {
    if (media.url && /^https?:\/\//i.test(media.url)) return { link: media.url };
    throw new GraphError("the message's file has neither content nor address", 400, 0, "No file");
  }
  if (data.length > MEDIA_MAX_BYTES) throw new GraphError(`the file is larger than ${MEDIA_MAX_BYTES} bytes`, 413, 0, "File too large");
  const ext = media.mimeType.split("/")[1]?.split(";")[0] || "bin";
  const id = await t.graph.upload({ data, mimeType: media.mimeType.split(";")[0].trim(), fileName: media.fileName || `${type}.${ext}` });
  return { id };
}

export async function sendOutbound(t: OutboundTarget, message: OutboundMessage): Promise<SendResult> {
  switch (message.kind) {
    case "text":
      return post(t, { ...base(t.to), ...context(message.replyToProviderId), type: "text", text: { body: message.body, preview_url: /https?:\/\//i.test(message.body) } });
    case "media": {
      const { type, caption } = mediaTypeFor(message.media.mimeType);
      const obj = await mediaObject(t, message.media, type);
      const body = message.body?.trim() ? message.body : undefined;
      if (type === "document" && message.media.fileName) obj.filename = message.media.fileName;
      if (body && caption) obj.caption = body;
      const res = await post(t, { ...base(t.to), ...context(message.replyToProviderId), type, [type]: obj });
      // Audio and stickers take no caption: the text follows as a message of its own.
      if (body && !caption) await post(t, { ...base(t.to), type: "text", text: { body } });
      return res;
    }
    case "sticker": {
      const obj = await mediaObject(t, message.media, "sticker");
      return post(t, { ...base(t.to), ...context(message.replyToProviderId), type: "sticker", sticker: obj });
    }
    case "template": {
      // Checked before anything goes out: a wrong variable is the caller's 400, not Meta's 132000.
      const components = readTemplateMessage(message, t.codes);
      const template = await templateObject(message, components, {
        mediaObject: (media, type) => mediaObject(t, media, type),
        codes: t.codes,
        definition: () => (t.templateDefinition ? t.templateDefinition(message.name, message.language) : Promise.resolve(null)),
      });
      return post(t, { ...base(t.to), type: "template", template });
    }
    case "reaction":
      return post(t, { ...base(t.to), type: "reaction", reaction: { message_id: message.targetProviderId, emoji: message.emoji } });
    default:
      // checkOutbound already refused the kinds the manifest does not declare.
      throw new GraphError(`unsupported kind ${(message as { kind: string }).kind}`, 400, 0, "Unsupported kind");
  }
}

/** Interactive reply buttons or a list (only inside the 24-hour window: Meta answers 131047 outside it). */
export function sendInteractive(t: OutboundTarget, spec: InteractiveSpec, replyTo?: string): Promise<SendResult> {
  return post(t, { ...base(t.to), ...context(replyTo), type: "interactive", interactive: interactivePayload(spec, t.codes) });
}

/** Marks an inbound message read (the customer sees blue ticks; Meta marks the earlier ones too). */
export async function markRead(t: Pick<OutboundTarget, "graph">, providerMessageId: string): Promise<void> {
  await t.graph.call("POST", t.graph.profile.messagesPath, { messaging_product: "whatsapp", status: "read", message_id: providerMessageId });
}
