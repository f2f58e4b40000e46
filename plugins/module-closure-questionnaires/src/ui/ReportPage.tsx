import { useCallback, useEffect, useRef, useState } from "react";
import { Button, Card, Col, Empty, Input, Row, Select, Space, Statistic, Typography } from "antd";
import { downloadExport } from "@openatende/report-kit/src/ui/download";
import { monthOf, readerZone } from "@openatende/report-kit/src/ui/month";
import { QuestionChart } from "./QuestionChart";
import { useRuntime } from "./runtime";
import type { QuestionnaireReport } from "./types";

interface Answer {
  period: { from: string; to: string };
  questionnaires: Array<{ id: number; name: string; active: boolean }>;
  report: QuestionnaireReport | null;
}
interface Filters {
  questionnaireId?: number;
  from: string;
  to: string;
}

const queryOf = (f: Filters) => ({ questionnaireId: f.questionnaireId ? String(f.questionnaireId) : undefined, from: f.from || undefined, to: f.to || undefined, tz: readerZone() });

/**
 * /relatorios/relatorio-closure-questionnaires (spec §2): one questionnaire's answers in the
 * period (the current month by default), a card per question drawn by its report type, how
 * many tickets were answered and how many closes skipped the questionnaire; Excel, PDF (the
 * same figures as one table, streamed by the server) and print. With no
 * questionnaire yet it says so.
 */
export default function ReportPage() {
  const runtime = useRuntime();
  const t = runtime.t;
  const [draft, setDraft] = useState<Filters>(() => monthOf());
  const [filters, setFilters] = useState(draft);
  const [data, setData] = useState<Answer | null>(null);
  const [loading, setLoading] = useState(false);
  const seq = useRef(0);

  const load = useCallback(
    async (f: Filters) => {
      const mine = ++seq.current;
      setLoading(true);
      try {
        const r = await runtime.api.get<Answer>("/relatorios/closure-questionnaires", { query: queryOf(f) });
        if (mine === seq.current) setData(r);
      } catch (err) {
        runtime.notify.error(err);
      } finally {
        if (mine === seq.current) setLoading(false);
      }
    },
    [runtime],
  );
  useEffect(() => void load(filters), [filters, load]);

  const report = data?.report ?? null;
  const chosen = filters.questionnaireId ?? report?.questionnaire.id;
  return (
    <div data-testid="cq-report" style={{ padding: 24 }}>
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t("reportTitle")}
      </Typography.Title>
      <Space wrap style={{ marginBottom: 16 }} className="oa-no-print">
        <Select
          data-testid="cq-report-questionnaire"
          style={{ minWidth: 240 }}
          placeholder={t("report.questionnaire")}
          value={chosen}
          options={(data?.questionnaires ?? []).map((q) => ({ value: q.id, label: q.name }))}
          onChange={(questionnaireId: number) => {
            const next = { ...draft, questionnaireId };
            setDraft(next);
            setFilters(next);
          }}
        />
        <Input type="date" aria-label={t("report.from")} value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} style={{ width: 160 }} />
        <Input type="date" aria-label={t("report.to")} value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} style={{ width: 160 }} />
        <Button type="primary" loading={loading} onClick={() => setFilters(draft)} data-testid="cq-report-apply">
          {t("report.apply")}
        </Button>
        {(["xlsx", "pdf"] as const).map((format) => (
          <Button
            key={format}
            data-testid={`cq-report-export-${format}`}
            disabled={!report}
            onClick={() => void downloadExport(runtime, "/relatorios/closure-questionnaires/export", { ...queryOf(filters), format }, `${t("reportTitle")}.${format}`)}
          >
            {t(format === "xlsx" ? "report.excel" : "report.pdf")}
          </Button>
        ))}
        <Button onClick={() => window.print()}>{t("report.print")}</Button>
      </Space>
      {data && !report ? <Empty description={t("report.none")} /> : null}
      {report ? (
        <>
          {report.questionnaire.description ? <Typography.Paragraph type="secondary">{report.questionnaire.description}</Typography.Paragraph> : null}
          <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
            <Col xs={12} md={6}>
              <Card size="small" data-testid="cq-report-answered">
                <Statistic title={t("report.answered")} value={report.answered} />
              </Card>
            </Col>
            <Col xs={12} md={6}>
              <Card size="small" data-testid="cq-report-skipped">
                <Statistic title={t("report.skipped")} value={report.skipped.total} />
              </Card>
            </Col>
            <Col xs={24} md={12}>
              <Card size="small">
                <Space size="large" wrap>
                  {(["mass", "automatic", "plugin"] as const).map((k) => (
                    <Statistic key={k} title={t(`report.${k}`)} value={report.skipped[k]} />
                  ))}
                </Space>
              </Card>
            </Col>
          </Row>
          {report.answered === 0 ? <Empty description={t("report.noAnswers")} /> : null}
          <Row gutter={[16, 16]}>
            {report.questions.map((q) => (
              <Col key={q.id} xs={24} lg={12}>
                <Card size="small" title={q.question} extra={t("report.answers", { count: q.answered })} data-testid={`cq-report-question-${q.id}`}>
                  <QuestionChart runtime={runtime} q={q} />
                </Card>
              </Col>
            ))}
          </Row>
        </>
      ) : null}
    </div>
  );
}
