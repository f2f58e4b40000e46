/** What the module's routes answer (src/service.ts), as the UI reads them. */
export interface SettingsView {
  enabled: boolean;
  scale: number;
  timeoutMinutes: number;
  requestMessage: string;
  thanksMessage: string;
  invalidMessage: string;
  timeoutMessage: string;
  limits: { scaleMin: number; scaleMax: number; timeoutMin: number; timeoutMax: number };
}

export interface Figures {
  answered: number;
  promoters: number;
  passives: number;
  detractors: number;
  score: number | null;
}

export interface StatsView {
  enabled: boolean;
  scale: number;
  total: Figures & { asked: number; timedOut: number; waiting: number };
  byQueue: Array<Figures & { queueId: number | null; name: string | null }>;
  byUser: Array<Figures & { userId: number | null; name: string | null }>;
}
