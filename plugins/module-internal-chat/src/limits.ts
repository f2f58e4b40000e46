/**
 * The internal chat's limits and the checks the UI shares with the server (src/rules.ts throws
 * on them): no imports, so the UI remote bundles it as is.
 */
/** A text message: 1 to 4000 characters after trimming. */
export const TEXT_MAX = 4000;
/** A chat file (image or audio): 10 MB (spec §4 "10MB each … in chat"). */
export const CHAT_FILE_MAX_BYTES = 10 * 1024 * 1024;
/** A group's photo: 5 MB and an image (spec §4 "group photo 5MB and image only"). */
export const GROUP_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** Audio shorter than this (the recorder's declared duration) is refused. */
export const AUDIO_MIN_MS = 1000;
/**
 * Audio smaller than this is refused whatever duration it declares: no recording of a second
 * fits in fewer bytes (a second of Opus at the recorders' lowest rate is ~1.5 KB plus its
 * container), so a smaller file is an empty or cut recording.
 */
export const AUDIO_MIN_BYTES = 1024;
export const IMAGE_URL_MAX = 2048;
export const GROUP_NAME_MAX = 100;
/** A group's members: at least 1; at most 1000 (what one realtime push may name). */
export const GROUP_USERS_MAX = 1000;
/** History pages: 30 messages by default, at most 100. */
export const PAGE_DEFAULT = 30;
export const PAGE_MAX = 100;

const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** What is wrong with an image URL (null: nothing): http(s) only, a host, no credentials, ≤ 2048. */
export function imageUrlProblem(raw: string): string | null {
  if (typeof raw !== "string" || !raw.trim() || raw.length > IMAGE_URL_MAX) return "length";
  if (/\s/.test(raw.trim())) return "spaces";
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return "syntax";
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") return "scheme";
  if (!u.hostname) return "host";
  if (u.username || u.password) return "credentials";
  return null;
}

/** The declared type without parameters, lower case ("audio/webm;codecs=opus" → "audio/webm"); "" when not a MIME type. */
export function baseMime(mimeType: string): string {
  const m = String(mimeType ?? "")
    .split(";")[0]
    .trim()
    .toLowerCase();
  return MIME.test(m) ? m : "";
}

/** A group's name: trimmed, 1 to 100 characters. */
export function groupNameProblem(name: string): "errGroupName" | "errGroupNameMax" | null {
  const n = (name ?? "").trim();
  if (!n) return "errGroupName";
  if (n.length > GROUP_NAME_MAX) return "errGroupNameMax";
  return null;
}

/** The key of a one-to-one conversation: both user ids, smaller first. */
export function pairKey(a: number, b: number): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}
