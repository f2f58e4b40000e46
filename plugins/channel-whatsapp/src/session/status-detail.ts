/**
 * The `detail` of every status this plugin reports starts with a key in brackets, then an
 * English sentence for logs: "[logged-out] Unlinked on the phone (401 …): scan a new QR code".
 * The connection form maps the key to its own texts in four languages and shows the sentence
 * only as a technical note; the keys are the contract with the form, the sentences are not.
 */
export const DETAIL_KEYS = [
  /** connected: the account's number ("[connected] 5511999990000"). */
  "connected",
  /** connecting: a socket is being opened. */
  "connecting",
  /** timeout: the connection dropped; the next attempt is scheduled ("… in 8 s"). */
  "reconnecting",
  /** timeout: nothing came back while connecting; the socket was ended and is built again. */
  "stuck-connecting",
  /** connecting: the socket stayed open but silent; it was ended and is built again. */
  "deaf",
  /** qrcode: a QR code to scan (round n of max). */
  "qr",
  /** disconnected: the QR codes ran out unscanned; waits for the user (connect or reset). */
  "qr-expired",
  /** pairing: a pairing code to type on the phone; the code follows the key ("[pairing-code] ABCD-EFGH …"). */
  "pairing-code",
  /** pairing: the phone accepted the link; the session restarts once and opens. */
  "linking",
  /** disconnected: unlinked on the phone (401); the session was wiped. */
  "logged-out",
  /** disconnected: WhatsApp refuses the account (403); the session was wiped. */
  "banned",
  /** conflict: the same session is open elsewhere (440). */
  "conflict",
  /** disconnected: WhatsApp refused this client's version (405). */
  "wa-version",
  /** qrcode/connecting: the phone asked for the device to be linked again (411); the session was wiped. */
  "repair",
  /** disconnected: stopped by the user (disconnect) or by the plugin's shutdown. */
  "stopped",
  /** disconnected: the connection's settings are not usable. */
  "settings",
  /** timeout: the session's stored state could not be read; tried again after the backoff. */
  "storage",
] as const;
export type DetailKey = (typeof DETAIL_KEYS)[number];

export function detail(key: DetailKey, text?: string): string {
  return text ? `[${key}] ${text}` : `[${key}]`;
}

/** The key and sentence of a detail written by `detail`, or null for anything else. */
export function parseDetail(d: string | undefined): { key: DetailKey; text: string } | null {
  const m = /^\[([a-z-]+)\](?: (.*))?$/s.exec(d ?? "");
  if (!m || !(DETAIL_KEYS as readonly string[]).includes(m[1])) return null;
  return { key: m[1] as DetailKey, text: m[2] ?? "" };
}
