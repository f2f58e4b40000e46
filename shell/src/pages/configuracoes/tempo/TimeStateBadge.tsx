import { useCallback, useEffect, useState } from "react";
import { Skeleton } from "antd";
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
import { useRoot } from "../../../app/context";
import type { TimeState } from "./types";
import "./tempo.css";

/** How often the badge asks again (it says "open now"; a minute late is fine). */
const REFRESH_MS = 60_000;
const DEFAULT_TIME_ZONE = "America/Sao_Paulo";

/** The tenant's time zone (GET /tenants/:id: the admin's own tenant), São Paulo until it is read. */
export function useTenantTimeZone(): string | null {
  const root = useRoot();
  const [tz, setTz] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const id = root.session.tenantId;
    if (!id) return;
    root.api.get<{ timezone?: string }>(`/tenants/${id}`, { silent: true }).then(
      (r) => live && setTz(r?.timezone || DEFAULT_TIME_ZONE),
      () => live && setTz(DEFAULT_TIME_ZONE),
    );
    return () => {
      live = false;
    };
  }, [root]);
  return tz;
}

/** "14:05" now in the zone, and its UTC offset ("GMT-03:00"). */
export function zoneClock(timeZone: string, locale: string, at = Date.now()): { time: string; offset: string } {
  try {
    const parts = new Intl.DateTimeFormat(locale, { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "longOffset" }).formatToParts(at);
    const get = (k: string) => parts.find((p) => p.type === k)?.value ?? "";
    return { time: `${get("hour")}:${get("minute")}`, offset: get("timeZoneName") };
  } catch {
    return { time: "", offset: "" };
  }
}

/** When it next opens, in the tenant's zone: "hoje às 13:00", "amanhã às 08:00", "seg., 08/12 às 08:00". */
export function nextOpenText(at: number, timeZone: string, locale: string, t: TFunction, now = Date.now()): string {
  const dayOf = (ms: number) => new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(ms);
  const time = new Intl.DateTimeFormat(locale, { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(at);
  const days = Math.round((Date.parse(dayOf(at)) - Date.parse(dayOf(now))) / 86_400_000);
  if (days === 0) return t("tempo.state.today", { time });
  if (days === 1) return t("tempo.state.tomorrow", { time });
  const date = new Intl.DateTimeFormat(locale, { timeZone, weekday: "short", day: "2-digit", month: "2-digit" }).format(at);
  return t("tempo.state.onDate", { date, time });
}

/**
 * "Aberto agora" or "Fechado — abre …" for a target (GET /business-hours/state; no target:
 * the tenant's own hours), asked again every minute and whenever `version` changes (a save).
 */
export function TimeStateBadge({ timeZone, version, query }: { timeZone: string | null; version: number; query?: Record<string, number> }) {
  const root = useRoot();
  const { t, i18n } = useTranslation();
  const [state, setState] = useState<TimeState | null>(null);
  const q = JSON.stringify(query ?? {});

  const load = useCallback(() => {
    root.api.get<TimeState>("/business-hours/state", { query: JSON.parse(q), silent: true }).then(setState, () => setState(null));
  }, [root, q]);
  useEffect(() => {
    load();
    const timer = setInterval(load, REFRESH_MS);
    return () => clearInterval(timer);
  }, [load, version]);

  if (!state || !timeZone) return <Skeleton.Button active size="small" style={{ width: 180 }} />;
  let text: string;
  if (state.open) text = state.reason === "unscheduled" ? t("tempo.state.unscheduled") : t("tempo.state.open");
  else {
    const when = state.nextOpenAt ? nextOpenText(state.nextOpenAt, timeZone, i18n.language, t) : null;
    const head = t(`tempo.state.reasons.${state.reason === "lunch" || state.reason === "holiday" ? state.reason : "closed"}`);
    text = when ? t("tempo.state.closedUntil", { reason: head, when }) : t("tempo.state.closedNoNext", { reason: head });
  }
  return (
    <span className="oa-time-state" data-testid="time-state" data-open={state.open ? "1" : "0"} data-reason={state.reason} role="status">
      <span className="oa-time-state-dot" />
      {text}
    </span>
  );
}
