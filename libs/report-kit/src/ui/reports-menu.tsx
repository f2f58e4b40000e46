/**
 * The /relatorios menu page, shared by every report plugin (spec §2: /relatorios with its
 * children). Each report plugin's register() calls registerReportPage: its page goes into one
 * registry on the window (every remote's copy of this module finds the same one), the
 * /relatorios route and the "Relatórios" menu entry are (re)registered with the same key, so
 * whichever report plugin loads last, the page lists the pages of all the enabled ones.
 */
import { useEffect, useState, type ComponentType } from "react";
import { Card, Col, Empty, Row, Typography } from "antd";
import type { ShellRuntime, UiLabel, UiLocale } from "@openatende/plugin-sdk/ui";

export interface ReportEntry {
  pluginId: string;
  /** Child of /relatorios ("relatorio-tickets"). */
  path: string;
  title: UiLabel;
  description: UiLabel;
  load: () => Promise<{ default: ComponentType }>;
}

interface Registry {
  entries: ReportEntry[];
  listeners: Set<() => void>;
}

const KEY = Symbol.for("openatende.report-kit.reports");

function registry(): Registry {
  const g = globalThis as unknown as Record<symbol, Registry | undefined>;
  let r = g[KEY];
  if (!r) {
    r = { entries: [], listeners: new Set() };
    g[KEY] = r;
  }
  return r;
}

const MENU_LABEL: UiLabel = { "pt-BR": "Relatórios", en: "Reports", es: "Informes", ru: "Отчёты" };
const SUBTITLE: UiLabel = { "pt-BR": "Escolha um relatório", en: "Choose a report", es: "Elija un informe", ru: "Выберите отчёт" };
const EMPTY: UiLabel = { "pt-BR": "Nenhum relatório disponível", en: "No report available", es: "Ningún informe disponible", ru: "Нет доступных отчётов" };

export const REPORTS_ICON =
  "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20width='16'%20height='16'%20viewBox='0%200%2024%2024'%20fill='none'%20stroke='%230e7490'%20stroke-width='2'%20stroke-linecap='round'%3E%3Cpath%20d='M4%2020V10M10%2020V4M16%2020v-7M22%2020H2'/%3E%3C/svg%3E";

const pick = (l: UiLabel, locale: UiLocale) => l[locale] ?? l["pt-BR"];

/** Adds a report page: its own route, and the shared /relatorios page and menu entry. */
export function registerReportPage(runtime: ShellRuntime, entry: ReportEntry): void {
  const r = registry();
  r.entries = [...r.entries.filter((e) => e.path !== entry.path), entry].sort((x, y) => pick(x.title, runtime.locale).localeCompare(pick(y.title, runtime.locale)));
  r.listeners.forEach((l) => l());
  runtime.addRoute({ path: `relatorios/${entry.path}`, load: entry.load, access: "supervisor" });
  runtime.addRoute({ path: "relatorios", load: async () => ({ default: () => <ReportsMenu locale={runtime.locale} /> }), access: "supervisor" });
  runtime.addMenuItem({ key: "relatorios", path: "relatorios", label: MENU_LABEL, access: "supervisor", icon: REPORTS_ICON });
}

function ReportsMenu({ locale }: { locale: UiLocale }) {
  const [entries, setEntries] = useState(registry().entries);
  useEffect(() => {
    const r = registry();
    const l = () => setEntries(r.entries);
    r.listeners.add(l);
    return () => void r.listeners.delete(l);
  }, []);
  return (
    <div style={{ padding: 24 }} data-testid="reports-menu">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {pick(MENU_LABEL, locale)}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{pick(SUBTITLE, locale)}</Typography.Paragraph>
      {entries.length === 0 ? (
        <Empty description={pick(EMPTY, locale)} />
      ) : (
        <Row gutter={[16, 16]}>
          {entries.map((e) => (
            <Col key={e.path} xs={24} sm={12} lg={8}>
              <a href={`#/relatorios/${e.path}`} data-testid={`report-link-${e.path}`}>
                <Card hoverable title={pick(e.title, locale)}>
                  {pick(e.description, locale)}
                </Card>
              </a>
            </Col>
          ))}
        </Row>
      )}
    </div>
  );
}
