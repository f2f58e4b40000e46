/**
 * An SMS connection's settings, read from what the core stored, with the reason when they
 * cannot be used. The manifest's settingsSchema holds the same rules (the core checks them on
 * save); this is the plugin's own reading, so a connection saved before a rule changed never
 * crashes the plugin.
 *
 * Two groups live here (spec §3 "SMS account"): what the plugin uses to reach the provider
 * (provider, token, sender, API address, the webhook secret) and the tenant's account details
 * with the provider (first name, last name, e-mail, mobile, password ≥ 6 — spec §5 —, taxpayer
 * type), kept with the connection for the reseller; the plugin never sends them anywhere.
 */
import { PROVIDER_IDS, type ProviderId } from "./providers/provider";

export const TAXPAYER_TYPES = ["PF", "PJ"] as const;
export type TaxpayerType = (typeof TAXPAYER_TYPES)[number];

export interface SmsAccount {
  firstName: string;
  lastName: string;
  email: string;
  mobile: string;
  password: string;
  taxpayerType: TaxpayerType;
}

export interface SmsSettings {
  provider: ProviderId;
  /** The provider's API token (Comtele: the account's API key, header `auth-key`). */
  token: string;
  /** The sender id, when the account has one approved by the provider. */
  sender?: string;
  /** Another address of the provider's API (a reseller's own host); empty: the provider's. */
  apiUrl?: string;
  /** The per-connection secret in the webhook path (the provider signs nothing). */
  webhookSecret: string;
  account: SmsAccount;
}

export const TOKEN_PATTERN = /^\S{8,200}$/;
export const SENDER_PATTERN = /^[A-Za-z0-9 ._-]{1,20}$/;
export const URL_PATTERN = /^https?:\/\/[^\s/]+[^\s]*$/i;
export const SECRET_PATTERN = /^[A-Za-z0-9_-]{32,128}$/;
export const MOBILE_PATTERN = /^\+?[0-9]{10,15}$/;
/** What fastest-validator's "email" rule accepts (its quick pattern). */
export const EMAIL_PATTERN = /^\S+@\S+\.\S+$/;
export const PASSWORD_MIN = 6;

const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");

export type SettingsReading = { ok: true; settings: SmsSettings } | { ok: false; field: string; detail: string };

export function readSettings(raw: Record<string, unknown> | null | undefined): SettingsReading {
  const s = raw ?? {};
  const bad = (field: string, detail: string): SettingsReading => ({ ok: false, field, detail });
  const provider = (s.provider ?? "comtele") as ProviderId;
  if (!PROVIDER_IDS.includes(provider)) return bad("provider", `The SMS provider must be one of ${PROVIDER_IDS.join(", ")}`);
  const token = str(s.token);
  if (!TOKEN_PATTERN.test(token)) return bad("token", "The provider's token is missing or malformed (8 to 200 characters, no spaces)");
  const sender = str(s.sender);
  if (sender && !SENDER_PATTERN.test(sender)) return bad("sender", "The sender id may have up to 20 letters, digits, spaces, '.', '_' or '-'");
  const apiUrl = str(s.apiUrl).replace(/\/+$/, "");
  if (apiUrl && (!URL_PATTERN.test(apiUrl) || apiUrl.length > 500)) return bad("apiUrl", "The API address is not an http(s) URL");
  const webhookSecret = typeof s.webhookSecret === "string" ? s.webhookSecret : "";
  if (!SECRET_PATTERN.test(webhookSecret)) return bad("webhookSecret", "The webhook secret must have 32 to 128 letters, digits, '_' or '-'");
  const firstName = str(s.firstName);
  if (!firstName || firstName.length > 100) return bad("firstName", "The account's first name is required");
  const lastName = str(s.lastName);
  if (!lastName || lastName.length > 100) return bad("lastName", "The account's last name is required");
  const email = str(s.email);
  if (!EMAIL_PATTERN.test(email) || email.length > 191) return bad("email", "The account's e-mail is missing or invalid");
  const mobile = str(s.mobile);
  if (!MOBILE_PATTERN.test(mobile)) return bad("mobile", "The account's mobile needs the country code and 10 to 15 digits");
  const password = typeof s.password === "string" ? s.password : "";
  if (password.length < PASSWORD_MIN || password.length > 100) return bad("password", `The account's password needs at least ${PASSWORD_MIN} characters`);
  const taxpayerType = s.taxpayerType as TaxpayerType;
  if (!TAXPAYER_TYPES.includes(taxpayerType)) return bad("taxpayerType", "The taxpayer type must be PF (person) or PJ (company)");
  return {
    ok: true,
    settings: {
      provider,
      token,
      webhookSecret,
      ...(sender ? { sender } : {}),
      ...(apiUrl ? { apiUrl } : {}),
      account: { firstName, lastName, email, mobile, password, taxpayerType },
    },
  };
}

/** Hides the connection's secrets in texts that go to logs and statuses. */
export function redact(text: string, settings?: Pick<SmsSettings, "token" | "webhookSecret">): string {
  let out = text;
  for (const secret of [settings?.token, settings?.webhookSecret]) if (secret) out = out.split(secret).join("<secret>");
  return out;
}
