/**
 * A report's screen while its projection is being filled (a tenant's first query, or a rebuild):
 * the query answers `<prefix>_PROJECTION_BUILDING` (503) with how far the backfill is
 * (`data.percent`, projection.ts), the screen says "rebuilding… x%" instead of empty or partial
 * figures, and asks again every few seconds until the answer is the live one. Shared by every
 * report plugin's screen.
 */
import { Alert, Progress } from "antd";
import type { ShellRuntime, UiLabel, UiLocale } from "@openatende/plugin-sdk/ui";

const BUILDING: UiLabel = {
  "pt-BR": "Reconstruindo os dados… {{percent}}%",
  en: "Rebuilding the data… {{percent}}%",
  es: "Reconstruyendo los datos… {{percent}}%",
  ru: "Данные перестраиваются… {{percent}}%",
};

/** How often a screen asks again while the projection is being filled. */
export const BUILDING_RETRY_MS = 3000;

/** The text in the reader's language (pt-BR when the locale has none). */
export function buildingText(locale: UiLocale | string, percent: number): string {
  const labels = BUILDING as Record<string, string>;
  return (labels[locale] ?? labels["pt-BR"]).replace("{{percent}}", String(percent));
}

/** The backfill's percent when `err` says the projection of `codePrefix` is being filled; null otherwise. */
export function buildingPercent(err: unknown, codePrefix: string): number | null {
  const e = err as { code?: string; data?: { percent?: unknown } } | null;
  if (e?.code !== `${codePrefix}_PROJECTION_BUILDING`) return null;
  const p = Number(e.data?.percent ?? 0);
  return Number.isFinite(p) ? Math.max(0, Math.min(100, Math.floor(p))) : 0;
}

/** The notice above a report's table and cards. */
export function BuildingNotice({ runtime, percent, dark }: { runtime: Pick<ShellRuntime, "locale">; percent: number; dark?: boolean }) {
  const text = buildingText(runtime.locale, percent);
  if (dark) {
    return (
      <div data-testid="report-building" role="status" style={{ fontSize: 28, color: "#fbbf24", marginBottom: 24 }}>
        <div>{text}</div>
        <Progress percent={percent} showInfo={false} strokeColor="#fbbf24" trailColor="#334155" style={{ maxWidth: 640 }} />
      </div>
    );
  }
  return <Alert data-testid="report-building" role="status" type="info" showIcon message={text} description={<Progress percent={percent} size="small" />} style={{ marginBottom: 16 }} />;
}
