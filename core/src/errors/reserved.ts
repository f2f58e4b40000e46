import type { ErrorCode } from "./codes";

/**
 * Catalogue codes no code answers yet, kept for the features of the spec that are still to
 * come, each with the feature (and the issue that plans it) that will answer it. This is the
 * one place that says so: usage.test.ts fails when a code of the catalogue is neither answered
 * by some source file nor listed here, and when a code listed here has started being used
 * (then it leaves this list). A code no feature of the spec needs is removed from the
 * catalogue instead of being listed.
 */
export const RESERVED_CODES: Partial<Record<ErrorCode, string>> = {
  // Session and login (spec §8)
  ERR_PASSKEY_REQUIRED: "passkey login (spec §2 /passkey)",
  ERR_USER_CREATION_DISABLED: "self-registration switched off by the platform (spec §2 /register, global settings)",
  ERR_CONTACT_FINANCE: "a tenant blocked for billing by its reseller (reseller panel)",
  // Auto-reply and flows: issue 15
  ERR_CHAT_BUILDER_URL: "the chat-flow builder (issue 15)",
  // Campaigns: issue 17
  ERR_CAMPAIGN_NOT_FOUND: "campaigns (issue 17)",
  ERR_CAMPAIGN_CONTACTS_MISSING: "campaigns (issue 17)",
  ERR_CAMPAIGN_NOT_EDITABLE: "campaigns (issue 17)",
  ERR_CAMPAIGN_DATE_INVALID: "campaigns (issue 17)",
  ERR_CAMPAIGN_CONTACTS_REQUIRED_TO_SCHEDULE: "campaigns (issue 17)",
  ERR_CAMPAIGN_PAST_DATE: "campaigns (issue 17)",
  ERR_INVALID_INTERVAL: "birthday and campaign sends with a delay between messages (issue 17)",
  // API configurations with webhooks (spec §1)
  ERR_API_CONFIG_NOT_FOUND: "API configurations with webhooks (spec §1, issue 14)",
  // Passkeys (spec §2 /passkey, §7)
  ERR_PASSKEY_NOT_SUPPORTED: "passkeys",
  ERR_PASSKEY_HTTPS_REQUIRED: "passkeys",
  ERR_PASSKEY_CHALLENGE_MISSING: "passkeys",
  ERR_PASSKEY_NOT_RECOGNISED: "passkeys",
  ERR_PASSKEY_TIMEOUT: "passkeys",
  ERR_PASSKEY_CANCELLED: "passkeys",
  ERR_PASSKEY_DENIED: "passkeys",
  ERR_PASSKEY_ABORTED: "passkeys",
  ERR_PASSKEY_INVALID_STATE: "passkeys",
  ERR_PASSKEY_SECURITY: "passkeys",
  ERR_PASSKEY_USER_NOT_FOUND: "passkeys",
  ERR_PASSKEY_NONE_FOUND: "passkeys",
  // Voice (spec §1 webphone, /wavoip)
  ERR_VOICE_NUMBER_NOT_EXISTS: "voice calls (webphone)",
  ERR_VOICE_LINE_BUSY: "voice calls (webphone)",
  ERR_AI_VOICES_LOAD: "AI voices of the voice features",
};
