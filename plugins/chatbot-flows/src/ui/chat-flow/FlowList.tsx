/**
 * The chat-flow list (/configuracoes/chat-flow): the tenant's chat flows with name, active and
 * last change; open, duplicate and delete (asked first; a flow in use is refused by the server
 * with ERR_FLOW_IN_USE, shown as the shell's notice); a new flow; a flow imported from its JSON
 * (the server validates it fully and its error is shown here, in place).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { Alert, Button, Input, Modal, Space, Switch, Table, Tooltip, Typography, theme } from "antd";
import { CopyOutlined, DeleteOutlined, EditOutlined, ImportOutlined, PlusOutlined } from "@ant-design/icons";
import type { ShellRuntime, UiApiError } from "@openatende/plugin-sdk/ui";
import { initialGraph } from "../../flows/graph";
import { DEFAULT_BOT_SETTINGS } from "../../model";
import { flowsApi, type FlowRow } from "./api";
import { chatFlowT } from "./context";

type Dialog = { kind: "new" } | { kind: "delete"; flow: FlowRow } | null;

export function FlowList({ rt, onOpen }: { rt: ShellRuntime; onOpen: (id: number) => void }) {
  const { token: tk } = theme.useToken();
  const tr = chatFlowT(rt);
  const api = flowsApi(rt);
  const [rows, setRows] = useState<FlowRow[] | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [importError, setImportError] = useState<{ title: string; detail?: string } | null>(null);
  const file = useRef<HTMLInputElement>(null);

  const load = useCallback(async () => {
    try {
      setRows(await flowsApi(rt).list({ silent: true }));
    } catch (err) {
      rt.notify.error(err);
      setRows([]);
    }
  }, [rt]);
  useEffect(() => void load(), [load]);

  const create = async () => {
    if (!name.trim()) return;
    setBusy(true);
    try {
      const f = await api.create({ kind: "chat", name: name.trim(), description: "", active: false, settings: DEFAULT_BOT_SETTINGS, graph: initialGraph(tr("type.start")), steps: null, testPhone: null });
      setDialog(null);
      onOpen(f.id);
    } catch {
      /* the shell showed the error */
    } finally {
      setBusy(false);
    }
  };

  const remove = async (f: FlowRow) => {
    setBusy(true);
    try {
      await api.remove(f.id, { successNotice: true });
      setDialog(null);
      await load();
    } catch {
      // ERR_FLOW_IN_USE and others: the shell's notice says why; the flow stays.
      setDialog(null);
    } finally {
      setBusy(false);
    }
  };

  const duplicate = async (f: FlowRow) => {
    await api.duplicate(f.id, { successNotice: true }).then(load, () => undefined);
  };

  const setActive = async (f: FlowRow, active: boolean) => {
    setRows((rs) => rs?.map((r) => (r.id === f.id ? { ...r, active } : r)) ?? rs);
    await api.update(f.id, { active }).catch(() => undefined);
    await load();
  };

  const importFile = async (picked: File | undefined) => {
    if (file.current) file.current.value = "";
    if (!picked) return;
    setImportError(null);
    let doc: unknown;
    try {
      doc = JSON.parse(await picked.text());
    } catch {
      return setImportError({ title: tr("importNotJson", { name: picked.name }) });
    }
    try {
      const f = await api.import(doc, { silent: true });
      rt.notify.success(tr("imported", { name: f.name }));
      await load();
    } catch (err) {
      const e = err as Partial<UiApiError>;
      setImportError({ title: e.title || tr("importFailed"), detail: e.detail });
    }
  };

  const when = (iso: string) => new Date(iso).toLocaleString(rt.locale);

  return (
    <div data-testid="chat-flow-list" style={{ display: "flex", flexDirection: "column", gap: 12 }}>
      <div style={{ display: "flex", alignItems: "flex-start", gap: 12, flexWrap: "wrap" }}>
        <div style={{ flex: 1, minWidth: 240 }}>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {tr("listTitle")}
          </Typography.Title>
          <Typography.Text type="secondary">{tr("listSubtitle")}</Typography.Text>
        </div>
        <Space wrap>
          <Button icon={<ImportOutlined />} onClick={() => file.current?.click()} data-testid="chat-flow-import">
            {tr("importJson")}
          </Button>
          <input ref={file} type="file" accept=".json,application/json" hidden data-testid="chat-flow-import-input" onChange={(e) => void importFile(e.target.files?.[0])} />
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => {
              setName("");
              setDialog({ kind: "new" });
            }}
            data-testid="chat-flow-new"
          >
            {tr("newFlow")}
          </Button>
        </Space>
      </div>
      {importError ? (
        <Alert type="error" showIcon closable={{ onClose: () => setImportError(null) }} title={importError.title} description={importError.detail} data-testid="chat-flow-import-error" />
      ) : null}
      <Table<FlowRow>
        rowKey="id"
        loading={rows === null}
        dataSource={rows ?? []}
        pagination={false}
        locale={{ emptyText: tr("listEmpty") }}
        onRow={(r) => ({ "data-testid": "chat-flow-row", "data-name": r.name, "data-id": r.id }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          {
            title: tr("colName"),
            dataIndex: "name",
            render: (_, r) => (
              <div>
                <Typography.Link onClick={() => onOpen(r.id)} data-testid="chat-flow-open-link">
                  {r.name}
                </Typography.Link>
                {r.description ? <div style={{ color: tk.colorTextSecondary, fontSize: 12 }}>{r.description}</div> : null}
              </div>
            ),
          },
          {
            title: tr("colActive"),
            dataIndex: "active",
            width: 110,
            render: (_, r) => <Switch size="small" checked={r.active} onChange={(v) => void setActive(r, v)} aria-label={tr("active")} data-testid="chat-flow-active" />,
          },
          { title: tr("colUpdated"), dataIndex: "updatedAt", width: 200, render: (v: string) => when(v) },
          {
            title: tr("colActions"),
            key: "actions",
            width: 150,
            render: (_, r) => (
              <Space size={2}>
                <Tooltip title={tr("open")}>
                  <Button type="text" icon={<EditOutlined />} onClick={() => onOpen(r.id)} aria-label={tr("open")} data-testid="chat-flow-open" />
                </Tooltip>
                <Tooltip title={tr("duplicate")}>
                  <Button type="text" icon={<CopyOutlined />} onClick={() => void duplicate(r)} aria-label={tr("duplicate")} data-testid="chat-flow-duplicate" />
                </Tooltip>
                <Tooltip title={tr("delete")}>
                  <Button type="text" danger icon={<DeleteOutlined />} onClick={() => setDialog({ kind: "delete", flow: r })} aria-label={tr("delete")} data-testid="chat-flow-delete" />
                </Tooltip>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={dialog?.kind === "new"}
        title={tr("newFlow")}
        okText={tr("create")}
        cancelText={tr("cancel")}
        confirmLoading={busy}
        okButtonProps={{ disabled: !name.trim(), "data-testid": "chat-flow-new-ok" }}
        onOk={() => void create()}
        onCancel={() => setDialog(null)}
        destroyOnHidden
      >
        <Input autoFocus value={name} maxLength={100} placeholder={tr("flowName")} onChange={(e) => setName(e.target.value)} onPressEnter={() => void create()} data-testid="chat-flow-new-name" />
      </Modal>
      <Modal
        open={dialog?.kind === "delete"}
        title={tr("deleteTitle")}
        okText={tr("delete")}
        cancelText={tr("cancel")}
        okButtonProps={{ danger: true, "data-testid": "chat-flow-delete-ok" }}
        confirmLoading={busy}
        onOk={() => dialog?.kind === "delete" && void remove(dialog.flow)}
        onCancel={() => setDialog(null)}
      >
        {dialog?.kind === "delete" ? tr("deleteConfirm", { name: dialog.flow.name }) : null}
      </Modal>
    </div>
  );
}
