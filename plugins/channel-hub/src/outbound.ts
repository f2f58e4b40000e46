/**
 * The contract's outbound messages as the hub's `contents` (INTEGRATIONS.md §2.3):
 * text `{ type: "text", text }`; a file `{ type: "file", fileUrl, fileMimeType, fileCaption? }`
 * with the hub's simplified MIME ("image", "video", "audio", "document"; Telegram images
 * "photo"); e-mail `{ type: "email", subject, html }`. The hub fetches files itself, so a file
 * goes by an address it can reach (see media-link.ts for files stored in the core).
 *
 * Who may receive, per variant: phone digits for WhatsApp and Telegram-by-phone, an e-mail
 * address for e-mail, the page/IG-scoped id, question id or chat id the hub gave us otherwise.
 */
import type { OutboundMessage } from "@openatende/plugin-sdk";
import type { HubContent } from "./client";
import type { HubSettings, HubVariant } from "./settings";

const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;
const ID = /^[^\s]{1,255}$/;

/** The recipient as the hub wants it, or null when it is not one for this variant. */
export function recipientFor(variant: HubVariant, externalId: string): string | null {
  const v = externalId.trim();
  if (variant === "email") return EMAIL.test(v) && v.length <= 255 ? v : null;
  if (variant === "whatsapp") {
    const digits = v.replace(/@.*$/, "").replace(/[\s()+.-]/g, "");
    return /^\d{8,15}$/.test(digits) ? digits : null;
  }
  return ID.test(v) ? v : null;
}

/** The hub's simplified file type of a MIME type, for this variant. */
export function hubFileType(variant: HubVariant, mimeType: string): string {
  const mime = mimeType.split(";")[0].trim().toLowerCase();
  if (mime.startsWith("image/")) return variant === "telegram" ? "photo" : "image";
  if (mime.startsWith("video/")) return "video";
  if (mime.startsWith("audio/")) return "audio";
  return "document";
}

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const htmlOf = (text: string) => escapeHtml(text).replace(/\r?\n/g, "<br>");

/**
 * The contents of one send. `fileUrl` is the address the hub fetches the file from (null for
 * text). An e-mail carries its file as an attachment; other channels send the file with the
 * text as its caption.
 */
export function contentsFor(settings: Pick<HubSettings, "variant" | "emailSubject">, message: OutboundMessage, fileUrl: string | null): HubContent[] {
  const { variant } = settings;
  const text = message.kind === "text" ? message.body : message.kind === "media" ? (message.body ?? "").trim() : "";
  if (variant === "email") {
    const email: HubContent = { type: "email", subject: settings.emailSubject, html: htmlOf(text) };
    if (message.kind === "media" && fileUrl) email.attachments = [{ fileUrl, fileMimeType: message.media.mimeType, fileName: message.media.fileName ?? "file" }];
    return [email];
  }
  if (message.kind === "media" && fileUrl) {
    const file: HubContent = { type: "file", fileUrl, fileMimeType: hubFileType(variant, message.media.mimeType) };
    if (message.media.fileName) file.fileName = message.media.fileName;
    if (text) file.fileCaption = text;
    return [file];
  }
  return [{ type: "text", text }];
}
