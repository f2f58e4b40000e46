import { Errors } from "moleculer";
import { ERROR_CODES, ErrorCode, isErrorCode } from "./codes";

/**
 * The one business error of the platform. Handlers throw it with a catalogue code; the
 * gateway turns it into `{ error, message, data }` with the code's HTTP status. Its
 * Moleculer `type` is the catalogue code and its `code` the HTTP status, so it survives the
 * transporter between nodes unchanged.
 */
export class AppError extends Errors.MoleculerClientError {
  constructor(code: ErrorCode, data: Record<string, unknown> = {}, message?: string) {
    super(message ?? code, ERROR_CODES[code], code, data);
    this.name = "AppError";
  }
}

export const notFound = (code: ErrorCode = "ERR_NOT_FOUND", data: Record<string, unknown> = {}) => new AppError(code, data);
export const forbidden = (data: Record<string, unknown> = {}) => new AppError("ERR_NO_PERMISSION", data);
export const invalid = (field: string, rule = "any", extra: Record<string, unknown> = {}) =>
  new AppError("ERR_VALIDATION", { field, rule, ...extra });

/** Reads the catalogue code of any error that crossed the broker (AppError or a plain MoleculerError). */
export function errorCodeOf(err: unknown): ErrorCode | undefined {
  const type = (err as { type?: unknown } | null)?.type;
  return isErrorCode(type) ? type : undefined;
}
