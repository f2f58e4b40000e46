import type { ConnectionSettings } from "@openatende/plugin-sdk/ui";
import type { EnabledPlugin } from "../../../plugins/registry";

export interface ConnectionView {
  id: number;
  name: string;
  type: string;
  status: string;
  isDefault: boolean;
  queueId: number | null;
  updatedAt?: string;
  greeting?: string | null;
  farewell?: string | null;
  token?: string;
  settings?: ConnectionSettings;
  qrcode?: string | null;
  statusDetail?: string | null;
  /** The plugin major the connection is pinned to. */
  pluginMajor?: number | null;
  /** Why the platform made it inactive (an error code: its module switched off, not allowed, above the plan…). */
  inactiveReason?: string | null;
}

/** `${tenantId}:connectionStatus` (core/src/connections/connections.service.ts pushStatus): a connection's status changed. */
export interface ConnectionStatusEvent {
  action?: string;
  session?: { id: number; status: string; qrcode?: string; detail?: string; inactiveReason?: string | null };
}

/** The badge of each connection status. */
export const STATUS_BADGE: Record<string, "success" | "processing" | "warning" | "error" | "default"> = {
  connected: "success",
  connecting: "processing",
  pairing: "processing",
  qrcode: "warning",
  timeout: "error",
  conflict: "error",
  disconnected: "default",
  inactive: "default",
};

/** A plugin's display name in the user's language (pt-BR, then English, then its id). */
export function pluginLabel(p: Pick<EnabledPlugin, "id" | "displayName"> | undefined, locale: string, fallback: string): string {
  if (!p) return fallback;
  return p.displayName?.[locale] ?? p.displayName?.["pt-BR"] ?? p.displayName?.en ?? p.id;
}
