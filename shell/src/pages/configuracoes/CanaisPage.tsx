import { Suspense, useCallback, useEffect, useMemo, useRef, useState, type HTMLAttributes, type ReactNode } from "react";
import { confirmsDeletion } from "@openatende/contracts/connections";
import { observer } from "mobx-react-lite";
import { useTranslation } from "react-i18next";
import {
  Alert,
  Badge,
  Button,
  Card,
  Divider,
  Drawer,
  Dropdown,
  Empty,
  Form,
  Input,
  Modal,
  QRCode,
  Select,
  Skeleton,
  Space,
  Switch,
  Table,
  Tag,
  Tooltip,
  Typography,
} from "antd";
import {
  ApiOutlined,
  CommentOutlined,
  DeleteOutlined,
  DisconnectOutlined,
  EditOutlined,
  FacebookOutlined,
  InstagramOutlined,
  LinkOutlined,
  MailOutlined,
  MobileOutlined,
  MoreOutlined,
  PlusOutlined,
  QrcodeOutlined,
  ReloadOutlined,
  SendOutlined,
  StarFilled,
  SwapOutlined,
  WhatsAppOutlined,
} from "@ant-design/icons";
import type { ConnectionSettings } from "@openatende/plugin-sdk/ui";
import { useRoot } from "../../app/context";
import type { RootStore } from "../../app/root";
import { runtimeFor } from "../../plugins/remotes";
import type { EnabledPlugin } from "../../plugins/registry";
import { SectionHeader } from "../../ui/SectionHeader";
import { applyFieldErrors, fieldErrorsOf } from "../../ui/api-errors";
import { formatDateTime } from "../../ui/format";
import type { QueueView } from "./FilasPage";

export interface ConnectionView {
  id: number;
  name: string;
  type: string;
  status: string;
  isDefault: boolean;
  queueId: number | null;
  updatedAt?: string;
  greeting?: string | null;
  farewell?: string | null;
  token?: string;
  settings?: ConnectionSettings;
  qrcode?: string | null;
  statusDetail?: string | null;
  /** The plugin major the connection is pinned to. */
  pluginMajor?: number | null;
  /** Why the platform made it inactive (an error code: its module switched off, not allowed, above the plan…). */
  inactiveReason?: string | null;
}

/** `${tenantId}:whatsappSession` (core/src/connections/connections.service.ts pushStatus). */
interface SessionEvent {
  action?: string;
  session?: { id: number; status: string; qrcode?: string; detail?: string; inactiveReason?: string | null };
}

/** Reasons the platform stops a connection, with a text each (configuracoes.channels.inactiveReasons). */
const INACTIVE_REASONS = ["ERR_PLUGIN_DISABLED", "ERR_PLUGIN_NOT_ALLOWED", "ERR_LICENSE_TIER_REQUIRED", "ERR_PLUGIN_VERSION_UNAVAILABLE", "ERR_PLUGIN_NOT_FOUND", "ERR_PLUGIN_UNAVAILABLE"];

/** Words the API accepts to confirm a deletion besides the connection's name. */
const STATUS_BADGE: Record<string, "success" | "processing" | "warning" | "error" | "default"> = {
  connected: "success",
  connecting: "processing",
  pairing: "processing",
  qrcode: "warning",
  timeout: "error",
  conflict: "error",
  disconnected: "default",
  inactive: "default",
};

/** Icon and colour of a channel type, guessed from its id (plugins name themselves channel-<kind>). */
export function typeVisual(type: string): { icon: ReactNode; color: string } {
  const t = type.toLowerCase();
  if (t.includes("webchat") || t.includes("web-chat")) return { icon: <CommentOutlined />, color: "#0a7d4f" };
  if (/whats|waba|wuzapi|360/.test(t)) return { icon: <WhatsAppOutlined />, color: "#25a55f" };
  if (t.includes("telegram")) return { icon: <SendOutlined />, color: "#229ed9" };
  if (t.includes("instagram")) return { icon: <InstagramOutlined />, color: "#d62976" };
  if (t.includes("facebook") || t.includes("messenger")) return { icon: <FacebookOutlined />, color: "#1877f2" };
  if (t.includes("mail")) return { icon: <MailOutlined />, color: "#ea580c" };
  if (t.includes("sms")) return { icon: <MobileOutlined />, color: "#7c3aed" };
  return { icon: <ApiOutlined />, color: "#4b5563" };
}

function TypeIcon({ type }: { type: string }) {
  const v = typeVisual(type);
  return (
    <span className="oa-type-icon" style={{ background: v.color }} aria-hidden>
      {v.icon}
    </span>
  );
}

/** A plugin's display name in the user's language (pt-BR, then English, then its id). */
export function pluginLabel(p: Pick<EnabledPlugin, "id" | "displayName"> | undefined, locale: string, fallback: string): string {
  if (!p) return fallback;
  return p.displayName?.[locale] ?? p.displayName?.["pt-BR"] ?? p.displayName?.en ?? p.id;
}

/**
 * Settings › Canais: the tenant's connections with their live status (the socket's
 * whatsappSession events), connect / disconnect / reset, creation and editing with the
 * channel plugin's own form, deletion with a typed confirmation, and the transfer of
 * conversations between two connections.
 */
export default observer(function CanaisPage() {
  const root = useRoot();
  const { t, i18n } = useTranslation();
  const [rows, setRows] = useState<ConnectionView[]>([]);
  const [queues, setQueues] = useState<QueueView[]>([]);
  const [loading, setLoading] = useState(true);
  const [busy, setBusy] = useState<Record<number, string>>({});
  const [editing, setEditing] = useState<ConnectionView | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<ConnectionView | null>(null);
  const [qr, setQr] = useState<ConnectionView | null>(null);
  const [transfer, setTransfer] = useState(false);
  const [modal, modalHolder] = Modal.useModal();
  const enabled = root.plugins.enabled;
  const tenantId = root.session.tenantId;

  const load = useCallback(async () => {
    setLoading(true);
    try {
      setRows(await root.api.get<ConnectionView[]>("/connections"));
    } catch {
      /* shown by the client */
    } finally {
      setLoading(false);
    }
  }, [root]);
  useEffect(() => void load(), [load]);
  useEffect(() => {
    root.api.get<QueueView[]>("/queues").then(setQueues, () => undefined);
  }, [root]);

  // Live status: the socket reports every status change of a connection to the tenant's admins.
  useEffect(() => {
    if (!tenantId) return;
    return root.realtime.on(`${tenantId}:whatsappSession`, (p: SessionEvent) => {
      const s = p?.session;
      if (!s?.id) return;
      setRows((rs) => {
        if (!rs.some((r) => r.id === s.id)) {
          void load();
          return rs;
        }
        return rs.map((r) =>
          r.id === s.id
            ? { ...r, status: s.status, qrcode: s.status === "qrcode" ? (s.qrcode ?? r.qrcode) : null, statusDetail: s.detail ?? null, inactiveReason: s.inactiveReason ?? null, updatedAt: new Date().toISOString() }
            : r,
        );
      });
      setQr((cur) => (cur && cur.id === s.id ? (s.status === "qrcode" ? { ...cur, qrcode: s.qrcode ?? cur.qrcode } : null) : cur));
    });
  }, [root, tenantId, load]);

  // Installed plugins (admins): names of the types whose plugin is switched off for the tenant.
  const [installed, setInstalled] = useState<Array<Pick<EnabledPlugin, "id" | "displayName">>>([]);
  useEffect(() => {
    root.api.get<Array<Pick<EnabledPlugin, "id" | "displayName">>>("/plugins", { silent: true }).then(setInstalled, () => undefined);
  }, [root]);
  const pluginOf = useCallback((type: string) => enabled.find((p) => p.id === type), [enabled]);
  const labelOf = (type: string) => pluginLabel(pluginOf(type) ?? installed.find((p) => p.id === type), i18n.language, type);
  const queueName = useMemo(() => new Map(queues.map((q) => [q.id, q.name])), [queues]);

  const act = async (c: ConnectionView, what: "connect" | "disconnect" | "reset") => {
    setBusy((b) => ({ ...b, [c.id]: what }));
    try {
      let saved: ConnectionView;
      if (what === "reset") {
        await root.api.post(`/connections/${c.id}/disconnect`, {});
        saved = await root.api.post<ConnectionView>(`/connections/${c.id}/connect`, {});
      } else saved = await root.api.post<ConnectionView>(`/connections/${c.id}/${what}`, {});
      setRows((rs) => rs.map((r) => (r.id === c.id ? { ...r, ...saved } : r)));
      if (saved.status === "qrcode") setQr(saved);
    } catch {
      void load();
    } finally {
      setBusy((b) => {
        const n = { ...b };
        delete n[c.id];
        return n;
      });
    }
  };

  const askReset = (c: ConnectionView) =>
    modal.confirm({
      title: t("configuracoes.channels.resetTitle"),
      content: t("configuracoes.channels.resetDetail", { name: c.name }),
      okText: t("configuracoes.channels.reset"),
      cancelText: t("common.cancel"),
      onOk: () => act(c, "reset"),
    });

  const statusLabel = (s: string) => {
    const k = `configuracoes.channels.statuses.${s}`;
    const v = t(k);
    return v === k ? s : v;
  };
  const reasonLabel = (code: string) => t(`configuracoes.channels.inactiveReasons.${INACTIVE_REASONS.includes(code) ? code : "other"}`);

  return (
    <Card variant="borderless" data-testid="channels-page">
      {modalHolder}
      <SectionHeader
        title={t("configuracoes.channels.title")}
        description={t("configuracoes.channels.description")}
        extra={
          <>
            <Tooltip title={rows.length < 2 ? t("configuracoes.channels.transferNeedsTwo") : undefined}>
              <Button icon={<SwapOutlined />} disabled={rows.length < 2} onClick={() => setTransfer(true)} data-testid="channel-transfer">
                {t("configuracoes.channels.transfer")}
              </Button>
            </Tooltip>
            <Button type="primary" icon={<PlusOutlined />} loading={!root.plugins.loaded} onClick={() => setEditing(null)} data-testid="channel-new">
              {t("configuracoes.channels.new")}
            </Button>
          </>
        }
      />
      <Table<ConnectionView>
        rowKey="id"
        loading={loading}
        dataSource={rows}
        pagination={rows.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
        scroll={{ x: 720 }}
        locale={{
          emptyText: (
            <Empty className="oa-empty-cta" image={<ApiOutlined style={{ fontSize: 48, opacity: 0.35 }} />} description={t("configuracoes.channels.empty")}>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)}>
                {t("configuracoes.channels.new")}
              </Button>
            </Empty>
          ),
        }}
        onRow={(c) => ({ "data-testid": `channel-row-${c.id}` }) as HTMLAttributes<HTMLElement>}
        columns={[
          {
            title: t("configuracoes.channels.name"),
            dataIndex: "name",
            render: (_: unknown, c) => {
              const p = pluginOf(c.type);
              return (
                <span className="oa-cell-main">
                  <TypeIcon type={c.type} />
                  <span className="oa-cell-text">
                    <strong>
                      {c.name}
                      {c.isDefault ? (
                        <Tooltip title={t("configuracoes.channels.default")}>
                          <StarFilled style={{ color: "#f5a623", marginInlineStart: 6 }} aria-label={t("configuracoes.channels.default")} />
                        </Tooltip>
                      ) : null}
                    </strong>
                    <span className="oa-muted">
                      {labelOf(c.type)}
                      {!p ? ` · ${t("configuracoes.channels.pluginOff")}` : ""}
                    </span>
                  </span>
                </span>
              );
            },
          },
          {
            title: t("configuracoes.channels.status"),
            dataIndex: "status",
            width: 190,
            render: (s: string, c) => (
              <span data-testid={`channel-status-${c.id}`} data-status={s} data-reason={c.inactiveReason ?? undefined}>
                <Badge status={STATUS_BADGE[s] ?? "default"} text={statusLabel(s)} />
                {c.inactiveReason ? (
                  <Tooltip title={t("configuracoes.channels.inactiveHint")}>
                    <div className="oa-muted" data-testid={`channel-inactive-reason-${c.id}`}>
                      {reasonLabel(c.inactiveReason)}
                    </div>
                  </Tooltip>
                ) : c.statusDetail ? (
                  <div className="oa-muted">{c.statusDetail}</div>
                ) : null}
              </span>
            ),
          },
          {
            title: t("configuracoes.channels.queue"),
            dataIndex: "queueId",
            width: 170,
            responsive: ["xl"],
            render: (id: number | null) => (id ? <Tag>{queueName.get(id) ?? `#${id}`}</Tag> : <Typography.Text type="secondary">—</Typography.Text>),
          },
          {
            title: t("configuracoes.updatedAt"),
            dataIndex: "updatedAt",
            width: 170,
            responsive: ["xxl"],
            render: (v: string) => <span className="oa-nowrap">{formatDateTime(v, i18n.language)}</span>,
          },
          {
            title: t("common.actions"),
            key: "actions",
            width: 220,
            align: "right",
            fixed: "right",
            render: (_: unknown, c) => {
              // A connection the platform stopped cannot be connected until its module is usable again.
              const p = c.inactiveReason ? undefined : pluginOf(c.type);
              const working = busy[c.id];
              const main =
                c.status === "connected" ? (
                  <Button icon={<DisconnectOutlined />} disabled={!p} loading={working === "disconnect"} onClick={() => act(c, "disconnect")} data-testid={`channel-disconnect-${c.id}`}>
                    {t("configuracoes.channels.disconnect")}
                  </Button>
                ) : c.status === "qrcode" ? (
                  <Button icon={<QrcodeOutlined />} onClick={() => setQr(c)}>
                    {t("configuracoes.channels.showQr")}
                  </Button>
                ) : (
                  <Button
                    type="primary"
                    ghost
                    icon={<LinkOutlined />}
                    disabled={!p}
                    loading={working === "connect" || c.status === "connecting" || c.status === "pairing"}
                    onClick={() => act(c, "connect")}
                    data-testid={`channel-connect-${c.id}`}
                  >
                    {t("configuracoes.channels.connect")}
                  </Button>
                );
              return (
                <Space size={4}>
                  {p ? main : <Tooltip title={t("configuracoes.channels.pluginOffHint")}>{main}</Tooltip>}
                  <Tooltip title={t("common.edit")}>
                    <Button type="text" icon={<EditOutlined />} onClick={() => setEditing(c)} aria-label={t("common.edit")} data-testid={`channel-edit-${c.id}`} />
                  </Tooltip>
                  <Dropdown
                    trigger={["click"]}
                    menu={{
                      items: [
                        { key: "reset", icon: <ReloadOutlined />, label: t("configuracoes.channels.reset"), disabled: !p || working !== undefined },
                        { type: "divider" },
                        { key: "delete", icon: <DeleteOutlined />, label: t("common.delete"), danger: true },
                      ],
                      onClick: ({ key }) => (key === "reset" ? askReset(c) : setDeleting(c)),
                    }}
                  >
                    <Button type="text" icon={<MoreOutlined />} aria-label={t("configuracoes.more")} data-testid={`channel-more-${c.id}`} />
                  </Dropdown>
                </Space>
              );
            },
          },
        ]}
      />
      {editing !== undefined ? (
        <ConnectionDrawer
          connection={editing}
          queues={queues}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined);
            void load();
          }}
        />
      ) : null}
      {deleting ? (
        <DeleteConnectionModal
          connection={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            setRows((rs) => rs.filter((r) => r.id !== deleting.id));
            setDeleting(null);
          }}
        />
      ) : null}
      {transfer ? <TransferModal connections={rows} onClose={() => setTransfer(false)} /> : null}
      {qr ? (
        <Modal open title={t("configuracoes.channels.qrTitle", { name: qr.name })} footer={null} onCancel={() => setQr(null)} width={380} destroyOnHidden>
          <div style={{ display: "grid", placeItems: "center", gap: 12, padding: "8px 0" }}>
            {qr.qrcode ? (
              qr.qrcode.startsWith("data:image") ? (
                <img src={qr.qrcode} alt={t("configuracoes.channels.qrTitle", { name: qr.name })} width={264} height={264} />
              ) : (
                <QRCode value={qr.qrcode} size={264} />
              )
            ) : (
              <QRCode value="-" status="loading" size={264} />
            )}
            <Typography.Text type="secondary" style={{ textAlign: "center" }}>
              {t("configuracoes.channels.qrHint")}
            </Typography.Text>
          </div>
        </Modal>
      ) : null}
    </Card>
  );
});

interface CommonForm {
  name: string;
  queueId?: number | null;
  greeting?: string;
  farewell?: string;
  isDefault: boolean;
}
const COMMON_FIELDS = ["name", "queueId", "greeting", "farewell", "isDefault"] as const;

/** Create (type first) or edit a connection: the common fields, then the channel plugin's own form. */
const ConnectionDrawer = observer(function ConnectionDrawer({
  connection,
  queues,
  onClose,
  onSaved,
}: {
  connection: ConnectionView | null;
  queues: QueueView[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const root = useRoot();
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<CommonForm>();
  const [type, setType] = useState<string | null>(connection?.type ?? null);
  const [full, setFull] = useState<ConnectionView | null>(null);
  const [settings, setSettings] = useState<ConnectionSettings>({});
  const [pluginErrors, setPluginErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const types = root.plugins.channelTypes;
  const plugin = type ? root.plugins.enabled.find((p) => p.id === type) : undefined;
  const def = type ? root.plugins.connectForms.get(type) : undefined;
  const runtime = useMemo(() => (plugin ? runtimeFor(root as RootStore, plugin) : null), [root, plugin]);
  const PluginForm = def?.component;

  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const editId = connection?.id;

  // Editing: the full record (settings, token) of the connection.
  useEffect(() => {
    if (!editId) return;
    root.api.get<ConnectionView>(`/connections/${editId}`).then(
      (c) => {
        setFull(c);
        setSettings({ ...(root.plugins.connectForms.get(c.type)?.defaults ?? {}), ...(c.settings ?? {}) });
      },
      () => closeRef.current(),
    );
  }, [root, editId]);

  const choose = (id: string) => {
    setType(id);
    setSettings({ ...(root.plugins.connectForms.get(id)?.defaults ?? {}) });
    setPluginErrors({});
  };

  const save = async () => {
    if (!type) return;
    const common = await form.validateFields().catch(() => null);
    const errs = def?.validate && runtime ? def.validate(settings, runtime.t) : {};
    setPluginErrors(errs);
    if (!common || Object.keys(errs).length) return;
    setSaving(true);
    try {
      const body: Record<string, unknown> = {
        name: common.name.trim(),
        queueId: common.queueId ?? null,
        greeting: common.greeting?.trim() ? common.greeting : null,
        farewell: common.farewell?.trim() ? common.farewell : null,
        // Left out when off on creation: the tenant's first connection becomes the default.
        ...(common.isDefault || connection ? { isDefault: !!common.isDefault } : {}),
      };
      // The settings are the plugin's: sent only when its form is here to edit them.
      if (def || !connection) body.settings = Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));
      if (connection) await root.api.put(`/connections/${connection.id}`, body, { silent: true, successNotice: true });
      else await root.api.post("/connections", { ...body, type }, { silent: true, successNotice: true });
      onSaved();
    } catch (e) {
      // The server's field errors go under their fields: the plugin's settings in its form.
      const fromPlugin = fieldErrorsOf(e, t, "settings.");
      const inPluginForm = !!PluginForm && Object.keys(fromPlugin).length > 0;
      if (inPluginForm) setPluginErrors(fromPlugin);
      const onCommon = applyFieldErrors(form, e, t, COMMON_FIELDS);
      if (!onCommon && !inPluginForm) root.notifyError(e);
    } finally {
      setSaving(false);
    }
  };

  const editingLoaded = !connection || full;

  return (
    <Drawer
      open
      size={720}
      title={connection ? t("configuracoes.channels.edit", { name: connection.name }) : t("configuracoes.channels.new")}
      onClose={onClose}
      destroyOnHidden
      extra={
        type ? (
          <Space>
            <Button onClick={onClose}>{t("common.cancel")}</Button>
            <Button type="primary" loading={saving} onClick={save} disabled={!editingLoaded} data-testid="channel-save">
              {t("common.save")}
            </Button>
          </Space>
        ) : null
      }
    >
      {!type ? (
        <div data-testid="channel-type-chooser">
          <Typography.Title level={5} style={{ marginTop: 0 }}>
            {t("configuracoes.channels.chooseType")}
          </Typography.Title>
          <Typography.Paragraph type="secondary">{t("configuracoes.channels.chooseTypeHint")}</Typography.Paragraph>
          {!root.plugins.loaded ? (
            <Skeleton active />
          ) : types.length ? (
            <div className="oa-type-grid">
              {types.map((p) => {
                const v = typeVisual(p.id);
                return (
                  <Card key={p.id} hoverable className="oa-type-card" onClick={() => choose(p.id)} data-testid={`channel-type-${p.id}`} role="button" tabIndex={0} onKeyDown={(e) => e.key === "Enter" && choose(p.id)}>
                    <div style={{ color: v.color, marginBottom: 8 }}>{v.icon}</div>
                    <strong>{pluginLabel(p, i18n.language, p.id)}</strong>
                  </Card>
                );
              })}
            </div>
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("configuracoes.channels.noTypes")} data-testid="channel-no-types" />
          )}
        </div>
      ) : !editingLoaded ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <>
          <div className="oa-cell-main" style={{ marginBottom: 20 }}>
            <TypeIcon type={type} />
            <span className="oa-cell-text">
              <strong>{pluginLabel(plugin, i18n.language, type)}</strong>
              <span className="oa-muted">{t("configuracoes.channels.typeLabel")}</span>
            </span>
            {!connection && types.length > 1 ? (
              <Button size="small" onClick={() => setType(null)} style={{ marginInlineStart: "auto" }}>
                {t("configuracoes.channels.changeType")}
              </Button>
            ) : null}
          </div>
          <Form form={form} layout="vertical" initialValues={
              full
                ? { name: full.name, queueId: full.queueId ?? undefined, greeting: full.greeting ?? "", farewell: full.farewell ?? "", isDefault: full.isDefault }
                : { name: "", isDefault: false, greeting: "", farewell: "" }
            } data-testid="channel-form">
            <div className="oa-form-grid">
              <Form.Item name="name" label={t("configuracoes.channels.name")} rules={[{ required: true, whitespace: true, message: t("common.required") }, { max: 100, message: t("configuracoes.rules.stringMax", { expected: 100 }) }]}>
                <Input maxLength={100} placeholder={t("configuracoes.channels.namePlaceholder")} data-testid="channel-name" />
              </Form.Item>
              <Form.Item name="queueId" label={t("configuracoes.channels.queue")} extra={t("configuracoes.channels.queueHint")}>
                <Select allowClear placeholder={t("configuracoes.channels.noQueue")} options={queues.map((q) => ({ value: q.id, label: q.name, disabled: !q.active }))} />
              </Form.Item>
            </div>
            <Form.Item name="greeting" label={t("configuracoes.channels.greeting")} extra={t("configuracoes.channels.greetingHint")}>
              <Input.TextArea rows={2} maxLength={5000} autoSize={{ minRows: 2, maxRows: 6 }} />
            </Form.Item>
            <Form.Item name="farewell" label={t("configuracoes.channels.farewell")} extra={t("configuracoes.channels.farewellHint")}>
              <Input.TextArea rows={2} maxLength={5000} autoSize={{ minRows: 2, maxRows: 6 }} />
            </Form.Item>
            <Form.Item name="isDefault" label={t("configuracoes.channels.default")} valuePropName="checked" extra={t("configuracoes.channels.defaultHint")}>
              <Switch />
            </Form.Item>
          </Form>
          <Divider titlePlacement="start">{t("configuracoes.channels.typeSettings", { type: pluginLabel(plugin, i18n.language, type) })}</Divider>
          <div className="oa-plugin-form" data-testid="channel-plugin-form">
            {PluginForm && runtime ? (
              <Suspense fallback={<Skeleton active />}>
                <PluginForm
                  value={settings}
                  onChange={(next) => {
                    setSettings(next);
                    if (Object.keys(pluginErrors).length && def?.validate) setPluginErrors(def.validate(next, runtime.t));
                  }}
                  errors={pluginErrors}
                  connection={full ? { id: full.id, name: full.name, status: full.status, token: full.token ?? null } : undefined}
                  runtime={runtime}
                />
              </Suspense>
            ) : !plugin ? (
              <Alert type="warning" showIcon title={t("configuracoes.channels.pluginOff")} description={t("configuracoes.channels.pluginOffEdit")} />
            ) : root.plugins.state.get(type) && root.plugins.state.get(type) !== "ready" ? (
              <Alert type="error" showIcon title={t("configuracoes.channels.formFailed")} />
            ) : (
              <Typography.Text type="secondary">{t("configuracoes.channels.noExtraSettings")}</Typography.Text>
            )}
          </div>
        </>
      )}
    </Drawer>
  );
});

function DeleteConnectionModal({ connection, onClose, onDeleted }: { connection: ConnectionView; onClose: () => void; onDeleted: () => void }) {
  const root = useRoot();
  const { t } = useTranslation();
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  const v = typed.trim();
  const ok = confirmsDeletion(v, connection.name);
  const submit = async () => {
    if (!ok) return;
    setBusy(true);
    try {
      await root.api.delete(`/connections/${connection.id}`, { query: { confirmation: v }, successNotice: true });
      onDeleted();
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t("configuracoes.channels.deleteTitle", { name: connection.name })}
      okText={t("common.delete")}
      okButtonProps={{ danger: true, disabled: !ok }}
      cancelText={t("common.cancel")}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={busy}
      destroyOnHidden
    >
      <Alert type="error" showIcon style={{ marginBottom: 16 }} title={t("configuracoes.channels.deleteDetail")} />
      <Typography.Paragraph>
        {t("configuracoes.channels.deleteType", { word: t("configuracoes.channels.deleteWord") })} <Typography.Text code>{connection.name}</Typography.Text>
      </Typography.Paragraph>
      <Input
        autoFocus
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        onPressEnter={submit}
        placeholder={t("configuracoes.channels.deleteWord")}
        data-testid="channel-delete-confirm"
        status={v && !ok ? "error" : undefined}
      />
    </Modal>
  );
}

function TransferModal({ connections, onClose }: { connections: ConnectionView[]; onClose: () => void }) {
  const root = useRoot();
  const { t } = useTranslation();
  const [from, setFrom] = useState<number | undefined>();
  const [to, setTo] = useState<number | undefined>();
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const same = from !== undefined && from === to;
  const submit = async () => {
    setTouched(true);
    if (!from || !to || same) return;
    setBusy(true);
    try {
      const r = await root.api.post<{ moved: number }>("/connections/transfer", { fromConnectionId: from, toConnectionId: to });
      root.ui.notify({ kind: "success", title: t("configuracoes.channels.transferDone", { count: r.moved }) });
      onClose();
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  const options = connections.map((c) => ({ value: c.id, label: c.name }));
  return (
    <Modal open title={t("configuracoes.channels.transferTitle")} okText={t("configuracoes.channels.transferOk")} cancelText={t("common.cancel")} onOk={submit} onCancel={onClose} confirmLoading={busy} destroyOnHidden>
      <Typography.Paragraph type="secondary">{t("configuracoes.channels.transferHint")}</Typography.Paragraph>
      <Form layout="vertical" component="div">
        <Form.Item label={t("configuracoes.channels.transferFrom")} required validateStatus={touched && !from ? "error" : undefined} help={touched && !from ? t("common.required") : undefined}>
          <Select value={from} onChange={setFrom} options={options} placeholder={t("configuracoes.channels.pick")} data-testid="transfer-from" />
        </Form.Item>
        <Form.Item
          label={t("configuracoes.channels.transferTo")}
          required
          validateStatus={(touched && !to) || same ? "error" : undefined}
          help={same ? t("configuracoes.channels.transferSame") : touched && !to ? t("common.required") : undefined}
        >
          <Select value={to} onChange={setTo} options={options} placeholder={t("configuracoes.channels.pick")} data-testid="transfer-to" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
