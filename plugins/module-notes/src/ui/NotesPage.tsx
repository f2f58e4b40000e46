/**
 * /notas: the tenant's ticket notes and contact notes in one list (GET /api/notes), with a
 * search box, author, tag and kind selects and a date range; a row opens the ticket or the
 * contact. Filters change the list after a short pause (the search) or at once (the selects).
 */
import { useCallback, useEffect, useMemo, useRef, useState, type HTMLAttributes } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { Button, Card, Empty, Input, Segmented, Select, Space, Table, Tag, Tooltip, Typography } from "antd";
import type { ColumnsType } from "antd/es/table";
import { ContactsOutlined, DownloadOutlined, MessageOutlined, SearchOutlined } from "@ant-design/icons";
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import type { PlatformNote } from "@openatende/plugin-sdk/src/core-api/contract";
import { excerpt, filtersFromParams, INITIAL_FILTERS, noteLink, notesQuery, rangeInvalid, type KindFilter, type NotesFilterState } from "./query";

interface Options {
  users: Array<{ id: number; name: string }>;
  tags: Array<{ id: number; name: string; color: string }>;
}

interface NotesPage {
  rows: PlatformNote[];
  count: number;
  hasMore: boolean;
}

const SEARCH_PAUSE_MS = 350;

export default function NotesPage({ runtime }: { runtime: ShellRuntime }) {
  const t = runtime.t;
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // A link may set the first filters (/notas?kind=contact is the contacts' notes view).
  const [f, setF] = useState<NotesFilterState>(() => filtersFromParams(params));
  const [searchText, setSearchText] = useState(f.search);
  const [data, setData] = useState<NotesPage>({ rows: [], count: 0, hasMore: false });
  const [loading, setLoading] = useState(true);
  const [exporting, setExporting] = useState(false);
  const [options, setOptions] = useState<Options>({ users: [], tags: [] });
  const seq = useRef(0);
  const seesAll = runtime.user.isAdmin || runtime.user.profile === "supervisor";

  const set = (patch: Partial<NotesFilterState>) => setF((s) => ({ ...s, page: 1, ...patch }));

  useEffect(() => {
    runtime.api
      .get<Options>("/notes/options", { silent: true })
      .then(setOptions)
      .catch(() => undefined);
  }, [runtime]);

  // The search box applies after a pause in typing.
  useEffect(() => {
    const h = setTimeout(() => setF((s) => (s.search === searchText ? s : { ...s, search: searchText, page: 1 })), SEARCH_PAUSE_MS);
    return () => clearTimeout(h);
  }, [searchText]);

  const badRange = rangeInvalid(f);
  const load = useCallback(async () => {
    if (badRange) return;
    const mine = ++seq.current;
    setLoading(true);
    try {
      const r = await runtime.api.get<NotesPage>("/notes", { query: notesQuery(f) });
      if (mine === seq.current) setData(r);
    } catch (err) {
      if (mine === seq.current) runtime.notify.error(err);
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  }, [runtime, f, badRange]);

  useEffect(() => {
    void load();
  }, [load]);

  const exportCsv = async () => {
    setExporting(true);
    try {
      const { page: _p, limit: _l, ...query } = notesQuery(f);
      const csv = await runtime.api.get<string>("/notes/export", { query });
      const url = URL.createObjectURL(new Blob([typeof csv === "string" ? csv : JSON.stringify(csv)], { type: "text/csv;charset=utf-8" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = `${t("exportFile")}-${new Date().toISOString().slice(0, 10)}.csv`;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      runtime.notify.error(err);
    } finally {
      setExporting(false);
    }
  };

  const dateFmt = useMemo(() => new Intl.DateTimeFormat(runtime.locale, { dateStyle: "short", timeStyle: "short" }), [runtime.locale]);

  const columns: ColumnsType<PlatformNote> = [
    {
      key: "kind",
      title: t("colKind"),
      width: 120,
      render: (_, n) =>
        n.kind === "ticket" ? (
          <Tag icon={<MessageOutlined />} color="blue" data-testid="note-kind-ticket">
            {t("kindTicket")}
          </Tag>
        ) : (
          <Tag icon={<ContactsOutlined />} color="gold" data-testid="note-kind-contact">
            {t("kindContact")}
          </Tag>
        ),
    },
    { key: "contact", title: t("colContact"), width: 200, ellipsis: true, render: (_, n) => <Typography.Text strong>{n.contactName || `#${n.contactId}`}</Typography.Text> },
    {
      key: "text",
      title: t("colText"),
      render: (_, n) => (
        <div className="notes-text">
          {n.title ? <Typography.Text strong>{n.title}: </Typography.Text> : null}
          <Typography.Text>{excerpt(n.body)}</Typography.Text>
        </div>
      ),
    },
    { key: "author", title: t("colAuthor"), width: 170, ellipsis: true, render: (_, n) => n.userName ?? <Typography.Text type="secondary">{t("noAuthor")}</Typography.Text> },
    { key: "date", title: t("colDate"), width: 150, render: (_, n) => dateFmt.format(new Date(n.createdAt)) },
  ];

  const filtered = f.search || f.userIds.length || f.tagIds.length || f.kind !== "all" || f.from || f.to;

  return (
    // Its own layout: the shell's page styles (.oa-page) come with the shell's chunks, loaded or not.
    <div data-page="NotesPage" data-testid="notes-page" style={{ padding: "24px 28px 32px", minWidth: 0, display: "flex", flexDirection: "column", gap: 16 }}>
      <div style={{ display: "flex", alignItems: "flex-start", justifyContent: "space-between", gap: 12, flexWrap: "wrap" }}>
        <div>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t("title")}
          </Typography.Title>
          <Typography.Text type="secondary">{t("subtitle")}</Typography.Text>
        </div>
        <Button icon={<DownloadOutlined />} loading={exporting} onClick={exportCsv} disabled={badRange} data-testid="notes-export">
          {t("export")}
        </Button>
      </div>
      <Card variant="borderless">
        <div style={{ display: "flex", flexWrap: "wrap", gap: 8, marginBottom: 12 }}>
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder={t("search")}
            style={{ width: 280, maxWidth: "100%" }}
            maxLength={120}
            value={searchText}
            onChange={(e) => setSearchText(e.target.value)}
            data-testid="notes-search"
          />
          <Select
            mode="multiple"
            allowClear
            maxTagCount="responsive"
            style={{ minWidth: 200, maxWidth: 320 }}
            placeholder={t("anyUser")}
            aria-label={t("user")}
            value={f.userIds}
            onChange={(v: number[]) => set({ userIds: v })}
            optionFilterProp="label"
            options={options.users.map((u) => ({ value: u.id, label: u.name }))}
            data-testid="notes-user"
          />
          <Select
            mode="multiple"
            allowClear
            maxTagCount="responsive"
            style={{ minWidth: 200, maxWidth: 320 }}
            placeholder={t("anyTag")}
            aria-label={t("tag")}
            value={f.tagIds}
            onChange={(v: number[]) => set({ tagIds: v })}
            optionFilterProp="label"
            options={options.tags.map((x) => ({ value: x.id, label: x.name }))}
            data-testid="notes-tag"
          />
          <Tooltip open={badRange} title={t("rangeInvalid")} placement="bottom">
            <Space.Compact>
              <Input type="date" addonBefore={t("from")} value={f.from} max={f.to || undefined} onChange={(e) => set({ from: e.target.value })} status={badRange ? "error" : undefined} data-testid="notes-from" />
              <Input type="date" addonBefore={t("to")} value={f.to} min={f.from || undefined} onChange={(e) => set({ to: e.target.value })} status={badRange ? "error" : undefined} data-testid="notes-to" />
            </Space.Compact>
          </Tooltip>
          <Segmented<KindFilter>
            value={f.kind}
            onChange={(v) => set({ kind: v })}
            options={[
              { value: "all", label: t("kindAll") },
              { value: "ticket", label: t("kindTicket") },
              { value: "contact", label: t("kindContact") },
            ]}
            data-testid="notes-kind"
          />
          {filtered ? (
            <Button
              type="link"
              onClick={() => {
                setSearchText("");
                setF(INITIAL_FILTERS);
              }}
              data-testid="notes-clear"
            >
              {t("clear")}
            </Button>
          ) : null}
        </div>
        {!seesAll ? (
          <Typography.Paragraph type="secondary" style={{ marginTop: 0 }} data-testid="notes-own-only">
            {t("ownOnly")}
          </Typography.Paragraph>
        ) : null}
        <Table<PlatformNote>
          rowKey={(n) => `${n.kind}:${n.id}`}
          size="middle"
          loading={loading}
          columns={columns}
          dataSource={data.rows}
          data-testid="notes-table"
          onRow={(n) => ({
            onClick: () => navigate(noteLink(n)),
            style: { cursor: "pointer" },
            title: n.kind === "ticket" ? t("openTicket") : t("openContact"),
            "data-testid": `note-row-${n.kind}-${n.id}`,
          } as HTMLAttributes<HTMLElement>)}
          locale={{ emptyText: <Empty description={<span data-testid="notes-empty">{t("empty")}</span>}>{<Typography.Text type="secondary">{t("emptyHint")}</Typography.Text>}</Empty> }}
          pagination={{
            current: f.page,
            pageSize: f.pageSize,
            total: data.count,
            showSizeChanger: true,
            pageSizeOptions: [20, 50, 100],
            showTotal: (count) => <span data-testid="notes-total">{t("total", { count })}</span>,
            onChange: (page, pageSize) => setF((s) => ({ ...s, page: pageSize !== s.pageSize ? 1 : page, pageSize })),
          }}
        />
      </Card>
    </div>
  );
}
