/**
 * The message side's entry points (see ../ports.ts): what Baileys' messages and acks mean for
 * the core, and what the core's sends mean for Baileys.
 */
export { normaliseMessage, SKIP_DECRYPTION_FAILED } from "./inbound";
export { acksFromUpdates, acksFromReceipts, ackStatusOf } from "./acks";
export { buildSend, readReceipt, sendAsFor, targetJid } from "./outbound";
export { historyVerdict, dayOf, type HistoryVerdict } from "./history";
export { externalIdOf, jidOfExternalId, phoneDigitsOf, isMe, secondsToMs } from "./jids";
export { WhatsAppClientError, waError, WA_ERRORS, type WaErrorCode } from "./errors";
