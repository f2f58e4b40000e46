import { useCallback, useEffect, useMemo, useState } from "react";
import { observer } from "mobx-react-lite";
import { useTranslation } from "react-i18next";
import { Badge, Button, Dropdown, Modal, Space, Tag, Tooltip, Typography } from "antd";
import {
  ApiOutlined,
  DeleteOutlined,
  DisconnectOutlined,
  EditOutlined,
  LinkOutlined,
  MoreOutlined,
  QrcodeOutlined,
  ReloadOutlined,
  StarFilled,
  SwapOutlined,
} from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { failureLine } from "../atendimento/format";
import { SettingsList } from "../../ui/SettingsList";
import type { EnabledPlugin } from "../../plugins/registry";
import { ChannelIcon, type PluginLooks } from "../../ui/ChannelIcon";
import { formatDateTime } from "../../ui/format";
import { ConnectionDrawer } from "./canais/ConnectionDrawer";
import { DeleteConnectionModal } from "./canais/DeleteConnectionModal";
import { QrModal } from "./canais/QrModal";
import { TransferModal } from "./canais/TransferModal";
import { STATUS_BADGE, pluginLabel, type ConnectionView } from "./canais/types";
import { useConnectionStatus } from "./canais/useConnectionStatus";
import type { QueueView } from "./FilasPage";

/** GET /plugins (admins): every installed plugin, also one switched off, with its name and looks. */
type Installed = Pick<EnabledPlugin, "id" | "displayName"> & PluginLooks;

/**
 * Settings › Canais: the tenant's connections with their live status (the socket's
 * connectionStatus events), connect / disconnect / reset, creation and editing with the
 * channel plugin's own form (canais/ConnectionDrawer), deletion with a typed confirmation,
 * and the transfer of conversations between two connections. A channel's icon and colour
 * are its plugin manifest's.
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

  useConnectionStatus(root, tenantId, setRows, setQr, load);

  // Installed plugins (admins): names of the types whose plugin is switched off for the tenant.
  const [installed, setInstalled] = useState<Installed[]>([]);
  useEffect(() => {
    root.api.get<Installed[]>("/plugins", { silent: true }).then(setInstalled, () => undefined);
  }, [root]);
  const pluginOf = useCallback((type: string) => enabled.find((p) => p.id === type), [enabled]);
  const installedOf = (type: string) => pluginOf(type) ?? installed.find((p) => p.id === type);
  const labelOf = (type: string) => pluginLabel(installedOf(type), i18n.language, type);
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
  // The catalogue's title of the code (ERR_PLUGIN_DISABLED…): the server's words, not the shell's.
  const reasonLabel = (code: string) => root.errors.text(code, i18n.language)?.title ?? t("configuracoes.channels.inactiveOther");

  return (
    <SettingsList<ConnectionView>
      testId="channels-page"
      title={t("configuracoes.channels.title")}
      description={t("configuracoes.channels.description")}
      extra={
        <Tooltip title={rows.length < 2 ? t("configuracoes.channels.transferNeedsTwo") : undefined}>
          <Button icon={<SwapOutlined />} disabled={rows.length < 2} onClick={() => setTransfer(true)} data-testid="channel-transfer">
            {t("configuracoes.channels.transfer")}
          </Button>
        </Tooltip>
      }
      newLabel={t("configuracoes.channels.new")}
      newTestId="channel-new"
      newLoading={!root.plugins.loaded}
      onNew={() => setEditing(null)}
      icon={<ApiOutlined />}
      emptyText={t("configuracoes.channels.empty")}
      noMatchText={t("configuracoes.noMatch")}
      filtered={false}
      rows={rows}
      loading={loading}
      scrollX={720}
      rowTestId={(c) => `channel-row-${c.id}`}
      columns={[
        {
          title: t("configuracoes.channels.name"),
          dataIndex: "name",
          render: (_: unknown, c) => {
            const p = pluginOf(c.type);
            return (
              <span className="oa-cell-main">
                <ChannelIcon looks={installedOf(c.type)} variant="badge" />
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
                <div className="oa-muted" data-testid={`channel-status-detail-${c.id}`}>{failureLine(c.statusDetail, (code) => root.errors.line(code, i18n.language))}</div>
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
    >
      {modalHolder}
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
      {qr ? <QrModal connection={qr} onClose={() => setQr(null)} /> : null}
    </SettingsList>
  );
});
