/**
 * The contract's outbound messages as wuzapi calls (handlers.go: SendMessage, SendImage,
 * SendVideo, SendAudio, SendDocument, SendSticker, React, DeleteMessage). Files go as base64
 * data URLs, with the prefixes wuzapi checks: `data:image…`, `data:audio/ogg…` (WhatsApp plays
 * Opus only), `data:application/octet-stream…` for documents. The sticker kind, and a WebP
 * sent as media, go through SendSticker.
 *
 * Every new message carries an `Id` chosen here (see ids.ts): the same core message always
 * gets the same WhatsApp id, so a send repeated after a lost answer is the same message for
 * WhatsApp too.
 */
import type { MediaRef, OutboundMessage, SendResult } from "@openatende/plugin-sdk";
import type { WuzapiClient } from "./client";

/** Spec §9: a chat file is at most 10 MB. */
export const FILE_MAX_BYTES = 10 * 1024 * 1024;

export interface OutboundTarget {
  client: WuzapiClient;
  /** The recipient's JID (contact or group). */
  to: string;
  /** The bytes of a MediaRef (inline or the core's stored file); null when it has only a URL. */
  readMedia(media: MediaRef): Promise<Buffer | null>;
  /** The WhatsApp id of this send's part ("" the message, "caption" a text sent after a file). */
  idFor(part: string): string;
  /** Who wrote a message: "me", a JID, or null when unknown. */
  authorOf(providerMessageId: string): Promise<string | null>;
  /** The account's own JID, when known. */
  ownJid?: string;
}

export class OutboundError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly type: string,
  ) {
    super(message);
    this.name = "OutboundError";
  }
}

type Route = { path: string; field: string; prefix: (mime: string) => string; caption: boolean };

/** Which wuzapi call sends a file of this type. */
export function routeFor(mimeType: string): Route {
  const mime = mimeType.split(";")[0].trim().toLowerCase();
  if (mime === "image/jpeg" || mime === "image/png") return { path: "/chat/send/image", field: "Image", prefix: () => mime, caption: true };
  if (mime === "image/webp") return { path: "/chat/send/sticker", field: "Sticker", prefix: () => mime, caption: false };
  if (mime === "video/mp4" || mime === "video/3gpp") return { path: "/chat/send/video", field: "Video", prefix: () => mime, caption: true };
  if (mime === "audio/ogg" || mime === "audio/opus") return { path: "/chat/send/audio", field: "Audio", prefix: () => "audio/ogg", caption: false };
  return { path: "/chat/send/document", field: "Document", prefix: () => "application/octet-stream", caption: true };
}

async function bytesOf(t: OutboundTarget, media: MediaRef): Promise<Buffer> {
  let data = await t.readMedia(media);
  if (!data && media.url) {
    const res = await fetch(media.url, { signal: AbortSignal.timeout(30_000) }).catch((err: Error) => {
      throw new OutboundError(`the file ${media.fileName ?? media.url} could not be fetched: ${err.message}`, 502, "ERR_MEDIA_DOWNLOAD_FAILED");
    });
    if (!res.ok) throw new OutboundError(`the file ${media.fileName ?? media.url} could not be fetched (${res.status})`, 502, "ERR_MEDIA_DOWNLOAD_FAILED");
    const declared = Number(res.headers.get("content-length") ?? 0);
    if (declared > FILE_MAX_BYTES) throw new OutboundError(`the file is larger than 10 MB`, 413, "ERR_MEDIA_TOO_LARGE");
    data = Buffer.from(await res.arrayBuffer());
  }
  if (!data) throw new OutboundError("the message's file has neither content nor address", 400, "ERR_NO_FILE_UPLOADED");
  if (data.length > FILE_MAX_BYTES) throw new OutboundError("the file is larger than 10 MB", 413, "ERR_MEDIA_TOO_LARGE");
  return data;
}

/** wuzapi's ContextInfo of a reply: the quoted message and who wrote it (required together). */
async function contextOf(t: OutboundTarget, replyTo: string | undefined): Promise<Record<string, unknown>> {
  if (!replyTo) return {};
  const author = await t.authorOf(replyTo);
  const participant = author === "me" ? (t.ownJid ?? t.to) : (author ?? t.to);
  return { ContextInfo: { StanzaId: replyTo, Participant: participant } };
}

const sent = (id: string, timestamp: number): SendResult => ({ providerMessageId: id, timestamp });

export async function sendOutbound(t: OutboundTarget, message: OutboundMessage): Promise<SendResult> {
  switch (message.kind) {
    case "text": {
      const r = await t.client.send("/chat/send/text", { Phone: t.to, Body: message.body, Id: t.idFor(""), ...(await contextOf(t, message.replyToProviderId)) });
      return sent(r.id, r.timestamp);
    }
    case "media": {
      const data = await bytesOf(t, message.media);
      const route = routeFor(message.media.mimeType);
      const body = message.body?.trim() ? message.body : undefined;
      const fileName = message.media.fileName || `file.${message.media.mimeType.split("/")[1]?.split(";")[0] || "bin"}`;
      const payload: Record<string, unknown> = {
        Phone: t.to,
        [route.field]: `data:${route.prefix(message.media.mimeType)};base64,${data.toString("base64")}`,
        Id: t.idFor(""),
        ...(route.field === "Document" ? { FileName: fileName, MimeType: message.media.mimeType } : {}),
        ...(body && route.caption ? { Caption: body } : {}),
        ...(await contextOf(t, message.replyToProviderId)),
      };
      const r = await t.client.send(route.path, payload, 120_000);
      // Stickers and voice notes take no caption: the text follows as its own message.
      if (body && !route.caption) await t.client.send("/chat/send/text", { Phone: t.to, Body: body, Id: t.idFor("caption") });
      return sent(r.id, r.timestamp);
    }
    case "sticker": {
      // The contract's sticker is a WebP: wuzapi's SendSticker takes it as a data URL (no caption).
      const data = await bytesOf(t, message.media);
      const r = await t.client.send(
        "/chat/send/sticker",
        { Phone: t.to, Sticker: `data:image/webp;base64,${data.toString("base64")}`, Id: t.idFor(""), ...(await contextOf(t, message.replyToProviderId)) },
        120_000,
      );
      return sent(r.id, r.timestamp);
    }
    case "reaction": {
      const mine = (await t.authorOf(message.targetProviderId)) === "me";
      await t.client.send("/chat/react", { Phone: t.to, Body: message.emoji, Id: `${mine ? "me:" : ""}${message.targetProviderId}` });
      return sent(message.targetProviderId, Date.now());
    }
    case "delete": {
      await t.client.send("/chat/delete", { Phone: t.to, Id: message.targetProviderId });
      return sent(message.targetProviderId, Date.now());
    }
    default:
      // checkOutbound already refused the kinds the manifest does not declare.
      throw new OutboundError(`unsupported kind ${(message as { kind: string }).kind}`, 400, "ERR_CHANNEL_UNSUPPORTED");
  }
}
