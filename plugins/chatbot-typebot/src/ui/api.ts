/** The plugin's routes as the UI calls them (service.ts), with their answers' shapes. */
import type { UiApi } from "@openatende/plugin-sdk/ui";

export interface SettingsView {
  viewerUrl: string | null;
  builderUrl: string | null;
  apiGeneration: "latest" | "legacy";
  sessionTimeoutMinutes: number;
  queueId: number | null;
  hasToken: boolean;
  tokenHint: string | null;
  defaults: { viewerUrl: string | null; builderUrl: string | null };
  effective: { viewerUrl: string | null; builderUrl: string | null };
}

export interface SettingsInput {
  viewerUrl: string | null;
  builderUrl: string | null;
  /** Absent: keep the stored token; "" : remove it. */
  apiToken?: string;
  apiGeneration: "latest" | "legacy";
  sessionTimeoutMinutes: number;
  queueId: number | null;
}

export type TestResult = { ok: true; ms: number; sessionId: string | null } | { ok: false; ms: number; kind: string; status: number | null; message: string };

export interface ConnectionView {
  connectionId: number;
  enabled: boolean;
  publicId: string;
  restartKeyword: string;
  invalidMessage: string;
}

export interface Failure {
  id: string;
  ticketId: number;
  kind: string;
  status: number | null;
  message: string;
  at: number;
}

export const getSettings = (api: UiApi) => api.get<SettingsView>("/typebot/settings");
export const saveSettings = (api: UiApi, body: SettingsInput) => api.put<SettingsView>("/typebot/settings", body, { successNotice: true });
export const testSettings = (api: UiApi, publicId: string) => api.post<TestResult>("/typebot/settings/test", { publicId });
export const getFailures = (api: UiApi) => api.get<Failure[]>("/typebot/failures", { silent: true });
export const getConnection = (api: UiApi, connectionId: number) => api.get<ConnectionView>("/typebot/connection", { query: { connectionId } });
export const saveConnection = (api: UiApi, body: Omit<ConnectionView, "invalidMessage"> & { invalidMessage: string | null }) => api.put<ConnectionView>("/typebot/connection", body);
