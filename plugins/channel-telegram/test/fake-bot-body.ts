/**
 * How the fake Bot API (fake-bot-api.ts) reads a request's body as Telegram does: JSON, a
 * form, or multipart with the uploaded files kept whole.
 */
import type * as http from "node:http";

export interface UploadedPart {
  filename: string;
  data: Buffer;
}

export function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** multipart/form-data → fields (JSON-looking values parsed) and file parts. */
export function parseMultipart(body: Buffer, boundary: string): { fields: Record<string, unknown>; files: Record<string, UploadedPart> } {
  const fields: Record<string, unknown> = {};
  const files: Record<string, UploadedPart> = {};
  const delimiter = Buffer.from(`--${boundary}`);
  let pos = body.indexOf(delimiter);
  while (pos !== -1) {
    const start = pos + delimiter.length;
    if (body.slice(start, start + 2).toString() === "--") break;
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    // Part = CRLF headers CRLF CRLF content CRLF
    const part = body.slice(start + 2, next - 2);
    const sep = part.indexOf("\r\n\r\n");
    const head = part.slice(0, sep).toString("utf8");
    const content = part.slice(sep + 4);
    const disposition = /content-disposition:\s*form-data;([^\r\n]*)/i.exec(head)?.[1] ?? "";
    const name = /name="([^"]*)"/.exec(disposition)?.[1];
    const filename = /filename="([^"]*)"/.exec(disposition)?.[1];
    if (name !== undefined) {
      if (filename !== undefined) files[name] = { filename, data: Buffer.from(content) };
      else fields[name] = parseValue(content.toString("utf8"));
    }
    pos = next;
  }
  return { fields, files };
}

export function parseValue(v: string): unknown {
  if (/^[[{]/.test(v)) {
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  }
  return v;
}

