/**
 * Shapes shared by the locale files of the error catalogue (spec §8).
 *
 * Texts may contain `{{name}}` placeholders, filled from the error's data object by
 * `interpolate` in ../catalogue.ts. A locale must use exactly the same placeholders as pt-BR
 * for the same key (checked by catalogue.test.ts).
 */

/** What the user sees for one error code: a short title and a one- or two-sentence detail. */
export type ErrorText = { title: string; detail: string };

/**
 * Field-validation rules with a translated message: fastest-validator's rule types, plus the
 * product's own `password`, `document` (CPF/CNPJ) and `phone` checks. `any` is the fallback
 * used for any rule type not listed here.
 */
export const VALIDATION_RULES = [
  "required",
  "string",
  "stringEmpty",
  "stringMin",
  "stringMax",
  "stringLength",
  "stringPattern",
  "stringEnum",
  "number",
  "numberMin",
  "numberMax",
  "numberInteger",
  "numberPositive",
  "boolean",
  "date",
  "dateMin",
  "dateMax",
  "email",
  "emailEmpty",
  "emailMin",
  "emailMax",
  "enumValue",
  "equalValue",
  "equalField",
  "array",
  "arrayEmpty",
  "arrayMin",
  "arrayMax",
  "arrayLength",
  "arrayUnique",
  "object",
  "objectStrict",
  "uuid",
  "url",
  "forbidden",
  "any",
  "password",
  "document",
  "phone",
] as const;

export type ValidationRule = (typeof VALIDATION_RULES)[number];

/** Texts the server itself sends (e-mails, banners, notices), in every language. */
export interface UiTexts {
  /** Title of the notice shown when an error has no known code. */
  genericErrorTitle: string;
  /** Detail of that notice. */
  genericErrorDetail: string;
  /** Title of the positive notification shown on success. */
  successTitle: string;
  /** Subject of the password-reset e-mail. */
  resetMailSubject: string;
  /** Plain-text body of the password-reset e-mail: `{{name}}`, `{{link}}`. */
  resetMailText: string;
  /** HTML body of the password-reset e-mail: `{{name}}`, `{{link}}`. */
  resetMailHtml: string;
  /** 10-second banner on the contact limit (HTTP 410): `{{current}}`, `{{max}}`. */
  contactLimitBanner: string;
  /** 5-second notice when a feature needs a higher licence: `{{requiredTier}}`. */
  licenceNotice: string;
}

export const UI_TEXT_KEYS = [
  "genericErrorTitle",
  "genericErrorDetail",
  "successTitle",
  "resetMailSubject",
  "resetMailText",
  "resetMailHtml",
  "contactLimitBanner",
  "licenceNotice",
] as const satisfies readonly (keyof UiTexts)[];

/** Compile-time guard: UI_TEXT_KEYS lists every key of UiTexts. */
type MissingUiKeys = Exclude<keyof UiTexts, (typeof UI_TEXT_KEYS)[number]>;
export const UI_TEXT_KEYS_COMPLETE: [MissingUiKeys] extends [never] ? true : never = true;
