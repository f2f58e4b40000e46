/**
 * The WhatsApp message id of a send, derived from the core's message id.
 *
 * Why both this and the sent log (store.ts): the log answers a repeated send whose first
 * answer was recorded; but a send can reach WhatsApp and lose its answer before the log is
 * written (a timeout, the process killed). Repeated with the same id, it is the same message
 * for WhatsApp: wuzapi passes the id to whatsmeow (SendRequestExtra.ID) and the recipient's
 * devices keep one message per id. Ids look like whatsmeow's own ("3EB0" + 20 hex).
 */
import { createHmac, randomBytes } from "node:crypto";

export function messageIdFor(connectionKey: string, messageId: number | undefined, part = ""): string | undefined {
  if (messageId === undefined) return undefined;
  const h = createHmac("sha256", connectionKey).update(`openatende:wuzapi:${messageId}:${part}`).digest("hex").toUpperCase();
  return `3EB0${h.slice(0, 20)}`;
}

/** A random id in the same shape, for sends the core gave no message id. */
export function randomMessageId(): string {
  return `3EB0${randomBytes(10).toString("hex").toUpperCase()}`;
}
