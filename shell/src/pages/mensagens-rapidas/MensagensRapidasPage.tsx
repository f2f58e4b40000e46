import { useCallback, useEffect, useMemo, useState } from "react";
import { observer } from "mobx-react-lite";
import { useTranslation } from "react-i18next";
import { Input, Segmented, Tag, Tooltip, Typography } from "antd";
import { AppstoreOutlined, LockOutlined, MessageOutlined, SearchOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { SettingsList } from "../../ui/SettingsList";
import { EditDeleteActions } from "../../ui/EditDeleteActions";
import { QuickMessageModal } from "./QuickMessageModal";
import { SCOPE_COLOR, SCOPE_ICON } from "./scope";
import type { QueueOption, QuickMessageView, Scope } from "./types";
import "../../ui/kit.css";

type Tab = "all" | Scope;
const TABS: Tab[] = ["all", "personal", "global", "queue"];

/**
 * /mensagens-rapidas (spec §2, any profile): "/key" shortcuts for the chat. Every user manages
 * their personal ones and uses, read-only, the global ones and those of their queues; admins
 * also manage the global and queue-scoped ones (spec §6). A key is unique within its scope.
 */
export default observer(function MensagensRapidasPage() {
  const root = useRoot();
  const { t } = useTranslation();
  const [rows, setRows] = useState<QuickMessageView[]>([]);
  const [queues, setQueues] = useState<QueueOption[]>([]);
  const [loading, setLoading] = useState(true);
  const [filter, setFilter] = useState("");
  const [tab, setTab] = useState<Tab>("all");
  const [editing, setEditing] = useState<QuickMessageView | null | undefined>(undefined);
  const admin = root.can("admin");

  const load = useCallback(async () => {
    setLoading(true);
    try {
      // Admins: every global and queue message (to manage them) and their own; others: what they may use.
      setRows(await root.api.get<QuickMessageView[]>("/quick-messages", { query: { all: admin ? true : undefined } }));
    } catch {
      /* shown by the client */
    } finally {
      setLoading(false);
    }
  }, [root, admin]);
  useEffect(() => void load(), [load]);
  useEffect(() => {
    root.api.get<QueueOption[]>("/queues", { silent: true }).then(setQueues, () => undefined);
  }, [root]);

  const queueName = useMemo(() => new Map(queues.map((q) => [q.id, q.name])), [queues]);
  const counts = useMemo(() => {
    const c: Record<Tab, number> = { all: rows.length, personal: 0, global: 0, queue: 0 };
    for (const r of rows) c[r.scope]++;
    return c;
  }, [rows]);
  const shown = useMemo(() => {
    const q = filter.trim().toLowerCase().replace(/^\//, "");
    return rows.filter((r) => (tab === "all" || r.scope === tab) && (!q || r.key.includes(q) || r.message.toLowerCase().includes(q)));
  }, [rows, filter, tab]);

  const remove = async (m: QuickMessageView) => {
    try {
      await root.api.delete(`/quick-messages/${m.id}`, { successNotice: true });
      setRows((rs) => rs.filter((r) => r.id !== m.id));
    } catch {
      /* shown by the client */
    }
  };

  return (
    <div className="oa-page" data-page="MensagensRapidasPage">
      <SettingsList<QuickMessageView>
        testId="quick-messages-page"
        title={t("mensagensRapidas.title")}
        description={t("mensagensRapidas.description")}
        newLabel={t("mensagensRapidas.new")}
        newTestId="quick-new"
        onNew={() => setEditing(null)}
        toolbar={
          <>
            <Input
              allowClear
              prefix={<SearchOutlined />}
              placeholder={t("mensagensRapidas.search")}
              style={{ maxWidth: 320 }}
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              data-testid="quick-search"
            />
            <Segmented
              value={tab}
              onChange={(v) => setTab(v as Tab)}
              data-testid="quick-tabs"
              options={TABS.map((s) => ({
                value: s,
                icon: s === "all" ? <AppstoreOutlined /> : SCOPE_ICON[s],
                label: (
                  <span data-testid={`quick-tab-${s}`}>
                    {t(`mensagensRapidas.tabs.${s}`)} <span className="oa-muted">{counts[s]}</span>
                  </span>
                ),
              }))}
            />
          </>
        }
        icon={<MessageOutlined />}
        emptyText={t("mensagensRapidas.empty")}
        noMatchText={t("mensagensRapidas.noMatch")}
        filtered={!!filter || tab !== "all"}
        rows={shown}
        loading={loading}
        scrollX={700}
        rowTestId={(m) => `quick-row-${m.id}`}
        columns={[
          {
            title: t("mensagensRapidas.key"),
            dataIndex: "shortcut",
            width: 200,
            render: (s: string) => (
              <Typography.Text code className="oa-code">
                {s}
              </Typography.Text>
            ),
          },
          {
            title: t("mensagensRapidas.message"),
            dataIndex: "message",
            render: (m: string) => <div className="oa-clamp-2">{m}</div>,
          },
          {
            title: t("mensagensRapidas.scope"),
            dataIndex: "scope",
            width: 220,
            render: (_: unknown, m) => (
              <span className="oa-tags">
                <Tag color={SCOPE_COLOR[m.scope]} icon={SCOPE_ICON[m.scope]}>
                  {t(`mensagensRapidas.scopes.${m.scope}`)}
                </Tag>
                {/* A user knows the names of their own queues only; the others stay unnamed. */}
                {m.scope === "queue" ? m.queueIds.filter((id) => admin || queueName.has(id)).map((id) => <Tag key={id}>{queueName.get(id) ?? `#${id}`}</Tag>) : null}
              </span>
            ),
          },
          {
            title: t("common.actions"),
            key: "actions",
            width: 130,
            align: "right",
            fixed: "right",
            render: (_: unknown, m) =>
              m.editable ? (
                <EditDeleteActions
                  t={t}
                  onEdit={() => setEditing(m)}
                  onDelete={() => remove(m)}
                  deleteTitle={t("mensagensRapidas.deleteTitle")}
                  deleteDetail={t("mensagensRapidas.deleteDetail", { key: m.shortcut })}
                />
              ) : (
                <Tooltip title={t("mensagensRapidas.readOnlyHint")}>
                  <Tag icon={<LockOutlined />} bordered={false} data-testid={`quick-readonly-${m.id}`}>
                    {t("mensagensRapidas.readOnly")}
                  </Tag>
                </Tooltip>
              ),
          },
        ]}
      >
        {editing !== undefined ? (
          <QuickMessageModal
            message={editing}
            initialScope={tab === "all" ? "global" : tab}
            queues={queues}
            admin={admin}
            onClose={() => setEditing(undefined)}
            onSaved={(m) => {
              setRows((rs) => (rs.some((r) => r.id === m.id) ? rs.map((r) => (r.id === m.id ? m : r)) : [...rs, m]).sort((a, b) => a.key.localeCompare(b.key)));
              setEditing(undefined);
            }}
          />
        ) : null}
      </SettingsList>
    </div>
  );
});
