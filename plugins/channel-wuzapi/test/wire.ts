/**
 * How wuzapi (Go) puts things on the wire, for the fake server: JSON as encoding/json writes
 * it (map keys sorted, "<", ">", "&" and U+2028/9 escaped), form bodies as url.Values.Encode
 * (keys sorted, values query-escaped with "+" for spaces), the x-hmac-signature of a body, and
 * QR codes as the data:image/png URLs wuzapi stores (a small PNG made here per QR round).
 */
import { createHmac } from "node:crypto";
import * as zlib from "node:zlib";

/** encoding/json of a map[string]interface{}: top-level keys sorted, nested objects as given (structs keep field order). */
export function goJson(value: Record<string, unknown>): string {
  const sorted = Object.fromEntries(Object.keys(value).sort().map((k) => [k, value[k]]));
  return JSON.stringify(sorted).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Go's url.QueryEscape: everything but A-Z a-z 0-9 - _ . ~ escaped, spaces as "+". */
export function goQueryEscape(s: string): string {
  let out = "";
  for (const byte of Buffer.from(s, "utf8")) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.~]/.test(c)) out += c;
    else if (c === " ") out += "+";
    else out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** url.Values{…}.Encode(): sorted by key. */
export function goFormEncode(fields: Record<string, string>): string {
  return Object.keys(fields)
    .sort()
    .map((k) => `${goQueryEscape(k)}=${goQueryEscape(fields[k])}`)
    .join("&");
}

export function hmacHex(body: string | Buffer, key: string): string {
  return createHmac("sha256", key).update(body).digest("hex");
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(td) >>> 0);
  return Buffer.concat([len, td, crc]);
}

/** A black-and-white 25×25 PNG whose squares follow `seed` (a stand-in for the QR image wuzapi renders). */
export function qrPng(seed: string): Buffer {
  const size = 25;
  const bits = createHmac("sha256", "qr").update(seed).digest();
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(size + 1);
    for (let x = 0; x < size; x++) {
      const i = y * size + x;
      row[x + 1] = (bits[i % bits.length] >> (i % 8)) & 1 ? 0 : 255;
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", zlib.deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

export function qrDataUrl(seed: string): string {
  return `data:image/png;base64,${qrPng(seed).toString("base64")}`;
}
