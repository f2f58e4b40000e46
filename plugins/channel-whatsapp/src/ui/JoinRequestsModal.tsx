import { useCallback, useEffect, useState } from "react";
import { Alert, Button, Empty, Form, Modal, Select, Space, Table, Typography } from "antd";
import { CheckOutlined, CloseOutlined, SyncOutlined } from "@ant-design/icons";
import type { ChatListActionProps } from "@openatende/plugin-sdk/ui";
import ConnectionSelect from "./ConnectionSelect";
import { formatTime, type ConnectionRow } from "./shared";

interface GroupTicket {
  contactId: number;
  connectionId: number | null;
  isGroup: boolean;
  contact?: { id: number; name: string };
}

interface JoinRequest {
  externalId: string;
  phone?: string;
  requestedAt?: number;
  method?: string;
}

/** Pages of group tickets read to offer the connection's groups (100 each). */
const GROUP_PAGES = 5;

/**
 * Join requests of a WhatsApp group (spec §4 Other): the connection, one of its groups known
 * from the Groups tab, the pending requests, and approve or reject for the chosen ones.
 */
export default function JoinRequestsModal({ runtime, onClose }: ChatListActionProps) {
  const t = runtime.t;
  const [connection, setConnection] = useState<ConnectionRow | null>(null);
  const [groups, setGroups] = useState<Array<{ id: number; name: string }> | null>(null);
  const [group, setGroup] = useState<number | null>(null);
  const [requests, setRequests] = useState<JoinRequest[] | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const [loading, setLoading] = useState(false);
  const [answering, setAnswering] = useState<"approve" | "reject" | null>(null);

  // The connection's groups: the contacts of its group tickets.
  useEffect(() => {
    setGroups(null);
    setGroup(null);
    setRequests(null);
    if (!connection) return;
    let live = true;
    (async () => {
      const seen = new Map<number, string>();
      for (let page = 1; page <= GROUP_PAGES; page++) {
        const r = await runtime.api.get<{ tickets: GroupTicket[]; hasMore: boolean }>("/tickets", { query: { status: "group", showAll: true, pageSize: 100, pageNumber: page }, silent: true });
        for (const tk of r.tickets) if (tk.isGroup && tk.connectionId === connection.id && tk.contact && !seen.has(tk.contactId)) seen.set(tk.contactId, tk.contact.name);
        if (!r.hasMore) break;
      }
      if (live) setGroups([...seen].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name)));
    })().catch((err) => {
      if (!live) return;
      setGroups([]);
      runtime.notify.error(err);
    });
    return () => {
      live = false;
    };
  }, [runtime, connection]);

  const load = useCallback(async () => {
    if (!connection?.token || !group) return;
    setLoading(true);
    setSelected([]);
    try {
      const r = await runtime.api.get<{ requests: JoinRequest[] }>("/channel-whatsapp/groups/join-requests", { query: { token: connection.token, group: String(group) }, silent: true });
      setRequests(r.requests);
    } catch (err) {
      setRequests(null);
      runtime.notify.error(err);
    } finally {
      setLoading(false);
    }
  }, [runtime, connection, group]);
  useEffect(() => void load(), [load]);

  const answer = async (action: "approve" | "reject") => {
    if (!connection?.token || !group || !selected.length) return;
    setAnswering(action);
    try {
      const r = await runtime.api.post<{ results: Array<{ externalId: string; ok: boolean }> }>(
        "/channel-whatsapp/groups/join-requests",
        { token: connection.token, group: String(group), participants: selected, action },
        { silent: true },
      );
      const ok = r.results.filter((x) => x.ok).length;
      const failed = r.results.length - ok;
      if (ok) runtime.notify.success(t("jrDone", { n: ok }));
      if (failed) runtime.notify.info(t("jrFailed", { n: failed }));
      await load();
    } catch (err) {
      runtime.notify.error(err);
    } finally {
      setAnswering(null);
    }
  };

  const methodLabel = (m?: string) => (m ? (t(`jrMethods.${m}`) === `jrMethods.${m}` ? m : t(`jrMethods.${m}`)) : "—");

  return (
    <Modal open title={t("jrTitle")} footer={null} onCancel={onClose} destroyOnHidden width={640}>
      <Typography.Paragraph type="secondary">{t("jrHint")}</Typography.Paragraph>
      <Form layout="vertical" component="div" data-testid="wa-join-form">
        <div style={{ display: "grid", gridTemplateColumns: "repeat(auto-fit, minmax(220px, 1fr))", gap: "0 12px" }}>
          <Form.Item label={t("groupConnection")} style={{ marginBottom: 12 }}>
            <ConnectionSelect runtime={runtime} value={connection} onChange={setConnection} testId="wa-join-connection" />
          </Form.Item>
          <Form.Item label={t("jrGroup")} style={{ marginBottom: 12 }}>
            <Select<number>
              showSearch={{ optionFilterProp: "label" }}
              disabled={!connection}
              loading={!!connection && groups === null}
              value={group ?? undefined}
              placeholder={t("jrGroupPlaceholder")}
              notFoundContent={t("jrGroupNone")}
              onChange={setGroup}
              options={(groups ?? []).map((g) => ({ value: g.id, label: g.name }))}
              data-testid="wa-join-group"
            />
          </Form.Item>
        </div>
      </Form>
      {group ? (
        <>
          <Space style={{ marginBottom: 12 }} wrap>
            <Button type="primary" icon={<CheckOutlined />} disabled={!selected.length} loading={answering === "approve"} onClick={() => void answer("approve")} data-testid="wa-join-approve">
              {t("jrApprove")}
            </Button>
            <Button danger icon={<CloseOutlined />} disabled={!selected.length} loading={answering === "reject"} onClick={() => void answer("reject")} data-testid="wa-join-reject">
              {t("jrReject")}
            </Button>
            <Button type="text" icon={<SyncOutlined spin={loading} />} onClick={() => void load()}>
              {t("jrReload")}
            </Button>
          </Space>
          <Table<JoinRequest>
            size="small"
            rowKey="externalId"
            loading={loading}
            dataSource={requests ?? []}
            pagination={(requests?.length ?? 0) > 10 ? { pageSize: 10, showSizeChanger: false } : false}
            rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]) }}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("jrEmpty")} /> }}
            columns={[
              { title: t("jrPhone"), key: "phone", render: (_: unknown, r) => (r.phone ? `+${r.phone}` : r.externalId) },
              { title: t("jrRequestedAt"), key: "at", render: (_: unknown, r) => formatTime(r.requestedAt, runtime.locale, "—") },
              { title: t("jrMethod"), key: "method", render: (_: unknown, r) => methodLabel(r.method) },
            ]}
            data-testid="wa-join-requests"
          />
        </>
      ) : connection && groups && !groups.length ? (
        <Alert type="info" showIcon title={t("jrGroupNone")} />
      ) : null}
    </Modal>
  );
}
