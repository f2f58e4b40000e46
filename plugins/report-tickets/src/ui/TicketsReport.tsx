import { useCallback, useEffect, useRef, useState } from "react";
import { Button, Input, Select, Space, Table, Tag } from "antd";
import { BuildingNotice, BUILDING_RETRY_MS, buildingPercent } from "@openatende/report-kit/src/ui/building";
import { useRuntime } from "./runtime";
import { ChatModal } from "./ChatModal";
import { downloadExport } from "./download";
import { ReportHead } from "@openatende/report-kit/src/ui/report-head";
import { currentMonth, dateTime, minutes } from "./format";
import { SummaryCards } from "./SummaryCards";
import type { Filters, Options, ReportRow, Summary } from "./types";

const PAGE = 50;
const SLA_COLORS = { onTime: "green", attention: "gold", overdue: "red" } as const;
const tz = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

const queryOf = (f: Filters) => ({
  search: f.search.trim() || undefined,
  status: f.status.join(",") || undefined,
  queueIds: f.queueIds.join(",") || undefined,
  userIds: f.userIds.join(",") || undefined,
  from: f.from || undefined,
  to: f.to || undefined,
  tz: tz(),
});

/**
 * /relatorios/relatorio-tickets (spec §2): search and filters (the current month by default),
 * the summary cards, the rows with "load more", a chat view per ticket, print, Excel and PDF.
 * The cards are asked again when an in-progress ticket crosses an SLA threshold.
 */
export default function TicketsReport() {
  const runtime = useRuntime();
  const t = runtime.t;
  const [draft, setDraft] = useState<Filters>(() => ({ search: "", status: [], queueIds: [], userIds: [], ...currentMonth() }));
  const [filters, setFilters] = useState<Filters>(draft);
  const [options, setOptions] = useState<Options | null>(null);
  const [rows, setRows] = useState<ReportRow[]>([]);
  const [page, setPage] = useState(1);
  const [hasMore, setHasMore] = useState(false);
  const [summary, setSummary] = useState<Summary | null>(null);
  const [loading, setLoading] = useState(false);
  const [building, setBuilding] = useState<number | null>(null);
  const [chat, setChat] = useState<ReportRow | null>(null);
  const seq = useRef(0);

  useEffect(() => {
    runtime.api.get<Options>("/relatorios/tickets/options").then(setOptions, (err) => runtime.notify.error(err));
  }, [runtime]);

  const load = useCallback(
    async (f: Filters, p: number) => {
      const mine = ++seq.current;
      setLoading(true);
      try {
        const q = queryOf(f);
        const [r, s] = await Promise.all([
          runtime.api.get<{ rows: ReportRow[]; hasMore: boolean }>("/relatorios/tickets/rows", { query: { ...q, page: p, limit: PAGE }, silent: true }),
          p === 1 ? runtime.api.get<Summary>("/relatorios/tickets/summary", { query: q, silent: true }) : Promise.resolve(null),
        ]);
        if (mine !== seq.current) return;
        setBuilding(null);
        setRows((prev) => (p === 1 ? r.rows : [...prev, ...r.rows]));
        setHasMore(r.hasMore);
        setPage(p);
        if (s) setSummary(s);
      } catch (err) {
        const percent = buildingPercent(err, "ERR_REPORT_TICKETS");
        if (percent !== null) {
          setBuilding(percent);
          setTimeout(() => mine === seq.current && void load(f, p), BUILDING_RETRY_MS);
        } else runtime.notify.error(err);
      } finally {
        if (mine === seq.current) setLoading(false);
      }
    },
    [runtime],
  );

  useEffect(() => void load(filters, 1), [filters, load]);

  // The SLA cards move with the clock: ask again when the next in-progress ticket changes class.
  useEffect(() => {
    if (!summary?.nextChangeAt) return;
    const wait = Math.min(Math.max(summary.nextChangeAt - Date.now(), 1000), 2 ** 31 - 1);
    const timer = setTimeout(() => void runtime.api.get<Summary>("/relatorios/tickets/summary", { query: queryOf(filters), silent: true }).then(setSummary, () => undefined), wait);
    return () => clearTimeout(timer);
  }, [summary, filters, runtime]);

  const exportAs = (format: "xlsx" | "pdf") => downloadExport(runtime, "/relatorios/tickets/export", { ...queryOf(filters), format }, `${t("title")}.${format}`).catch((err) => runtime.notify.error(err));
  const apply = () => setFilters({ ...draft });

  const columns = [
    { title: t("col.id"), dataIndex: "id", key: "id", width: 80 },
    { title: t("col.protocol"), key: "protocol", render: (r: ReportRow) => r.protocol ?? "—" },
    { title: t("col.contact"), key: "contact", render: (r: ReportRow) => r.contact.name },
    { title: t("col.number"), key: "number", render: (r: ReportRow) => r.contact.number ?? "—" },
    { title: t("col.queue"), key: "queue", render: (r: ReportRow) => (r.queue ? <Tag color={r.queue.color}>{r.queue.name}</Tag> : "—") },
    { title: t("col.user"), key: "user", render: (r: ReportRow) => r.user?.name ?? "—" },
    { title: t("col.status"), key: "status", render: (r: ReportRow) => t(`st.${r.status}`) },
    { title: t("col.createdAt"), key: "createdAt", render: (r: ReportRow) => dateTime(r.createdAt) },
    { title: t("col.closedAt"), key: "closedAt", render: (r: ReportRow) => dateTime(r.closedAt) },
    { title: t("col.minutes"), key: "minutes", align: "right" as const, render: (r: ReportRow) => minutes(r.durationMs) },
    { title: t("col.sla"), key: "sla", render: (r: ReportRow) => (r.sla ? <Tag color={SLA_COLORS[r.sla]}>{t(`sla.${r.sla}`)}</Tag> : "—") },
    {
      title: "",
      key: "chat",
      className: "no-print",
      render: (r: ReportRow) => (
        <Button size="small" onClick={() => setChat(r)} data-testid={`chat-${r.id}`}>
          {t("chat")}
        </Button>
      ),
    },
  ];

  return (
    <div style={{ padding: 24 }} data-testid="tickets-report">
      <ReportHead title={t("title")} texts={{ print: t("print"), excel: t("excel"), pdf: t("pdf") }} onExport={(f) => void exportAs(f)} />
      <Space wrap style={{ marginBottom: 16 }} className="no-print">
        <Input.Search allowClear placeholder={t("search")} style={{ width: 280 }} value={draft.search} onChange={(e) => setDraft({ ...draft, search: e.target.value })} onSearch={apply} data-testid="report-search" />
        <Select mode="multiple" allowClear placeholder={t("status")} style={{ minWidth: 180 }} value={draft.status} onChange={(v) => setDraft({ ...draft, status: v })} options={(options?.statuses ?? []).map((s) => ({ value: s, label: t(`st.${s}`) }))} />
        <Select mode="multiple" allowClear placeholder={t("queue")} style={{ minWidth: 160 }} value={draft.queueIds} onChange={(v) => setDraft({ ...draft, queueIds: v })} options={(options?.queues ?? []).map((q) => ({ value: q.id, label: q.name }))} />
        <Select mode="multiple" allowClear placeholder={t("user")} style={{ minWidth: 160 }} value={draft.userIds} onChange={(v) => setDraft({ ...draft, userIds: v })} options={(options?.users ?? []).map((u) => ({ value: u.id, label: u.name }))} />
        <Input type="date" aria-label={t("from")} value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} data-testid="report-from" />
        <Input type="date" aria-label={t("to")} value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} data-testid="report-to" />
        <Button type="primary" onClick={apply} data-testid="report-apply">
          {t("apply")}
        </Button>
        <Button
          onClick={() => {
            const fresh = { search: "", status: [], queueIds: [], userIds: [], ...currentMonth() };
            setDraft(fresh);
            setFilters(fresh);
          }}
        >
          {t("clear")}
        </Button>
      </Space>
      {building !== null ? <BuildingNotice runtime={runtime} percent={building} /> : null}
      {summary && building === null ? <SummaryCards s={summary} /> : null}
      <Table rowKey="id" size="small" columns={columns} dataSource={rows} loading={loading} pagination={false} locale={{ emptyText: t("empty") }} scroll={{ x: true }} />
      {hasMore ? (
        <div style={{ textAlign: "center", marginTop: 12 }} className="no-print">
          <Button onClick={() => void load(filters, page + 1)} loading={loading} data-testid="load-more">
            {t("loadMore")}
          </Button>
        </div>
      ) : null}
      {chat ? <ChatModal ticketId={chat.id} title={`${chat.protocol ?? `#${chat.id}`} — ${chat.contact.name}`} onClose={() => setChat(null)} /> : null}
    </div>
  );
}
