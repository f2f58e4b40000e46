import { useCallback, useEffect, useRef, useState, type ComponentType } from "react";
import { Alert, Button, Select, Space, Table, Tag, Typography } from "antd";
import { BarChart } from "@openatende/report-kit/src/ui/bar-chart";
import { BuildingNotice, BUILDING_RETRY_MS, buildingPercent } from "@openatende/report-kit/src/ui/building";
import { downloadExport } from "@openatende/report-kit/src/ui/download";
import { ReportHead } from "@openatende/report-kit/src/ui/report-head";
import { readerZone } from "@openatende/report-kit/src/ui/month";
import type { PageKey } from "../texts";
import { useRuntime } from "./runtime";

interface Row {
  id: number;
  name: string;
  number: string | null;
  email: string | null;
  state: string | null;
  tags: Array<{ id: number; name: string; color: string }>;
  createdAt: string;
}
interface Summary {
  total: number;
  groups: Array<{ key: string; label: string; count: number }>;
}
interface Options {
  tags: Array<{ id: number; name: string; color: string }>;
  states: Array<{ state: string; count: number }>;
}

const API: Record<PageKey, string> = { list: "/relatorios/contatos/lista", tags: "/relatorios/contatos/etiquetas", states: "/relatorios/contatos/estados" };
const PAGE = 50;

function dateTime(iso: string): string {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${p(d.getDate())}/${p(d.getMonth() + 1)}/${d.getFullYear()} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/**
 * One of the contact reports (spec §2): the list of every contact, or those of the chosen tags
 * or states (nothing is asked before one is chosen), by name with "load more", the total and a
 * bar per choice, print, Excel and PDF.
 */
function ContactsReport({ kind }: { kind: PageKey }) {
  const runtime = useRuntime();
  const t = runtime.t;
  const [options, setOptions] = useState<Options | null>(null);
  const [draft, setDraft] = useState<Array<string | number>>([]);
  const [chosen, setChosen] = useState<Array<string | number>>([]);
  const [rows, setRows] = useState<Row[]>([]);
  const [summary, setSummary] = useState<Summary | null>(null);
  const [page, setPage] = useState(1);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [building, setBuilding] = useState<number | null>(null);
  const seq = useRef(0);
  const needsChoice = kind !== "list";

  useEffect(() => {
    if (needsChoice) runtime.api.get<Options>("/relatorios/contatos/options").then(setOptions, (err) => runtime.notify.error(err));
  }, [runtime, needsChoice]);

  const queryOf = useCallback((c: Array<string | number>) => ({ tz: readerZone(), ...(kind === "tags" ? { tagIds: c.join(",") } : kind === "states" ? { states: c.join(",") } : {}) }), [kind]);

  const load = useCallback(
    async (c: Array<string | number>, p: number) => {
      const mine = ++seq.current;
      if (needsChoice && !c.length) {
        setRows([]);
        setSummary(null);
        setHasMore(false);
        return;
      }
      setLoading(true);
      try {
        const q = queryOf(c);
        const [r, s] = await Promise.all([
          runtime.api.get<{ rows: Row[]; hasMore: boolean }>(`${API[kind]}/rows`, { query: { ...q, page: p, limit: PAGE }, silent: true }),
          p === 1 ? runtime.api.get<Summary>(`${API[kind]}/summary`, { query: q, silent: true }) : Promise.resolve(null),
        ]);
        if (mine !== seq.current) return;
        setBuilding(null);
        setRows((prev) => (p === 1 ? r.rows : [...prev, ...r.rows]));
        setHasMore(r.hasMore);
        setPage(p);
        if (s) setSummary(s);
      } catch (err) {
        const percent = buildingPercent(err, "ERR_REPORT_CONTACTS");
        if (percent !== null) {
          setBuilding(percent);
          setTimeout(() => mine === seq.current && void load(c, p), BUILDING_RETRY_MS);
        } else runtime.notify.error(err);
      } finally {
        if (mine === seq.current) setLoading(false);
      }
    },
    [runtime, kind, needsChoice, queryOf],
  );
  useEffect(() => void load(chosen, 1), [chosen, load]);

  const exportAs = (format: "xlsx" | "pdf") => downloadExport(runtime, `${API[kind]}/export`, { ...queryOf(chosen), format }, `${t(`titles.${kind}`)}.${format}`).catch((err) => runtime.notify.error(err));
  const choices: Array<{ value: string | number; label: string }> = kind === "tags" ? (options?.tags ?? []).map((g) => ({ value: g.id, label: g.name })) : (options?.states ?? []).map((s) => ({ value: s.state, label: `${s.state} (${s.count})` }));
  const columns = [
    { title: t("col.name"), dataIndex: "name", key: "name" },
    { title: t("col.number"), key: "number", render: (r: Row) => r.number ?? "—" },
    { title: t("col.email"), key: "email", render: (r: Row) => r.email ?? "—" },
    { title: t("col.state"), key: "state", render: (r: Row) => r.state ?? "—" },
    { title: t("col.tags"), key: "tags", render: (r: Row) => r.tags.map((g) => <Tag key={g.id} color={g.color}>{g.name}</Tag>) },
    { title: t("col.createdAt"), key: "createdAt", render: (r: Row) => dateTime(r.createdAt) },
  ];
  const blocked = needsChoice && !chosen.length;

  return (
    <div style={{ padding: 24 }} data-testid={`contacts-report-${kind}`}>
      <ReportHead title={t(`titles.${kind}`)} texts={{ print: t("print"), excel: t("excel"), pdf: t("pdf") }} onExport={(f) => void exportAs(f)} disabled={blocked} />
      {needsChoice ? (
        <Space wrap style={{ marginBottom: 16 }} className="no-print">
          <Select mode="multiple" allowClear placeholder={t(kind === "tags" ? "tagsPick" : "statesPick")} style={{ minWidth: 280 }} value={draft} onChange={setDraft} options={choices} data-testid="contacts-choice" />
          <Button type="primary" onClick={() => setChosen([...draft])} data-testid="report-apply">
            {t("apply")}
          </Button>
        </Space>
      ) : null}
      {blocked ? <Alert type="info" showIcon message={t(kind === "tags" ? "needTags" : "needStates")} style={{ marginBottom: 16 }} data-testid="contacts-need-choice" /> : null}
      {building !== null ? <BuildingNotice runtime={runtime} percent={building} /> : null}
      {summary && building === null ? (
        <div style={{ marginBottom: 16 }}>
          <Typography.Text strong data-testid="contacts-total">{`${t("total")}: ${new Intl.NumberFormat("pt-BR").format(summary.total)}`}</Typography.Text>
          {summary.groups.length ? <BarChart testId="contacts-chart" items={summary.groups.map((g) => ({ label: g.label, values: { count: g.count } }))} series={[{ key: "count", label: t("total"), color: "#0e7490" }]} /> : null}
        </div>
      ) : null}
      {blocked ? null : <Table rowKey="id" size="small" columns={columns} dataSource={rows} loading={loading} pagination={false} locale={{ emptyText: t("empty") }} scroll={{ x: true }} />}
      {hasMore ? (
        <div style={{ textAlign: "center", marginTop: 12 }} className="no-print">
          <Button onClick={() => void load(chosen, page + 1)} loading={loading} data-testid="load-more">
            {t("loadMore")}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

export const PAGES: Record<PageKey, ComponentType> = {
  list: () => <ContactsReport kind="list" />,
  tags: () => <ContactsReport kind="tags" />,
  states: () => <ContactsReport kind="states" />,
};
