import { useCallback, useEffect, useMemo, useState } from "react";
import { Button, Card, Checkbox, Input, InputNumber, Select, Space, Table, Tag, Typography } from "antd";
import { downloadExport } from "@openatende/report-kit/src/ui/download";
import { ReportHead } from "@openatende/report-kit/src/ui/report-head";
import { useRuntime } from "./runtime";
import { defaultMessage } from "./texts";
import { Activity } from "./Activity";
import type { BirthdayRow, Listing, Period } from "./types";

const API = "/relatorios/aniversariantes";
const PLACEHOLDERS = ["{{name}}", "{{age}}"];
const dm = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}`;

/**
 * /relatorios/aniversariantes-do-mes (spec §2 Reports, §9): the period type (month, today, this
 * week) and the month, the birthdays with the age they turn, select-all and per-row selection,
 * a message with the name and age placeholders sent now through a connection with a delay
 * between messages, or scheduled at 9:00 on each birthday not yet passed this year; below,
 * the sends' progress and the scheduled messages (cancellable). The list prints (the controls,
 * the message and the activity hidden) and exports as Excel or PDF with the same columns.
 */
export default function BirthdaysPage() {
  const runtime = useRuntime();
  const t = runtime.t;
  const [period, setPeriod] = useState<Period>("month");
  // Unset: the tenant's current month (the server's answer says which).
  const [month, setMonth] = useState<number | undefined>();
  const [listing, setListing] = useState<Listing | null>(null);
  const [loading, setLoading] = useState(false);
  const [selected, setSelected] = useState<number[]>([]);
  const [body, setBody] = useState(() => defaultMessage(runtime.locale));
  const [connections, setConnections] = useState<Array<{ id: number; name: string }>>([]);
  const [connectionId, setConnectionId] = useState<number | undefined>();
  const [delay, setDelay] = useState<number>(5);
  const [busy, setBusy] = useState<"send" | "schedule" | null>(null);
  const [version, setVersion] = useState(0);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const r = await runtime.api.get<Listing>(`${API}/contacts`, { query: { period, month: period === "month" ? month : undefined } });
      setListing(r);
      setSelected((prev) => prev.filter((id) => r.rows.some((x) => x.id === id)));
    } catch {
      setListing(null);
    } finally {
      setLoading(false);
    }
  }, [runtime, period, month]);

  useEffect(() => void load(), [load, version]);
  useEffect(() => {
    runtime.api.get<Array<{ id: number; name: string }>>("/connections", { silent: true }).then(
      (list) => {
        setConnections(list);
        if (list.length === 1) setConnectionId(list[0].id);
      },
      (err) => runtime.notify.error(err),
    );
  }, [runtime]);

  const rows = listing?.rows ?? [];
  const allChecked = rows.length > 0 && selected.length === rows.length;
  const payload = () => ({ period, month: period === "month" ? month : undefined, contactIds: selected, connectionId, body });

  const ready = (): boolean => {
    if (!selected.length) runtime.notify.info(t("needSelection"));
    else if (!connectionId) runtime.notify.info(t("chooseConnection"));
    else return true;
    return false;
  };

  const sendNow = async () => {
    if (!ready()) return;
    setBusy("send");
    try {
      await runtime.api.post(`${API}/send`, { ...payload(), delaySeconds: delay });
      runtime.notify.success(t("sendStarted", { count: selected.length }));
      setSelected([]);
      setVersion((v) => v + 1);
    } catch (err) {
      runtime.notify.error(err);
    } finally {
      setBusy(null);
    }
  };

  const schedule = async () => {
    if (!ready()) return;
    setBusy("schedule");
    try {
      const r = await runtime.api.post<{ scheduled: unknown[]; skipped: unknown[] }>(`${API}/schedule`, payload());
      runtime.notify.success(t("scheduledDone", { count: r.scheduled.length, skipped: r.skipped.length }));
      setSelected([]);
      setVersion((v) => v + 1);
    } catch (err) {
      runtime.notify.error(err);
    } finally {
      setBusy(null);
    }
  };

  const exportAs = (format: "xlsx" | "pdf") =>
    downloadExport(runtime, `${API}/export`, { period, month: period === "month" && month ? String(month) : undefined, format }, `${t("title")}.${format}`).catch((err) => runtime.notify.error(err));

  const months = useMemo(() => monthNames(runtime.locale), [runtime.locale]);
  const statusOf = (r: BirthdayRow) => {
    if (r.scheduledId) return <Tag color="purple">{t("scheduledTag")}</Tag>;
    if (r.passed) return <Tag>{t("passed")}</Tag>;
    if (listing && r.date === todayIso(listing.timeZone)) return <Tag color="magenta">{t("today")}</Tag>;
    return <Tag color="blue">{t("upcoming")}</Tag>;
  };

  const columns = [
    { title: t("col.name"), key: "name", render: (r: BirthdayRow) => r.name },
    { title: t("col.number"), key: "number", render: (r: BirthdayRow) => r.number ?? "—" },
    { title: t("col.birthday"), key: "birthday", render: (r: BirthdayRow) => dm(r.date) },
    { title: t("col.age"), key: "age", render: (r: BirthdayRow) => t("years", { age: r.age }) },
    { title: t("col.status"), key: "status", render: statusOf },
  ];

  return (
    <div style={{ padding: 24 }} data-testid="birthdays-report">
      <ReportHead title={t("title")} texts={{ print: t("print"), excel: t("excel"), pdf: t("pdf") }} onExport={(f) => void exportAs(f)} printDisabled={!rows.length} printTestId="birthdays-print" />
      <Space wrap style={{ display: "flex", marginBottom: 16 }} className="no-print">
        <span>{t("periodType")}</span>
        <Select<Period>
          value={period}
          onChange={setPeriod}
          style={{ width: 160 }}
          data-testid="birthdays-period"
          options={(["month", "today", "week"] as const).map((p) => ({ value: p, label: t(`period.${p}`) }))}
        />
        {period === "month" ? (
          <Select<number>
            value={month ?? (listing ? Number(listing.from.slice(5, 7)) : undefined)}
            onChange={setMonth}
            style={{ width: 160 }}
            aria-label={t("month")}
            data-testid="birthdays-month"
            options={months.map((label, i) => ({ value: i + 1, label }))}
          />
        ) : null}
        <Button onClick={() => void load()} data-testid="birthdays-refresh">
          {t("refresh")}
        </Button>
      </Space>
      <Space style={{ display: "flex", marginBottom: 8 }} className="no-print">
        <Checkbox checked={allChecked} indeterminate={selected.length > 0 && !allChecked} disabled={!rows.length} onChange={(e) => setSelected(e.target.checked ? rows.map((r) => r.id) : [])} data-testid="birthdays-select-all">
          {t("selectAll")}
        </Checkbox>
        <Typography.Text type="secondary" data-testid="birthdays-selected">
          {t("selected", { count: selected.length, total: rows.length })}
        </Typography.Text>
      </Space>
      <Table
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={rows}
        loading={loading}
        pagination={false}
        locale={{ emptyText: t("empty") }}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)), getCheckboxProps: (r: BirthdayRow) => ({ "data-testid": `birthday-row-${r.id}` }) as never }}
        scroll={{ x: true }}
      />
      <Card style={{ marginTop: 16 }} title={t("message")} className="no-print">
        <Space direction="vertical" style={{ width: "100%" }}>
          <Input.TextArea rows={3} value={body} onChange={(e) => setBody(e.target.value)} maxLength={4000} data-testid="birthdays-message" />
          <Typography.Text type="secondary">
            {t("messageHint")}:{" "}
            {PLACEHOLDERS.map((p) => (
              <Typography.Text code key={p} copyable={{ text: p }}>
                {p}
              </Typography.Text>
            ))}
          </Typography.Text>
          <Space wrap>
            <Select<number> placeholder={t("connection")} style={{ width: 240 }} value={connectionId} onChange={setConnectionId} options={connections.map((c) => ({ value: c.id, label: c.name }))} data-testid="birthdays-connection" />
            <span>{t("delay")}</span>
            <InputNumber min={0} max={3600} value={delay} onChange={(v) => setDelay(Number(v ?? 0))} data-testid="birthdays-delay" />
          </Space>
          <Space wrap>
            <Button type="primary" onClick={() => void sendNow()} loading={busy === "send"} data-testid="birthdays-send">
              {t("sendNow")}
            </Button>
            <Button onClick={() => void schedule()} loading={busy === "schedule"} data-testid="birthdays-schedule">
              {t("schedule")}
            </Button>
          </Space>
          <Typography.Text type="secondary">{t("scheduleHint")}</Typography.Text>
        </Space>
      </Card>
      <div className="no-print">
        <Activity version={version} timeZone={listing?.timeZone ?? "America/Sao_Paulo"} onChange={() => setVersion((v) => v + 1)} />
      </div>
    </div>
  );
}

/** The months' names in the locale, capitalised ("Janeiro"…). */
function monthNames(locale: string): string[] {
  const f = new Intl.DateTimeFormat(locale, { month: "long", timeZone: "UTC" });
  return Array.from({ length: 12 }, (_, i) => {
    const name = f.format(new Date(Date.UTC(2026, i, 15)));
    return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
  });
}

/** Today's date ("YYYY-MM-DD") in the time zone. */
function todayIso(timeZone: string): string {
  const p = Object.fromEntries(new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(new Date()).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}`;
}
