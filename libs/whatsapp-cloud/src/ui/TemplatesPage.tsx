import { useCallback, useEffect, useRef, useState } from "react";
import { Alert, Button, Card, Empty, Modal, Select, Space, Table, Tag, Tooltip, Typography } from "antd";
import { DeleteOutlined, MessageOutlined, PlusOutlined, ReloadOutlined } from "@ant-design/icons";
import type { ChannelTemplate, TemplateStatus } from "@openatende/plugin-sdk/src/channel-contract";
import { onScreenEvent, screenRuntime, screenTypes } from "./templates-screen";
import { TemplateModal } from "./TemplateModal";

interface ConnectionRow {
  id: number;
  name: string;
  type: string;
  status: string;
}

/** What a Cloud plugin pushes when Meta's review changes a template (template-webhook.ts). */
interface StatusPush {
  connectionId: number;
  businessAccountId: string;
  id: string;
  name: string;
  language: string;
  status: string;
  reason: string | null;
}

const PAGE = 25;
const STATUS_COLOR: Record<string, string> = { APPROVED: "green", PENDING: "gold", REJECTED: "red", PAUSED: "orange", DISABLED: "default", IN_APPEAL: "purple" };
const keyOf = (r: ChannelTemplate) => r.id ?? `${r.name}:${r.language}`;

/** Settings › Templates: a WhatsApp Cloud connection's templates (WABA or 360dialog; paged), created, refreshed and deleted here; review statuses arrive live. */
export default function TemplatesPage() {
  const runtime = screenRuntime();
  const t = (k: string, v?: Record<string, unknown>) => runtime.t(`tpl.${k}`, v);
  const [connections, setConnections] = useState<ConnectionRow[] | null>(null);
  const [connectionId, setConnectionId] = useState<number | null>(null);
  const [rows, setRows] = useState<ChannelTemplate[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [modal, modalHolder] = Modal.useModal();
  // The answer of the latest load only (a slow page of another connection is dropped).
  const generation = useRef(0);

  useEffect(() => {
    let live = true;
    runtime.api.get<ConnectionRow[]>("/connections", { silent: true }).then(
      (list) => {
        if (!live) return;
        const types = screenTypes();
        const waba = list.filter((c) => types.includes(c.type));
        setConnections(waba);
        setConnectionId((waba.find((c) => c.status === "connected") ?? waba[0])?.id ?? null);
      },
      (e) => live && (setConnections([]), setFailed((e as Error).message)),
    );
    return () => {
      live = false;
    };
  }, [runtime]);

  const load = useCallback(
    async (after: string | null) => {
      if (connectionId === null) return;
      const gen = ++generation.current;
      setLoading(true);
      setFailed(null);
      try {
        const page = await runtime.api.get<{ templates: ChannelTemplate[]; next: string | null }>("/templates", { query: { connectionId, limit: PAGE, ...(after ? { after } : {}) }, silent: true });
        if (gen !== generation.current) return;
        setRows((old) => (after ? [...old, ...page.templates.filter((x) => !old.some((o) => keyOf(o) === keyOf(x)))] : page.templates));
        setNext(page.next);
      } catch (e) {
        if (gen !== generation.current) return;
        const err = e as { title?: string; detail?: string; message?: string };
        setFailed(err.detail || err.title || err.message || t("loadFailed"));
        if (!after) setRows([]);
      } finally {
        if (gen === generation.current) setLoading(false);
      }
    },
    [runtime, connectionId],
  );

  useEffect(() => {
    setRows([]);
    setNext(null);
    void load(null);
  }, [load]);

  // Meta's review, live: the row of that template id (every number of the account shares it).
  useEffect(
    () =>
      onScreenEvent("template.status", (payload) => {
        const p = payload as StatusPush;
        if (!p?.id || !p.status) return;
        setRows((old) => old.map((r) => (r.id === p.id ? { ...r, status: p.status as TemplateStatus, rejectedReason: p.reason } : r)));
      }),
    [runtime],
  );

  const remove = (row: ChannelTemplate) => {
    modal.confirm({
      title: t("deleteTitle"),
      content: t("deleteDetail", { name: row.name, language: row.language }),
      okText: t("delete"),
      okButtonProps: { danger: true, "data-testid": "template-delete-ok" },
      cancelText: t("cancel"),
      onOk: async () => {
        try {
          await runtime.api.delete("/templates", { query: { connectionId, name: row.name, ...(row.id ? { id: row.id } : {}) }, successNotice: true });
          setRows((old) => old.filter((r) => keyOf(r) !== keyOf(row)));
        } catch {
          // The shell's notice says why; the row stays.
        }
      },
    });
  };

  // A status Meta adds later shows as Meta names it.
  const label = (prefix: string, v: string) => {
    const s = t(`${prefix}_${v}`);
    return s.startsWith("tpl.") ? v : s;
  };
  const statusTag = (s: string) => (
    <Tag color={STATUS_COLOR[s] ?? "default"} data-testid="template-status" data-status={s}>
      {label("status", s)}
    </Tag>
  );

  const none = connections !== null && connections.length === 0;
  return (
    <Card variant="borderless" data-testid="templates-page">
      {modalHolder}
      <div className="oa-section-head">
        <div className="oa-section-title">
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t("title")}
          </Typography.Title>
          <Typography.Text type="secondary">{t("subtitle")}</Typography.Text>
        </div>
        <div className="oa-section-actions">
          <Button icon={<ReloadOutlined />} onClick={() => void load(null)} loading={loading} disabled={connectionId === null} data-testid="templates-refresh">
            {t("refresh")}
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} disabled={connectionId === null} data-testid="template-new">
            {t("new")}
          </Button>
        </div>
      </div>
      {none ? <Alert type="info" showIcon title={t("noConnections")} data-testid="templates-no-connection" /> : null}
      {connections && connections.length > 1 ? (
        <div className="oa-toolbar">
          <span>{t("connection")}</span>
          <Select style={{ minWidth: 260 }} value={connectionId ?? undefined} onChange={(v: number) => setConnectionId(v)} options={connections.map((c) => ({ value: c.id, label: c.name }))} data-testid="templates-connection" />
        </div>
      ) : null}
      {failed ? <Alert type="error" showIcon title={failed} style={{ marginBottom: 16 }} data-testid="templates-error" /> : null}
      {none ? null : (
        <Table<ChannelTemplate>
          rowKey={keyOf}
          dataSource={rows}
          loading={loading && !rows.length}
          pagination={false}
          scroll={{ x: 900 }}
          onRow={(r) => ({ "data-testid": `template-row-${r.name}` }) as object}
          locale={{ emptyText: <Empty image={<MessageOutlined className="oa-empty-icon" />} description={t("empty")} /> }}
          columns={[
            { title: t("colName"), dataIndex: "name", render: (v: string) => <strong className="oa-code">{v}</strong> },
            { title: t("colCategory"), dataIndex: "category", width: 140, render: (v: string) => label("category", v) },
            { title: t("colLanguage"), dataIndex: "language", width: 100, render: (v: string) => <span className="oa-code">{v}</span> },
            { title: t("colStatus"), dataIndex: "status", width: 130, render: statusTag },
            // Meta writes "NONE" where there is no reason.
            { title: t("colReason"), dataIndex: "rejectedReason", render: (v: string | null | undefined) => (v && v !== "NONE" ? <span data-testid="template-reason">{v}</span> : <span className="oa-muted">—</span>) },
            { title: t("colId"), dataIndex: "id", width: 190, responsive: ["md"], render: (v?: string) => <span className="oa-code oa-nowrap">{v ?? "—"}</span> },
            {
              title: t("colActions"),
              key: "actions",
              width: 80,
              align: "right",
              render: (_: unknown, r) => (
                <Tooltip title={t("delete")}>
                  <Button type="text" danger icon={<DeleteOutlined />} onClick={() => remove(r)} aria-label={t("delete")} data-testid="template-delete" />
                </Tooltip>
              ),
            },
          ]}
        />
      )}
      {next ? (
        <Space className="oa-pager" style={{ justifyContent: "center", width: "100%" }}>
          <Button onClick={() => void load(next)} loading={loading} data-testid="templates-more">
            {t("loadMore")}
          </Button>
        </Space>
      ) : null}
      {creating && connectionId !== null ? (
        <TemplateModal
          runtime={runtime}
          connectionId={connectionId}
          connectionType={connections?.find((c) => c.id === connectionId)?.type ?? "channel-waba"}
          onClose={() => setCreating(false)}
          onCreated={(tpl) => {
            setCreating(false);
            setRows((old) => [tpl, ...old.filter((r) => keyOf(r) !== keyOf(tpl))]);
          }}
        />
      ) : null}
    </Card>
  );
}
