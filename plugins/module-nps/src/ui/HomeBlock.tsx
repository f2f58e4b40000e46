import { useEffect, useState } from "react";
import { Alert, Col, Row, Segmented, Statistic, Table, Typography } from "antd";
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import type { Figures, StatsView } from "./types";

type PeriodKey = "today" | "days7" | "days30";
const DAY = 86_400_000;

function fromOf(p: PeriodKey, now = new Date()): string {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  return new Date(p === "today" ? midnight : midnight - (p === "days7" ? 6 : 29) * DAY).toISOString();
}

type Row = Figures & { key: string; name: string | null };

/** The rows of one table: the queues' or the users' figures, keyed by their id ("none": without). */
function rowsOf(stats: StatsView | null, k: "queue" | "user"): Row[] {
  if (!stats) return [];
  return k === "queue" ? stats.byQueue.map(({ queueId, ...f }) => ({ key: String(queueId ?? "none"), ...f })) : stats.byUser.map(({ userId, ...f }) => ({ key: String(userId ?? "none"), ...f }));
}

const scoreColor = (s: number | null) => (s === null ? undefined : s >= 50 ? "#16a34a" : s >= 0 ? "#ca8a04" : "#dc2626");

/** /home's NPS block: the score of the period's answers, its three groups, and the same by queue and by user. */
export default function HomeBlock({ runtime }: { runtime: ShellRuntime }) {
  const t = runtime.t;
  const [period, setPeriod] = useState<PeriodKey>("days30");
  const [stats, setStats] = useState<StatsView | null>(null);

  useEffect(() => {
    let live = true;
    runtime.api.get<StatsView>("/nps/stats", { query: { from: fromOf(period) }, silent: true }).then((s) => live && setStats(s), () => undefined);
    return () => {
      live = false;
    };
  }, [runtime, period]);

  const columns = (key: "queue" | "user") => [
    { title: t(key), dataIndex: "name", render: (n: string | null) => n ?? t(key === "queue" ? "noQueue" : "noUser") },
    { title: t("score"), dataIndex: "score", width: 80, render: (s: number | null) => <b style={{ color: scoreColor(s) }}>{s ?? "—"}</b> },
    { title: t("promoters"), dataIndex: "promoters", width: 100 },
    { title: t("passives"), dataIndex: "passives", width: 100 },
    { title: t("detractors"), dataIndex: "detractors", width: 100 },
    { title: t("answered"), dataIndex: "answered", width: 100 },
  ];
  const total: (Figures & { asked: number }) | undefined = stats?.total;
  return (
    <div data-testid="nps-block" aria-busy={!stats}>
      <Segmented<PeriodKey>
        value={period}
        onChange={setPeriod}
        options={(["today", "days7", "days30"] as const).map((p) => ({ value: p, label: t(p) }))}
        data-testid="nps-period"
        style={{ marginBottom: 12 }}
      />
      {stats && !stats.enabled ? <Alert type="info" showIcon title={t("disabled")} style={{ marginBottom: 12 }} data-testid="nps-disabled" /> : null}
      <Row gutter={16} data-testid="nps-total">
        <Col xs={12} md={4}>
          <Statistic title={t("score")} value={total?.score ?? "—"} styles={{ content: { color: scoreColor(total?.score ?? null) } }} data-testid="nps-score" />
        </Col>
        {(["promoters", "passives", "detractors", "answered", "asked"] as const).map((k) => (
          <Col xs={12} md={4} key={k}>
            <Statistic title={t(k)} value={total?.[k] ?? 0} data-testid={`nps-${k}`} />
          </Col>
        ))}
      </Row>
      <Row gutter={16} style={{ marginTop: 12 }}>
        {(["queue", "user"] as const).map((k) => (
          <Col xs={24} lg={12} key={k}>
            <Typography.Text strong>{t(k === "queue" ? "byQueue" : "byUser")}</Typography.Text>
            <Table<Row>
              size="small"
              pagination={false}
              rowKey="key"
              dataSource={rowsOf(stats, k)}
              columns={columns(k)}
              locale={{ emptyText: t("empty") }}
              data-testid={`nps-by-${k}`}
            />
          </Col>
        ))}
      </Row>
    </div>
  );
}
