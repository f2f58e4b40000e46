import { useCallback, useEffect, useState } from "react";
import { Button, Card, List, Popconfirm, Progress, Table, Tag, Typography } from "antd";
import { useRuntime } from "./runtime";
import type { Batch, Scheduled } from "./types";

const API = "/relatorios/aniversariantes";
const COLORS = { running: "processing", finished: "success", pending: "purple", sent: "green", failed: "red", cancelled: "default" } as const;

/**
 * Below the page: the latest sends with their progress (asked again while one runs, and on
 * each `birthdays.changed` push) and the pending birthday messages, each cancellable.
 */
export function Activity({ version, timeZone, onChange }: { version: number; timeZone: string; onChange: () => void }) {
  const runtime = useRuntime();
  const t = runtime.t;
  const [batches, setBatches] = useState<Batch[]>([]);
  const [scheduled, setScheduled] = useState<Scheduled[]>([]);
  const [tick, setTick] = useState(0);

  const load = useCallback(async () => {
    try {
      const [b, s] = await Promise.all([runtime.api.get<Batch[]>(`${API}/sends`, { silent: true }), runtime.api.get<Scheduled[]>(`${API}/scheduled`, { silent: true })]);
      setBatches(b.slice(0, 5));
      setScheduled(s);
    } catch {
      // The page's own listing shows the error; these lists stay as they were.
    }
  }, [runtime]);

  useEffect(() => void load(), [load, version, tick]);
  useEffect(() => runtime.realtime.on("birthdays.changed", () => setTick((x) => x + 1)), [runtime]);
  // While a send runs, its progress is asked again every two seconds (a missed push changes nothing).
  const running = batches.some((b) => b.status === "running");
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setTick((x) => x + 1), 2000);
    return () => clearInterval(timer);
  }, [running]);

  const when = (ms: number) => new Date(ms).toLocaleString(runtime.locale, { timeZone, dateStyle: "short", timeStyle: "short" });
  const cancel = async (id: number) => {
    try {
      await runtime.api.post(`${API}/scheduled/cancel`, { id });
      onChange();
    } catch (err) {
      runtime.notify.error(err);
    }
  };

  return (
    <>
      {batches.length ? (
        <Card style={{ marginTop: 16 }} title={t("progress")} data-testid="birthdays-progress">
          <List
            dataSource={batches}
            renderItem={(b) => (
              <List.Item key={b.id} data-testid={`batch-${b.id}`}>
                <div style={{ width: "100%" }}>
                  <Tag color={COLORS[b.status]}>{t(`st.${b.status}`)}</Tag>
                  <Typography.Text type="secondary">{when(b.createdAt)}</Typography.Text>{" "}
                  <Typography.Text data-testid={`batch-line-${b.id}`}>{t("progressLine", { sent: b.sent, failed: b.failed, total: b.total })}</Typography.Text>
                  <Progress percent={Math.round(((b.sent + b.failed) / Math.max(b.total, 1)) * 100)} status={b.status === "running" ? "active" : b.failed ? "exception" : "success"} size="small" />
                </div>
              </List.Item>
            )}
          />
        </Card>
      ) : null}
      <Card style={{ marginTop: 16 }} title={t("scheduledList")}>
        <Table
          rowKey="id"
          size="small"
          dataSource={scheduled}
          pagination={false}
          locale={{ emptyText: t("noScheduled") }}
          data-testid="birthdays-scheduled"
          columns={[
            { title: t("col.name"), key: "name", render: (s: Scheduled) => s.name },
            { title: t("col.age"), key: "age", render: (s: Scheduled) => t("years", { age: s.age }) },
            { title: t("runAt"), key: "runAt", render: (s: Scheduled) => when(s.runAt) },
            { title: t("col.status"), key: "status", render: (s: Scheduled) => <Tag color={COLORS[s.status]}>{t(`st.${s.status}`)}</Tag> },
            {
              title: "",
              key: "cancel",
              render: (s: Scheduled) =>
                s.status === "pending" ? (
                  <Popconfirm title={t("cancelConfirm")} okText={t("yes")} cancelText={t("no")} onConfirm={() => void cancel(s.id)}>
                    <Button size="small" danger data-testid={`cancel-${s.id}`}>
                      {t("cancel")}
                    </Button>
                  </Popconfirm>
                ) : null,
            },
          ]}
        />
      </Card>
    </>
  );
}
