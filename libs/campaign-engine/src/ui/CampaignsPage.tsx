/**
 * /{routeBase}: the type's campaigns — name, status, start, progress of the counts, the
 * message's summary and the actions the status allows — filtered by status and name, with the
 * create/edit form. The list follows CAMPAIGN_PROGRESS_EVENT (a campaign's counts and status
 * change live) and reloads after each action.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Button, Input, Progress, Select, Space, Table, Tag, Typography } from "antd";
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import { CAMPAIGN_PROGRESS_EVENT, CAMPAIGN_STATUSES, type CampaignCounts, type CampaignStatus } from "@openatende/plugin-sdk/src/campaign-contract";
import { CampaignActions } from "./actions";
import { CampaignForm } from "./CampaignForm";
import { formatDateTime, progressPercent, STATUS_COLORS, type Campaign, type CampaignUiType } from "./model";

export interface ProgressPush {
  campaignId: number;
  status: CampaignStatus;
  counts: CampaignCounts;
}

export function isProgressPush(p: unknown): p is ProgressPush {
  const x = p as ProgressPush | null;
  return !!x && typeof x.campaignId === "number" && typeof x.status === "string" && !!x.counts;
}

export function CampaignsPage<C>({ runtime, type }: { runtime: ShellRuntime; type: CampaignUiType<C> }) {
  const t = runtime.t;
  const base = type.routeBase;
  const [rows, setRows] = useState<Campaign<C>[]>([]);
  const [loading, setLoading] = useState(true);
  const [status, setStatus] = useState<CampaignStatus | undefined>();
  const [search, setSearch] = useState("");
  const [form, setForm] = useState<{ editing?: Campaign<C> } | null>(null);
  const seq = useRef(0);

  const load = useCallback(async () => {
    const mine = ++seq.current;
    try {
      const list = await runtime.api.get<Campaign<C>[]>(`/${base}`, { silent: true });
      if (mine === seq.current) setRows(list);
    } catch (err) {
      if (mine === seq.current) runtime.notify.error(err);
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  }, [runtime, base]);

  useEffect(() => void load(), [load]);
  useEffect(
    () =>
      runtime.realtime.on(CAMPAIGN_PROGRESS_EVENT, (p) => {
        if (!isProgressPush(p)) return;
        setRows((old) => (old.some((c) => c.id === p.campaignId) ? old.map((c) => (c.id === p.campaignId ? { ...c, status: p.status, counts: p.counts } : c)) : old));
      }),
    [runtime],
  );

  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    return rows.filter((c) => (!status || c.status === status) && (!q || c.name.toLowerCase().includes(q))).sort((a, b) => b.id - a.id);
  }, [rows, status, search]);

  const title = type.title[runtime.locale] ?? type.title["pt-BR"];
  return (
    <div style={{ padding: 24 }} data-testid="campaigns-page">
      <Space style={{ width: "100%", justifyContent: "space-between", alignItems: "flex-start" }} wrap>
        <div>
          <Typography.Title level={3} style={{ marginTop: 0, marginBottom: 4 }}>
            {title}
          </Typography.Title>
          <Typography.Paragraph type="secondary">{t("campaign.subtitle")}</Typography.Paragraph>
        </div>
        <Button type="primary" onClick={() => setForm({})} data-testid="campaign-new">
          {t("campaign.new")}
        </Button>
      </Space>
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search allowClear placeholder={t("campaign.search")} value={search} onChange={(e) => setSearch(e.target.value)} style={{ width: 260 }} data-testid="campaign-search" />
        <Select
          allowClear
          placeholder={t("campaign.anyStatus")}
          value={status}
          onChange={(v) => setStatus(v)}
          style={{ width: 200 }}
          options={CAMPAIGN_STATUSES.map((s) => ({ value: s, label: t(`campaign.status.${s}`) }))}
          data-testid="campaign-status-filter"
        />
      </Space>
      <Table<Campaign<C>>
        rowKey="id"
        loading={loading}
        dataSource={shown}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{ emptyText: t("campaign.empty") }}
        scroll={{ x: true }}
        onRow={(c) => ({ "data-testid": `campaign-row-${c.id}` }) as never}
        columns={[
          {
            title: t("campaign.col.name"),
            dataIndex: "name",
            render: (_, c) => (
              <a href={`#/${base}/${c.id}`} data-testid={`campaign-open-${c.id}`}>
                {c.name}
              </a>
            ),
          },
          { title: t("campaign.col.status"), dataIndex: "status", render: (s: CampaignStatus, c) => <Tag color={STATUS_COLORS[s]} data-testid={`campaign-status-${c.id}`}>{t(`campaign.status.${s}`)}</Tag> },
          { title: t("campaign.col.start"), dataIndex: "startAt", render: (v: number) => formatDateTime(v, runtime.locale) },
          {
            title: t("campaign.col.progress"),
            key: "progress",
            render: (_, c) => (
              <div style={{ minWidth: 180 }}>
                <Progress percent={progressPercent(c.counts)} size="small" status={c.status === "processing" ? "active" : undefined} />
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t("campaign.counts.contacts")}: {c.counts.contacts} · {t("campaign.counts.toSend")}: {c.counts.toSend} · {t("campaign.counts.read")}: {c.counts.read} · {t("campaign.counts.failed")}: {c.counts.failed}
                </Typography.Text>
              </div>
            ),
          },
          { title: t("campaign.col.content"), key: "content", ellipsis: true, render: (_, c) => type.contentSummary(c.content, t) },
          {
            title: t("campaign.col.actions"),
            key: "actions",
            render: (_, c) => <CampaignActions runtime={runtime} base={base} campaign={c} onEdit={(x) => setForm({ editing: x as Campaign<C> })} onDone={() => void load()} />,
          },
        ]}
      />
      {form ? (
        <CampaignForm
          runtime={runtime}
          type={type}
          editing={form.editing}
          onClose={() => setForm(null)}
          onSaved={(c) => {
            setForm(null);
            void load();
            if (!form.editing) window.location.hash = `#/${base}/${c.id}`;
          }}
        />
      ) : null}
    </div>
  );
}
