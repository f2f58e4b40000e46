/**
 * The core's outbound messages as Baileys' sendMessage arguments. This file only builds the
 * payload; the session side owns the socket, the per-session send queue and its pacing, and
 * the outbox that holds sends while the session is down.
 *
 *   text      { text }                      + options.quoted for a reply
 *   media     { image|video|document, caption } / { audio, ptt } / { sticker } by mimetype
 *   sticker   { sticker, mimetype: image/webp } + options.quoted for a reply
 *   reaction  { react: { text, key } }      "" takes the reaction away
 *   edit      { text, edit: key }
 *   delete    { delete: key }               for everyone (the core checks the 5-minute rule)
 *
 * A reply whose quoted message this plugin no longer knows goes out without the quote rather
 * than not at all; a reaction, edit or deletion of an unknown message is refused
 * (ERR_MESSAGE_NOT_FOUND): there is nothing to send it about.
 */
import type { AnyMessageContent, MiscMessageGenerationOptions, WAMessage, WAMessageKey } from "@whiskeysockets/baileys";
import { baileys } from "../session/baileys";
import { ChannelUnsupportedError, MEDIA_MAX_BYTES, type MediaRef } from "@openatende/plugin-sdk";
import type { BuildSend, BuiltSend, MessageKeyStore, SessionPort } from "../ports";
import { baseMime } from "./content";
import { waError } from "./errors";
import { jidOfExternalId } from "./jids";

export type SendAs = "image" | "video" | "audio" | "voice" | "document" | "sticker";

/** How a file goes out, by its type: what WhatsApp shows inline, the rest as a document. */
export function sendAsFor(mimeType: string): SendAs {
  const full = (mimeType ?? "").toLowerCase();
  const m = baseMime(full, "application/octet-stream");
  if (m === "image/jpeg" || m === "image/jpg" || m === "image/png") return "image";
  if (m === "image/webp") return "sticker";
  if (m === "video/mp4" || m === "video/3gpp") return "video";
  if (m === "audio/ogg" || m === "audio/opus") return "voice";
  if (m === "audio/mpeg" || m === "audio/mp4" || m === "audio/aac" || m === "audio/amr" || m === "audio/x-m4a") return "audio";
  return "document";
}

/** The JID of a contact's identity; ERR_CONTACT_NUMBER_INVALID when it names no one. */
export function targetJid(externalId: string): string {
  const jid = jidOfExternalId(externalId);
  if (!jid) throw waError("ERR_CONTACT_NUMBER_INVALID", `"${externalId}" is not a WhatsApp number or id`, { field: "to.externalId", value: externalId });
  return jid;
}

/** The key a change is about; ERR_MESSAGE_NOT_FOUND when this plugin never saw that message. */
async function keyFor(keys: MessageKeyStore, providerId: string, kind: string): Promise<WAMessageKey> {
  const key = await keys.keyOf(providerId);
  if (!key?.id || !key.remoteJid) throw waError("ERR_MESSAGE_NOT_FOUND", `The WhatsApp message "${providerId}" is not known to this connection, so it cannot take a ${kind}`, { field: "message.targetProviderId", providerMessageId: providerId });
  // Only the protocol's fields: extras of a stored 7.x key (alt JIDs, addressing) are no part of it.
  return { remoteJid: key.remoteJid, fromMe: !!key.fromMe, id: key.id, ...(key.participant ? { participant: key.participant } : {}) };
}

/** The quoted message of a reply, or nothing when it is not known (the reply goes out unquoted). */
async function quotedFor(keys: MessageKeyStore, providerId: string | undefined): Promise<MiscMessageGenerationOptions | undefined> {
  if (!providerId) return undefined;
  const [key, message] = await Promise.all([keys.keyOf(providerId), keys.messageOf(providerId)]);
  // Baileys builds the quote from the message's content: without it there is nothing to quote.
  if (!key?.id || !message) return undefined;
  const quoted: WAMessage = { key, message };
  return { quoted };
}

const MB = 1024 * 1024;

async function fileOf(media: MediaRef, readMedia: (m: MediaRef) => Promise<Buffer>, max: number): Promise<Buffer> {
  const tooLarge = (size: number) =>
    waError("ERR_MEDIA_TOO_LARGE", `The file is ${Math.ceil(size / MB)} MB; WhatsApp files may be at most ${max / MB} MB`, { field: "message.media", size, max });
  if (typeof media.size === "number" && media.size > max) throw tooLarge(media.size);
  let data: Buffer;
  try {
    data = await readMedia(media);
  } catch (err) {
    if ((err as { code?: unknown }).code === 413) throw tooLarge(media.size ?? max + 1);
    throw err;
  }
  if (data.length > max) throw tooLarge(data.length);
  return data;
}

function mediaContent(data: Buffer, media: MediaRef, caption: string | undefined): { content: AnyMessageContent; captionAfter?: string } {
  const as = sendAsFor(media.mimeType);
  const mimetype = baseMime(media.mimeType, "application/octet-stream");
  switch (as) {
    case "image":
      return { content: { image: data, mimetype, ...(caption ? { caption } : {}) } };
    case "video":
      return { content: { video: data, mimetype, ...(caption ? { caption } : {}) } };
    case "voice":
      // WhatsApp plays a voice note only when it is declared as Opus in Ogg.
      return { content: { audio: data, mimetype: "audio/ogg; codecs=opus", ptt: true }, captionAfter: caption };
    case "audio":
      return { content: { audio: data, mimetype, ptt: false }, captionAfter: caption };
    case "sticker":
      return { content: { sticker: data, mimetype: "image/webp" }, captionAfter: caption };
    default:
      return { content: { document: data, mimetype, fileName: media.fileName || "file", ...(caption ? { caption } : {}) } };
  }
}

export const buildSend: BuildSend = async (_session, keys, to, message, readMedia) => {
  switch (message.kind) {
    case "text": {
      const jid = targetJid(to);
      const options = await quotedFor(keys, message.replyToProviderId);
      return { jid, content: { text: message.body }, ...(options ? { options } : {}) };
    }
    case "media": {
      const jid = targetJid(to);
      const data = await fileOf(message.media, readMedia, MEDIA_MAX_BYTES);
      const caption = message.body?.trim() ? message.body : undefined;
      const { content, captionAfter } = mediaContent(data, message.media, caption);
      const options = await quotedFor(keys, message.replyToProviderId);
      const built: BuiltSend = { jid, content, ...(options ? { options } : {}) };
      if (captionAfter) built.followUps = [{ text: captionAfter }];
      return built;
    }
    case "sticker": {
      const jid = targetJid(to);
      const data = await fileOf(message.media, readMedia, MEDIA_MAX_BYTES);
      const options = await quotedFor(keys, message.replyToProviderId);
      return { jid, content: { sticker: data, mimetype: "image/webp" }, ...(options ? { options } : {}) };
    }
    case "reaction": {
      const key = await keyFor(keys, message.targetProviderId, "reaction");
      return { jid: baileys().jidNormalizedUser(key.remoteJid!), content: { react: { text: message.emoji ?? "", key } } };
    }
    case "edit": {
      const key = await keyFor(keys, message.targetProviderId, "edit");
      if (!key.fromMe) throw waError("ERR_MESSAGE_EDIT_NOT_ALLOWED", "Only messages this account sent can be edited", { providerMessageId: message.targetProviderId });
      return { jid: baileys().jidNormalizedUser(key.remoteJid!), content: { text: message.body, edit: key } };
    }
    case "delete": {
      const key = await keyFor(keys, message.targetProviderId, "deletion");
      return { jid: baileys().jidNormalizedUser(key.remoteJid!), content: { delete: key } };
    }
    default:
      throw new ChannelUnsupportedError((message as { kind: string }).kind, { supported: ["text", "media", "sticker", "reaction", "edit", "delete"] });
  }
};

/**
 * Marks received messages read on WhatsApp (the blue ticks the customer sees). Messages this
 * plugin does not know, and the account's own, are left out and named in `unknown`/ignored.
 */
export async function readReceipt(session: SessionPort, keys: MessageKeyStore, providerIds: string[]): Promise<{ read: string[]; unknown: string[] }> {
  const read: string[] = [];
  const unknown: string[] = [];
  const found: WAMessageKey[] = [];
  for (const id of [...new Set(providerIds)]) {
    const key = await keys.keyOf(id);
    if (!key?.id || !key.remoteJid) unknown.push(id);
    else if (!key.fromMe) {
      found.push({ remoteJid: key.remoteJid, id: key.id, fromMe: false, ...(key.participant ? { participant: key.participant } : {}) });
      read.push(id);
    }
  }
  if (found.length) await session.readMessages(found);
  return { read, unknown };
}
