/**
 * What an SMS is made of: the recipient's number, and how many parts (credits) a text costs.
 * The SMS channel's sends, the SMS campaigns' credit check and their screen's counter share it
 * (pure: a plugin's UI imports it as "@openatende/plugin-sdk/src/sms-text").
 * Providers bill per part: 160 GSM-7 characters in one part, 153 per part once split; a text
 * with any character outside GSM-7 (most accents are in it, emoji are not) goes as UCS-2,
 * 70 in one part and 67 per part once split.
 */

/** GSM 03.38 basic character set. */
const GSM_BASIC = "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
/** GSM 03.38 extension table: each takes two septets. */
const GSM_EXTENDED = "^{}\\[~]|€\f";

/** The recipient as the providers take it: digits with the country code, or null. */
export function smsNumber(externalId: string): string | null {
  const trimmed = externalId.trim();
  if (!/^\+?[\d\s().-]+$/.test(trimmed)) return null;
  const digits = trimmed.replace(/\D/g, "");
  return digits.length >= 10 && digits.length <= 15 ? digits : null;
}

/** How many SMS parts (credits) `text` takes. */
export function smsParts(text: string): number {
  let septets = 0;
  let gsm = true;
  for (const ch of text) {
    if (GSM_BASIC.includes(ch)) septets += 1;
    else if (GSM_EXTENDED.includes(ch)) septets += 2;
    else {
      gsm = false;
      break;
    }
  }
  if (gsm) return septets <= 160 ? 1 : Math.ceil(septets / 153);
  const units = text.length; // UTF-16 code units: what UCS-2 counts
  return units <= 70 ? 1 : Math.ceil(units / 67);
}

/** Whether `text` goes as GSM-7 (160 characters in one part, 153 once split) rather than UCS-2 (70, 67). */
export function smsIsGsm7(text: string): boolean {
  for (const ch of text) if (!GSM_BASIC.includes(ch) && !GSM_EXTENDED.includes(ch)) return false;
  return true;
}
