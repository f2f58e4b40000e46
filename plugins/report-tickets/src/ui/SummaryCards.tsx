import { Card, Col, Row, Statistic } from "antd";
import { useRuntime } from "./runtime";
import { count, minutes, percent } from "./format";
import type { Summary } from "./types";

const COLORS = { onTime: "#2e7d32", attention: "#f9a825", overdue: "#c62828" } as const;

/** The cards of spec §2: closed on time / attention / overdue, in progress, total, resolution rate, open and pending. */
export function SummaryCards({ s }: { s: Summary }) {
  const t = useRuntime().t;
  const closedTotal = Math.max(1, s.closed);
  const card = (key: string, title: string, value: string, color?: string, extra?: string) => (
    <Col xs={12} md={6} xl={3} key={key}>
      <Card size="small" data-testid={`card-${key}`}>
        <Statistic title={title} value={value} valueStyle={color ? { color } : undefined} />
        {extra ? <div style={{ fontSize: 12, color: "#888" }}>{extra}</div> : null}
      </Card>
    </Col>
  );
  const slaCard = (k: "onTime" | "attention" | "overdue") => card(k, t(`cards.${k}`), s.sla ? count(s.closedSla[k]) : "—", COLORS[k], s.sla ? percent(s.closedSla[k] / closedTotal) : t("cards.slaMissing"));
  return (
    <Row gutter={[12, 12]} style={{ marginBottom: 16 }}>
      {slaCard("onTime")}
      {slaCard("attention")}
      {slaCard("overdue")}
      {card("inProgress", t("cards.inProgress"), count(s.inProgress), undefined, s.sla ? `${t("sla.onTime")} ${s.inProgressSla.onTime} · ${t("sla.attention")} ${s.inProgressSla.attention} · ${t("sla.overdue")} ${s.inProgressSla.overdue}` : undefined)}
      {card("total", t("cards.total"), count(s.total))}
      {card("resolutionRate", t("cards.resolutionRate"), percent(s.resolutionRate), undefined, `${t("cards.avgResolution")}: ${minutes(s.avgResolutionMs)}`)}
      {card("open", t("cards.open"), count(s.open))}
      {card("pending", t("cards.pending"), count(s.pending))}
    </Row>
  );
}
