import { useCallback, useEffect, useRef, useState } from "react";
import { Alert, Button, Input, Select, Space, Table, Typography } from "antd";
import { BarChart } from "@openatende/report-kit/src/ui/bar-chart";
import { downloadExport } from "@openatende/report-kit/src/ui/download";
import { ReportHead } from "@openatende/report-kit/src/ui/report-head";
import { monthOf, readerZone } from "@openatende/report-kit/src/ui/month";
import { useRuntime } from "./runtime";

interface Line {
  userId: number | null;
  name: string;
  pending: number;
  open: number;
  closed: number;
  total: number;
  text: { shortest: string; longest: string; average: string };
}
type Totals = Omit<Line, "userId" | "name">;
interface Filters {
  queueIds: number[];
  from: string;
  to: string;
}

const API = "/relatorios/usuarios";
const COLORS = { pending: "#f59e0b", open: "#0e7490", closed: "#16a34a" };
const queryOf = (f: Filters) => ({ queueIds: f.queueIds.join(",") || undefined, from: f.from || undefined, to: f.to || undefined, tz: readerZone() });

/**
 * /relatorios/estatisticas-atendimentos-usuarios (spec §2): per user pending, in service,
 * resolved, total and the shortest, longest and average service time in minutes (pt-BR figures
 * as the server writes them), a bar chart of each user's tickets, the period (the current month
 * by default) and queues as filters, print, Excel and PDF.
 */
export default function UsersReport() {
  const runtime = useRuntime();
  const t = runtime.t;
  const [draft, setDraft] = useState<Filters>(() => ({ queueIds: [], ...monthOf() }));
  const [filters, setFilters] = useState(draft);
  const [queues, setQueues] = useState<Array<{ id: number; name: string }>>([]);
  const [lines, setLines] = useState<Line[]>([]);
  const [totals, setTotals] = useState<Totals | null>(null);
  const [loading, setLoading] = useState(false);
  const [building, setBuilding] = useState(false);
  const seq = useRef(0);

  useEffect(() => {
    runtime.api.get<{ queues: Array<{ id: number; name: string }> }>(`${API}/options`).then((r) => setQueues(r.queues), (err) => runtime.notify.error(err));
  }, [runtime]);

  const load = useCallback(
    async (f: Filters) => {
      const mine = ++seq.current;
      setLoading(true);
      try {
        const q = queryOf(f);
        const [r, s] = await Promise.all([runtime.api.get<{ rows: Line[] }>(`${API}/rows`, { query: q, silent: true }), runtime.api.get<Totals>(`${API}/summary`, { query: q, silent: true })]);
        if (mine !== seq.current) return;
        setBuilding(false);
        setLines(r.rows);
        setTotals(s);
      } catch (err) {
        if ((err as { code?: string }).code === "ERR_REPORT_USERS_PROJECTION_BUILDING") {
          setBuilding(true);
          setTimeout(() => mine === seq.current && void load(f), 3000);
        } else runtime.notify.error(err);
      } finally {
        if (mine === seq.current) setLoading(false);
      }
    },
    [runtime],
  );
  useEffect(() => void load(filters), [filters, load]);

  const exportAs = (format: "xlsx" | "pdf") => downloadExport(runtime, `${API}/export`, { ...queryOf(filters), format }, `${t("title")}.${format}`).catch((err) => runtime.notify.error(err));
  const figure = (k: "pending" | "open" | "closed" | "total") => ({ title: t(`col.${k}`), dataIndex: k, key: k, align: "right" as const });
  const time = (k: "shortest" | "longest" | "average") => ({ title: t(`col.${k}`), key: k, align: "right" as const, render: (r: Line) => r.text[k] || "—" });
  const columns = [{ title: t("col.user"), dataIndex: "name", key: "name" }, figure("pending"), figure("open"), figure("closed"), figure("total"), time("shortest"), time("longest"), time("average")];
  const charted = lines.filter((l) => l.total > 0);

  return (
    <div style={{ padding: 24 }} data-testid="users-report">
      <ReportHead title={t("title")} texts={{ print: t("print"), excel: t("excel"), pdf: t("pdf") }} onExport={(f) => void exportAs(f)} />
      <Space wrap style={{ marginBottom: 16 }} className="no-print">
        <Select mode="multiple" allowClear placeholder={t("queue")} style={{ minWidth: 200 }} value={draft.queueIds} onChange={(v) => setDraft({ ...draft, queueIds: v })} options={queues.map((q) => ({ value: q.id, label: q.name }))} data-testid="users-queues" />
        <Input type="date" aria-label={t("from")} value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} data-testid="report-from" />
        <Input type="date" aria-label={t("to")} value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} data-testid="report-to" />
        <Button type="primary" onClick={() => setFilters({ ...draft })} data-testid="report-apply">
          {t("apply")}
        </Button>
        <Button
          onClick={() => {
            const fresh = { queueIds: [], ...monthOf() };
            setDraft(fresh);
            setFilters(fresh);
          }}
        >
          {t("clear")}
        </Button>
      </Space>
      {building ? <Alert type="info" showIcon message={t("building")} style={{ marginBottom: 16 }} /> : null}
      {charted.length ? (
        <div style={{ marginBottom: 16 }}>
          <Typography.Text strong>{t("chart")}</Typography.Text>
          <BarChart
            testId="users-chart"
            items={charted.map((l) => ({ label: l.name, values: { pending: l.pending, open: l.open, closed: l.closed } }))}
            series={(["pending", "open", "closed"] as const).map((k) => ({ key: k, label: t(`col.${k}`), color: COLORS[k] }))}
          />
        </div>
      ) : null}
      <Table
        rowKey={(r: Line) => String(r.userId ?? "none")}
        size="small"
        columns={columns}
        dataSource={lines}
        loading={loading}
        pagination={false}
        locale={{ emptyText: t("empty") }}
        scroll={{ x: true }}
        summary={() =>
          totals ? (
            <Table.Summary.Row data-testid="users-total">
              <Table.Summary.Cell index={0}>
                <strong>{t("total")}</strong>
              </Table.Summary.Cell>
              {(["pending", "open", "closed", "total"] as const).map((k, i) => (
                <Table.Summary.Cell key={k} index={i + 1} align="right">
                  <strong>{totals[k]}</strong>
                </Table.Summary.Cell>
              ))}
              {(["shortest", "longest", "average"] as const).map((k, i) => (
                <Table.Summary.Cell key={k} index={i + 5} align="right">
                  <strong>{totals.text[k] || "—"}</strong>
                </Table.Summary.Cell>
              ))}
            </Table.Summary.Row>
          ) : null
        }
      />
    </div>
  );
}
