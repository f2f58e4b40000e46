import { ERROR_CODES, ErrorCode, isErrorCode } from "../errors/codes";
import { Locale, interpolate, translateError, validationMessage } from "../errors/catalogue";
import { pluginError } from "../errors/plugin-codes";

export interface HttpErrorBody {
  error: ErrorCode;
  message: string;
  title: string;
  data: Record<string, unknown>;
}

interface AnyErr {
  name?: string;
  message?: string;
  code?: unknown;
  status?: unknown;
  type?: unknown;
  data?: unknown;
}

/** Moleculer / moleculer-web / body-parser error types that are the client's doing. */
const TYPE_MAP: Record<string, ErrorCode> = {
  NOT_FOUND: "ERR_ROUTE_NOT_FOUND",
  SERVICE_NOT_FOUND: "ERR_ROUTE_NOT_FOUND",
  SERVICE_NOT_AVAILABLE: "ERR_SERVICE_UNAVAILABLE",
  REQUEST_TIMEOUT: "ERR_REQUEST_TIMEOUT",
  RATE_LIMIT: "ERR_RATE_LIMITED",
  INVALID_REQUEST_BODY: "ERR_INVALID_JSON",
  UNSUPPORTED_MEDIA_TYPE: "ERR_UNSUPPORTED_MEDIA_TYPE",
  NO_TOKEN: "ERR_SESSION_REQUIRED",
  INVALID_TOKEN: "ERR_TOKEN_INVALID",
  "entity.too.large": "ERR_PAYLOAD_TOO_LARGE",
  "entity.parse.failed": "ERR_INVALID_JSON",
  "entity.verify.failed": "ERR_INVALID_JSON",
  "request.aborted": "ERR_INVALID_JSON",
  "request.size.invalid": "ERR_INVALID_JSON",
  "encoding.unsupported": "ERR_UNSUPPORTED_MEDIA_TYPE",
  "charset.unsupported": "ERR_UNSUPPORTED_MEDIA_TYPE",
  "parameters.too.many": "ERR_PAYLOAD_TOO_LARGE",
  "stream.encoding.set": "ERR_INTERNAL",
};

/**
 * The one mapping from any error to the API's shape:
 * HTTP status + `{ error: "ERR_…", message, title, data }`, texts in the caller's language.
 */
export function toHttpError(err: unknown, locale: Locale): { status: number; body: HttpErrorBody; internal: boolean } {
  const e = (err ?? {}) as AnyErr;
  const own = pluginError(e.type);
  if (own) {
    // A plugin's code (its manifest's platform.errors): its status and texts.
    const data = e.data && typeof e.data === "object" && !Array.isArray(e.data) ? { ...(e.data as Record<string, unknown>) } : {};
    const t = own[locale] ?? own["pt-BR"];
    return { status: own.status, body: { error: e.type as ErrorCode, message: interpolate(t.detail, data), title: interpolate(t.title, data), data }, internal: false };
  }
  let code: ErrorCode;
  let data: Record<string, unknown> = {};

  if (isErrorCode(e.type)) {
    code = e.type;
    data = e.data && typeof e.data === "object" && !Array.isArray(e.data) ? { ...(e.data as Record<string, unknown>) } : {};
  } else if (e.type === "VALIDATION_ERROR" && Array.isArray(e.data)) {
    code = "ERR_VALIDATION";
    const list = (e.data as Array<{ type?: string; field?: string; expected?: unknown; actual?: unknown }>).map((x) => ({
      field: x.field,
      rule: x.type,
      expected: x.expected,
    }));
    const first = list[0] ?? {};
    data = { field: first.field, rule: first.rule, errors: list };
  } else if (typeof e.type === "string" && TYPE_MAP[e.type]) {
    code = TYPE_MAP[e.type];
    if (code === "ERR_PAYLOAD_TOO_LARGE") data = { maxSize: "50 MB" };
  } else {
    const status = Number(e.code ?? e.status);
    if (status === 404) code = "ERR_ROUTE_NOT_FOUND";
    else if (status === 413) code = "ERR_PAYLOAD_TOO_LARGE";
    else if (status === 415) code = "ERR_UNSUPPORTED_MEDIA_TYPE";
    else if (status === 429) code = "ERR_RATE_LIMITED";
    else if (status === 401) code = "ERR_TOKEN_INVALID";
    else if (status === 403) code = "ERR_NO_PERMISSION";
    else if (status === 400 || status === 422) code = "ERR_VALIDATION";
    else code = "ERR_INTERNAL";
  }

  const text = translateError(code, locale, data);
  let message = text.detail;
  if (code === "ERR_VALIDATION" && typeof data.field === "string") {
    message = validationMessage(String(data.rule ?? "any"), locale, { field: data.field, expected: (data.errors as Array<{ expected?: unknown }>)?.[0]?.expected });
  }
  return {
    status: ERROR_CODES[code],
    body: { error: code, message, title: text.title, data },
    internal: code === "ERR_INTERNAL",
  };
}
