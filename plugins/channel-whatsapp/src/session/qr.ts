/** The QR text Baileys emits, as the PNG data URL the connection screen shows (the core stores it as the connection's qrcode). */
interface QrCodeLib {
  toDataURL(text: string, opts?: { errorCorrectionLevel?: "L" | "M" | "Q" | "H"; margin?: number; width?: number }): Promise<string>;
}

export function qrDataUrl(text: string): Promise<string> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const lib = require("qrcode") as QrCodeLib;
  return lib.toDataURL(text, { errorCorrectionLevel: "M", margin: 1, width: 288 });
}
