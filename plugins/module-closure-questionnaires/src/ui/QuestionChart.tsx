import { Descriptions, Table } from "antd";
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import { BarChart } from "@openatende/report-kit/src/ui/bar-chart";
import { PieChart } from "./PieChart";
import type { QuestionReport } from "./types";

const dateTime = new Intl.DateTimeFormat("pt-BR", { dateStyle: "short", timeStyle: "short" });
const money = (s: string) => `R$ ${s}`;

/** One question's answers the way its report type asks: bars, a pie, the average or the list. */
export function QuestionChart({ runtime, q }: { runtime: ShellRuntime; q: QuestionReport }) {
  const t = runtime.t;
  const testId = `cq-chart-${q.id}`;
  if (q.reportType === "bar" && q.counts) return <BarChart testId={testId} items={q.counts.map((c) => ({ label: c.label, values: { count: c.count } }))} series={[{ key: "count", label: t("report.count"), color: "#15803d" }]} />;
  if (q.reportType === "pie" && q.counts) return <PieChart testId={testId} items={q.counts} />;
  if (q.reportType === "average") {
    if (!q.stats) return <span data-testid={testId}>—</span>;
    // Labels above their figures: four side by side in half a row leave a figure no room on one line.
    const f = (s: string) => <span style={{ whiteSpace: "nowrap" }}>{q.type === "currency" ? money(s) : s}</span>;
    return (
      <Descriptions data-testid={testId} size="small" column={4} layout="vertical" bordered>
        <Descriptions.Item label={t("report.average")}>{f(q.stats.text.average)}</Descriptions.Item>
        <Descriptions.Item label={t("report.min")}>{f(q.stats.text.min)}</Descriptions.Item>
        <Descriptions.Item label={t("report.max")}>{f(q.stats.text.max)}</Descriptions.Item>
        <Descriptions.Item label={t("report.sum")}>{f(q.stats.text.sum)}</Descriptions.Item>
      </Descriptions>
    );
  }
  return (
    <Table
      data-testid={testId}
      size="small"
      rowKey={(r) => `${r.ticketId}-${r.answeredAt}`}
      pagination={false}
      dataSource={q.values ?? []}
      columns={[
        { title: t("report.ticket"), dataIndex: "ticketId", key: "ticket", width: 90, render: (id: number) => <a href={`#/atendimento/${id}`}>#{id}</a> },
        { title: t("report.answer"), dataIndex: "value", key: "value", render: (v: string) => (q.type === "currency" ? money(v) : v) },
        { title: t("report.date"), dataIndex: "answeredAt", key: "date", width: 160, render: (ms: number) => dateTime.format(new Date(ms)) },
      ]}
    />
  );
}
