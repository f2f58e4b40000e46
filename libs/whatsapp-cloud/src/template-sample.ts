/**
 * A media header's sample (IMAGE, VIDEO or DOCUMENT): Meta reviews a template with a sample
 * file of its header, uploaded first through the Resumable Upload API (template-api.ts) and
 * named by its handle in `example.header_handle`.
 *
 * The core's POST /templates carries JSON through the broker (one packet of about a megabyte
 * between nodes), and a sample may be 100 MB: so the screen sends a template with its sample
 * to the plugin's own route, `POST /<plugin id>/templates?connectionId=` (multipart: a
 * `template` part of JSON and a `file` part), a stream the gateway leaves unread. That action
 * checks the template like templateCreate, then the file (Meta's types and sizes, and that
 * its bytes are of that type), uploads it, and only then submits the template: a file that
 * fails or an upload that fails creates nothing.
 */
import { Errors, type Context } from "moleculer";
import { PluginError, readWebhookBody, TEMPLATE_HEADER_FILE_TYPES, WebhookBodyTooLarge, type TemplateCreateParams, type TemplateHeaderFormat } from "@openatende/plugin-sdk";
import type { FilePart } from "./graph";
import { codeOf } from "./provider";
import { SAMPLE_MB } from "./template-sample-limits";

const MB = 1024 * 1024;
/** Meta's largest file per media header, in bytes. */
export const SAMPLE_MAX_BYTES: Partial<Record<TemplateHeaderFormat, number>> = { IMAGE: SAMPLE_MB.IMAGE * MB, VIDEO: SAMPLE_MB.VIDEO * MB, DOCUMENT: SAMPLE_MB.DOCUMENT * MB };
/** The route's body: the largest sample and the form around it. */
export const SAMPLE_BODY_MAX = SAMPLE_MB.DOCUMENT * MB + 256 * 1024;

/** Whether the bytes begin as a file of `mimeType` does (a renamed file is refused here, not a day later in Meta's review). */
export function bytesAre(mimeType: string, data: Buffer): boolean {
  const at = (offset: number, hex: string) => data.subarray(offset, offset + hex.length / 2).toString("hex") === hex;
  switch (mimeType) {
    case "image/jpeg":
      return at(0, "ffd8ff");
    case "image/png":
      return at(0, "89504e470d0a1a0a");
    case "application/pdf":
      return at(0, "255044462d");
    case "video/mp4":
    case "video/3gpp":
      return data.subarray(4, 8).toString("latin1") === "ftyp";
    default:
      return false;
  }
}

/** The refusal of a sample that a header of `format` does not take, or null when it takes it. */
export function sampleProblem(codes: string, format: TemplateHeaderFormat, file: FilePart): PluginError | null {
  const types = TEMPLATE_HEADER_FILE_TYPES[format];
  if (!types) return new PluginError(codeOf(codes, "TEMPLATE_SAMPLE_TYPE"), 422, { field: "template.header.example", format, types: "—", got: file.mimeType });
  if (!types.includes(file.mimeType) || !bytesAre(file.mimeType, file.data)) {
    return new PluginError(codeOf(codes, "TEMPLATE_SAMPLE_TYPE"), 422, { field: "template.header.example", format, types: types.join(", "), got: file.mimeType || "?" });
  }
  const max = SAMPLE_MAX_BYTES[format]!;
  if (file.data.length > max) return new PluginError(codeOf(codes, "TEMPLATE_SAMPLE_TOO_LARGE"), 413, { field: "template.header.example", format, maxMb: max / MB, size: file.data.length });
  if (!file.data.length) return new PluginError(codeOf(codes, "TEMPLATE_SAMPLE_REQUIRED"), 400, { field: "template.header.example", format });
  return null;
}

export interface FormPart {
  name: string;
  fileName?: string;
  mimeType?: string;
  data: Buffer;
}

/** The parts of a multipart/form-data body; null when it is not one. */
export function multipartParts(body: Buffer, contentType: string | undefined): FormPart[] | null {
  const boundary = /^multipart\/form-data;.*\bboundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType ?? "");
  if (!boundary) return null;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: FormPart[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) return null;
  for (;;) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString("latin1") === "--") return parts;
    const next = body.indexOf(delimiter, start);
    if (next < 0) return null;
    // Each part: CRLF, its headers, a blank line, the content, CRLF before the next delimiter.
    const part = body.subarray(start + 2, next - 2);
    const split = part.indexOf("\r\n\r\n");
    if (split < 0) return null;
    const head = part.subarray(0, split).toString("utf8");
    const name = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(head)?.[1];
    if (name === undefined) return null;
    const fileName = /content-disposition:[^\r\n]*\bfilename="([^"]*)"/i.exec(head)?.[1];
    const mimeType = /^content-type:\s*([^\s;]+)/im.exec(head)?.[1]?.toLowerCase();
    parts.push({ name, ...(fileName !== undefined ? { fileName } : {}), ...(mimeType ? { mimeType } : {}), data: part.subarray(split + 4) });
    at = next;
  }
}

type Meta = { headers?: Record<string, string>; user?: { tenantId?: number }; $statusCode?: number };
type SampleCreate = (svc: any, p: TemplateCreateParams, sample: FilePart) => Promise<unknown>;

/**
 * The plugin's route for a template with its media header's sample (admins, PLUS, like the
 * core's POST /templates). `check` is the templateCreate params' validator; `create` submits.
 */
export function templateSampleActions(pluginId: string, codes: string, templateSchema: Record<string, unknown>, create: SampleCreate) {
  const invalid = (reason: string) => new PluginError(codeOf(codes, "TEMPLATE_INVALID"), 400, { field: "template", reason });
  return {
    templateCreateWithSample: {
      rest: { method: "POST" as const, path: `/${pluginId}/templates`, type: "stream" },
      access: "admin" as const,
      tier: "PLUS" as const,
      headers: ["content-type"],
      params: { connectionId: { type: "number", integer: true, positive: true, convert: true } },
      async handler(this: any, ctx: Context<{ connectionId: number }, Meta>) {
        const tenantId = ctx.meta.user?.tenantId;
        if (!tenantId) throw new Errors.MoleculerClientError("No session", 401, "ERR_SESSION_REQUIRED");
        let body: Buffer;
        try {
          body = await readWebhookBody((ctx as unknown as { stream?: AsyncIterable<unknown> }).stream, SAMPLE_BODY_MAX);
        } catch (err) {
          if (err instanceof WebhookBodyTooLarge) throw new PluginError(codeOf(codes, "TEMPLATE_SAMPLE_TOO_LARGE"), 413, { field: "template.header.example", format: "IMAGE/VIDEO/DOCUMENT", maxMb: SAMPLE_MB.DOCUMENT });
          throw err;
        }
        const parts = multipartParts(body, ctx.meta.headers?.["content-type"]);
        if (!parts) throw invalid("a multipart/form-data body with a template part and a file part");
        const json = parts.find((p) => p.name === "template" && p.fileName === undefined);
        let template: unknown;
        try {
          template = json ? JSON.parse(json.data.toString("utf8")) : undefined;
        } catch {
          template = undefined;
        }
        if (!template || typeof template !== "object") throw invalid("the template part is not a template's JSON");
        const check = (this.broker.validator as { compile(s: unknown): (v: unknown) => true | unknown[] }).compile({ template: templateSchema });
        const checked = check({ template });
        if (checked !== true) throw new Errors.ValidationError("Parameters validation error!", "VALIDATION_ERROR", checked as never);
        const file = parts.find((p) => p.name === "file" && p.fileName !== undefined);
        const format = (template as TemplateCreateParams["template"]).header?.format ?? "TEXT";
        if (!file) throw new PluginError(codeOf(codes, "TEMPLATE_SAMPLE_REQUIRED"), 400, { field: "template.header.example", format });
        const sample: FilePart = { data: file.data, mimeType: file.mimeType ?? "application/octet-stream", fileName: (file.fileName || "sample").slice(0, 200) };
        const res = await create(this, { tenantId, connectionId: ctx.params.connectionId, template: template as TemplateCreateParams["template"] }, sample);
        ctx.meta.$statusCode = 201;
        return res;
      },
    },
  };
}
