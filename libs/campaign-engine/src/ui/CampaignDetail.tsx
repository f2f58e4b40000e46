/**
 * /{routeBase}/{id}: one campaign — its status, start, connections, interval and message, the
 * live counts (to send, delivered, received, read, played, failed) with a progress bar moved by
 * CAMPAIGN_PROGRESS_EVENT, the actions its status allows, and its contacts with each one's
 * status and fail reason (filtered by status, paged; reloaded as the counts move).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { Alert, Card, Col, Descriptions, Progress, Row, Select, Space, Statistic, Table, Tag, Typography } from "antd";
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import { CAMPAIGN_CONTACT_STATUSES, CAMPAIGN_PROGRESS_EVENT, type CampaignContactStatus, type CampaignContactView, type CampaignCounts } from "@openatende/plugin-sdk/src/campaign-contract";
import { CampaignActions } from "./actions";
import { isProgressPush } from "./CampaignsPage";
import { CampaignForm } from "./CampaignForm";
import { formatDateTime, progressPercent, STATUS_COLORS, type Campaign, type CampaignUiType } from "./model";

const COUNT_KEYS: Array<keyof CampaignCounts> = ["toSend", "delivered", "received", "read", "played", "failed"];
const PAGE = 50;

/** The campaign id of the current hash route `#/<base>/<id>` (null when it is not one). */
export function idFromHash(hash: string, base: string): number | null {
  const m = new RegExp(`^#?/${base}/(\\d+)/?(?:\\?.*)?$`).exec(hash);
  return m ? Number(m[1]) : null;
}

function useHashId(base: string): number | null {
  const [id, setId] = useState(() => idFromHash(window.location.hash, base));
  useEffect(() => {
    const on = () => setId(idFromHash(window.location.hash, base));
    window.addEventListener("hashchange", on);
    return () => window.removeEventListener("hashchange", on);
  }, [base]);
  return id;
}

export function CampaignDetail<C>({ runtime, type }: { runtime: ShellRuntime; type: CampaignUiType<C> }) {
  const t = runtime.t;
  const base = type.routeBase;
  const id = useHashId(base);
  const [campaign, setCampaign] = useState<Campaign<C> | null>(null);
  const [missing, setMissing] = useState<string | null>(null);
  const [contacts, setContacts] = useState<{ rows: CampaignContactView[]; count: number }>({ rows: [], count: 0 });
  const [filter, setFilter] = useState<CampaignContactStatus | undefined>();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState(false);
  const [connections, setConnections] = useState<Record<number, string>>({});
  const reloadTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const loadCampaign = useCallback(async () => {
    if (id === null) return;
    try {
      setCampaign(await runtime.api.get<Campaign<C>>(`/${base}/item`, { query: { id }, silent: true }));
      setMissing(null);
    } catch (err) {
      const e = err as { detail?: string; title?: string; status?: number };
      if (e.status === 404) setMissing(e.detail || e.title || "");
      runtime.notify.error(err);
    }
  }, [runtime, base, id]);

  const loadContacts = useCallback(async () => {
    if (id === null) return;
    try {
      setContacts(await runtime.api.get(`/${base}/item/contacts`, { query: { id, status: filter, page, limit: PAGE }, silent: true }));
    } catch (err) {
      runtime.notify.error(err);
    }
  }, [runtime, base, id, filter, page]);

  useEffect(() => void loadCampaign(), [loadCampaign]);
  useEffect(() => void loadContacts(), [loadContacts]);
  useEffect(() => {
    runtime.api.get<Array<{ id: number; name: string }>>("/connections", { silent: true }).then(
      (rows) => setConnections(Object.fromEntries(rows.map((c) => [c.id, c.name]))),
      () => undefined,
    );
  }, [runtime]);

  // The live push moves the counts at once; the contacts' page follows, at most twice a second.
  useEffect(
    () =>
      runtime.realtime.on(CAMPAIGN_PROGRESS_EVENT, (p) => {
        if (!isProgressPush(p) || p.campaignId !== id) return;
        setCampaign((c) => (c ? { ...c, status: p.status, counts: p.counts } : c));
        if (!reloadTimer.current)
          reloadTimer.current = setTimeout(() => {
            reloadTimer.current = null;
            void loadContacts();
          }, 500);
      }),
    [runtime, id, loadContacts],
  );
  useEffect(() => () => void (reloadTimer.current && clearTimeout(reloadTimer.current)), []);

  const back = (
    <a href={`#/${base}`} data-testid="campaign-back">
      ← {t("campaign.detail.back")}
    </a>
  );
  if (id === null || missing !== null)
    return (
      <div style={{ padding: 24 }} data-testid="campaign-detail-missing">
        {back}
        <Alert style={{ marginTop: 16 }} type="warning" showIcon message={missing || t("campaign.empty")} />
      </div>
    );
  if (!campaign) return <div className="oa-page-loading">{t("common.loading")}</div>;

  const c = campaign;
  return (
    <div style={{ padding: 24 }} data-testid="campaign-detail">
      {back}
      <Space style={{ width: "100%", justifyContent: "space-between", margin: "12px 0" }} wrap>
        <Space align="center">
          <Typography.Title level={3} style={{ margin: 0 }} data-testid="campaign-detail-name">
            {c.name}
          </Typography.Title>
          <Tag color={STATUS_COLORS[c.status]} data-testid="campaign-detail-status">
            {t(`campaign.status.${c.status}`)}
          </Tag>
        </Space>
        <CampaignActions
          runtime={runtime}
          base={base}
          campaign={c}
          size="middle"
          onEdit={() => setEditing(true)}
          onDone={(op) => {
            if (op === "delete") window.location.hash = `#/${base}`;
            else void loadCampaign();
          }}
        />
      </Space>
      <Descriptions size="small" column={{ xs: 1, md: 2 }} style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t("campaign.col.start")}>{formatDateTime(c.startAt, runtime.locale)}</Descriptions.Item>
        <Descriptions.Item label={t("campaign.detail.connections")}>{c.connectionIds.map((x) => connections[x] ?? `#${x}`).join(", ")}</Descriptions.Item>
        <Descriptions.Item label={t("campaign.col.content")}>{type.contentSummary(c.content, t)}</Descriptions.Item>
        <Descriptions.Item label={t("campaign.detail.pacing")}>
          {t("campaign.detail.interval", { min: c.minIntervalSeconds, max: c.maxIntervalSeconds })}
          {c.startedAt ? ` · ${t("campaign.detail.startedAt", { date: formatDateTime(c.startedAt, runtime.locale) })}` : ""}
          {c.finishedAt ? ` · ${t("campaign.detail.finishedAt", { date: formatDateTime(c.finishedAt, runtime.locale) })}` : ""}
        </Descriptions.Item>
      </Descriptions>
      <Card size="small" title={`${t("campaign.detail.progress")} · ${t("campaign.counts.contacts")}: ${c.counts.contacts}`} extra={<Typography.Text type="secondary">{t("campaign.detail.live")}</Typography.Text>} style={{ marginBottom: 16 }}>
        <Progress percent={progressPercent(c.counts)} status={c.status === "processing" ? "active" : c.counts.failed > 0 && c.status === "finished" ? "exception" : undefined} data-testid="campaign-progress" />
        <Row gutter={[16, 16]} style={{ marginTop: 8 }}>
          {COUNT_KEYS.map((k) => (
            <Col key={k} xs={12} sm={8} md={4}>
              <Statistic title={t(`campaign.counts.${k}`)} value={c.counts[k]} valueStyle={k === "failed" && c.counts.failed ? { color: "#cf1322" } : undefined} data-testid={`campaign-count-${k}`} />
            </Col>
          ))}
        </Row>
      </Card>
      <Space style={{ width: "100%", justifyContent: "space-between", marginBottom: 8 }} wrap>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t("campaign.detail.contacts")}
        </Typography.Title>
        <Select
          allowClear
          placeholder={t("campaign.anyStatus")}
          value={filter}
          onChange={(v) => {
            setFilter(v);
            setPage(1);
          }}
          style={{ width: 200 }}
          options={CAMPAIGN_CONTACT_STATUSES.map((s) => ({ value: s, label: t(`campaign.contactStatus.${s}`) }))}
          data-testid="campaign-contact-filter"
        />
      </Space>
      <Table<CampaignContactView>
        rowKey="id"
        size="small"
        dataSource={contacts.rows}
        pagination={{ current: page, pageSize: PAGE, total: contacts.count, onChange: setPage, hideOnSinglePage: true, showSizeChanger: false }}
        scroll={{ x: true }}
        data-testid="campaign-contacts-table"
        columns={[
          { title: t("campaign.col.contact"), dataIndex: "name" },
          { title: t("campaign.col.number"), dataIndex: "number", render: (v: string | null) => v ?? "—" },
          { title: t("campaign.col.status"), dataIndex: "status", render: (s: CampaignContactStatus) => <Tag color={s === "failed" ? "error" : s === "pending" || s === "sending" ? "default" : "success"}>{t(`campaign.contactStatus.${s}`)}</Tag> },
          { title: t("campaign.col.variant"), dataIndex: "variant", render: (v: number | null) => (v === null ? "—" : v + 1) },
          { title: t("campaign.col.sentAt"), dataIndex: "sentAt", render: (v: number | null) => formatDateTime(v, runtime.locale) },
          { title: t("campaign.col.failReason"), dataIndex: "failReason", render: (v: string | null) => (v ? <Typography.Text type="danger">{t(`errors.${v}.title`, { defaultValue: v })}</Typography.Text> : "") },
        ]}
      />
      {editing ? (
        <CampaignForm
          runtime={runtime}
          type={type}
          editing={c}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            void loadCampaign();
            void loadContacts();
          }}
        />
      ) : null}
    </div>
  );
}
