/** Rows of the plugin's own tables (migrations/0001-sessions.ts); tenantId is the scope's, never written here. */
export interface AuthSessionRow extends Record<string, unknown> {
  connectionId: number;
  creds: string | null;
  fence: number;
  updatedAt: number;
}

export interface AuthKeyRow extends Record<string, unknown> {
  connectionId: number;
  type: string;
  keyId: string;
  value: string;
}

export interface LidRow extends Record<string, unknown> {
  connectionId: number;
  lid: string;
  pn: string;
  updatedAt: number;
}

export interface MessageKeyRow extends Record<string, unknown> {
  connectionId: number;
  messageId: string;
  keyJson: string;
  content: string | null;
  day: number;
}

export interface SentLogRow extends Record<string, unknown> {
  connectionId: number;
  messageId: number;
  digest: string;
  providerMessageId: string;
  timestamp: number;
}

export const TABLES = {
  sessions: "auth_sessions",
  keys: "auth_keys",
  lids: "lid_map",
  messages: "message_keys",
  sent: "sent_log",
} as const;
