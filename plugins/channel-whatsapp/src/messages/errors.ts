/**
 * Client errors with catalogue codes (core/src/errors/codes.ts), thrown the way the core's own
 * AppError is: a MoleculerClientError whose `type` is the code and whose `code` is the HTTP
 * status, so it crosses the transporter unchanged and the gateway answers it as the core's.
 */
import { Errors } from "moleculer";

/** The catalogue codes this plugin answers, with their HTTP status (as in the core's catalogue). */
export const WA_ERRORS = {
  ERR_VALIDATION: 400,
  ERR_MEDIA_TOO_LARGE: 413,
  ERR_INVALID_IMAGE_FORMAT: 400,
  ERR_REQUIRED_CONTACT: 400,
  ERR_CONTACT_NUMBER_INVALID: 400,
  ERR_MESSAGE_NOT_FOUND: 404,
  ERR_MESSAGE_EDIT_NOT_ALLOWED: 409,
  /** Spec §5 Group: at most 1,023 participants; a photo of at most 5 MB. */
  ERR_GROUP_PARTICIPANT_LIMIT: 400,
  ERR_GROUP_PICTURE_TOO_LARGE: 413,
} as const;

export type WaErrorCode = keyof typeof WA_ERRORS;

export class WhatsAppClientError extends Errors.MoleculerClientError {
  constructor(code: WaErrorCode, message: string, data: Record<string, unknown> = {}) {
    super(message, WA_ERRORS[code], code, data);
    this.name = "WhatsAppClientError";
  }
}

export const waError = (code: WaErrorCode, message: string, data: Record<string, unknown> = {}) => new WhatsAppClientError(code, message, data);
