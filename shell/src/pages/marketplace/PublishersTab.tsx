import { useCallback, useEffect, useState, type HTMLAttributes } from "react";
import { useTranslation } from "react-i18next";
import { Alert, Button, Card, Empty, Form, Input, Modal, Table, Tag, Tooltip, Typography } from "antd";
import { CheckOutlined, CopyOutlined, KeyOutlined, PlusOutlined, SafetyCertificateOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { SectionHeader } from "../../ui/SectionHeader";
import { applyFieldErrors } from "../../ui/api-errors";
import { formatDateTime } from "../../ui/format";
import type { Publisher } from "./types";

/** A publisher token, shown once: copy it now or rotate it later. */
function TokenModal({ name, token, onClose }: { name: string; token: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={t("marketplace.publishers.tokenTitle", { name })}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
      footer={
        <Button type="primary" onClick={onClose} data-testid="publisher-token-done">
          {t("marketplace.publishers.tokenDone")}
        </Button>
      }
    >
      <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t("marketplace.publishers.tokenOnce")} description={t("marketplace.publishers.tokenUse")} />
      <Typography.Paragraph
        className="oa-mkt-token"
        copyable={{
          text: token,
          tooltips: false,
          icon: [
            <span key="copy" className="oa-mkt-copy" data-testid="publisher-token-copy">
              <CopyOutlined /> {t("marketplace.publishers.copy")}
            </span>,
            <span key="copied" className="oa-mkt-copy oa-mkt-copied">
              <CheckOutlined /> {t("marketplace.publishers.copied")}
            </span>,
          ],
        }}
        data-testid="publisher-token"
      >
        <code>{token}</code>
      </Typography.Paragraph>
    </Modal>
  );
}

function NewPublisherModal({ onClose, onCreated }: { onClose: () => void; onCreated: (p: Publisher & { token: string }) => void }) {
  const root = useRoot();
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string; email: string }>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    let values: { name: string; email: string };
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setBusy(true);
    try {
      onCreated(await root.api.post<Publisher & { token: string }>("/marketplace/publishers", { name: values.name.trim(), email: values.email.trim() }, { silent: true }));
    } catch (e) {
      if (!applyFieldErrors(form, e, t, ["name", "email"])) root.notifyError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open title={t("marketplace.publishers.new")} okText={t("common.create")} cancelText={t("common.cancel")} onOk={submit} onCancel={onClose} confirmLoading={busy} destroyOnHidden>
      <Typography.Paragraph type="secondary">{t("marketplace.publishers.newHint")}</Typography.Paragraph>
      <Form form={form} layout="vertical" requiredMark={false} onFinish={submit}>
        <Form.Item name="name" label={t("common.name")} rules={[{ required: true, whitespace: true, message: t("common.required") }, { max: 120, message: t("configuracoes.rules.stringMax", { expected: 120 }) }]}>
          <Input maxLength={120} autoFocus data-testid="publisher-name" />
        </Form.Item>
        <Form.Item name="email" label={t("common.email")} rules={[{ required: true, message: t("common.required") }, { type: "email", message: t("configuracoes.rules.email") }]}>
          <Input type="email" maxLength={180} data-testid="publisher-email" onPressEnter={submit} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * Marketplace › Publicadores: the accounts that may publish plugins (GET /marketplace/publishers),
 * a new one (its token shown once, in a modal with a copy button), and a new token for an
 * account (the old one stops working).
 */
export default function PublishersTab() {
  const root = useRoot();
  const { t, i18n } = useTranslation();
  const [modal, modalHolder] = Modal.useModal();
  const [rows, setRows] = useState<Publisher[]>([]);
  const [loading, setLoading] = useState(true);
  const [creating, setCreating] = useState(false);
  const [rotating, setRotating] = useState<number | null>(null);
  const [shown, setShown] = useState<{ name: string; token: string } | null>(null);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      setRows(await root.api.get<Publisher[]>("/marketplace/publishers"));
    } catch {
      /* shown by the client */
    } finally {
      setLoading(false);
    }
  }, [root]);
  useEffect(() => void load(), [load]);

  const rotate = (p: Publisher) =>
    modal.confirm({
      title: t("marketplace.publishers.rotateTitle", { name: p.name }),
      content: t("marketplace.publishers.rotateDetail"),
      okText: t("marketplace.publishers.rotate"),
      okButtonProps: { danger: true },
      cancelText: t("common.cancel"),
      onOk: async () => {
        setRotating(p.id);
        try {
          const r = await root.api.post<{ id: number; token: string }>(`/marketplace/publishers/${p.id}/token`, {});
          setShown({ name: p.name, token: r.token });
        } catch {
          /* shown by the client */
        } finally {
          setRotating(null);
        }
      },
    });

  return (
    <Card variant="borderless" data-testid="publishers-tab">
      {modalHolder}
      <SectionHeader
        title={t("marketplace.publishers.title")}
        description={t("marketplace.publishers.description")}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="publisher-new">
            {t("marketplace.publishers.new")}
          </Button>
        }
      />
      <Table<Publisher>
        rowKey="id"
        loading={loading}
        dataSource={rows}
        pagination={rows.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
        scroll={{ x: 760 }}
        locale={{ emptyText: <Empty image={<SafetyCertificateOutlined style={{ fontSize: 48, opacity: 0.35 }} />} description={t("marketplace.publishers.empty")} /> }}
        onRow={(p) => ({ "data-testid": `publisher-row-${p.id}` }) as HTMLAttributes<HTMLElement>}
        columns={[
          {
            title: t("common.name"),
            dataIndex: "name",
            render: (_: unknown, p) => (
              <span className="oa-cell-text">
                <strong>{p.name}</strong>
                <span className="oa-muted">{p.email}</span>
              </span>
            ),
          },
          {
            title: t("common.status"),
            dataIndex: "active",
            width: 120,
            render: (a: boolean) => <Tag color={a ? "green" : undefined}>{a ? t("marketplace.publishers.active") : t("marketplace.publishers.inactive")}</Tag>,
          },
          { title: t("marketplace.publishers.plugins"), dataIndex: "plugins", width: 110, align: "right" },
          { title: t("marketplace.publishers.createdAt"), dataIndex: "createdAt", width: 170, responsive: ["lg"], render: (v: string) => <span className="oa-nowrap">{formatDateTime(v, i18n.language)}</span> },
          {
            title: t("common.actions"),
            key: "actions",
            width: 170,
            align: "right",
            fixed: "right",
            render: (_: unknown, p) => (
              <Tooltip title={t("marketplace.publishers.rotateHint")}>
                <Button icon={<KeyOutlined />} loading={rotating === p.id} onClick={() => rotate(p)} data-testid={`publisher-rotate-${p.id}`}>
                  {t("marketplace.publishers.rotate")}
                </Button>
              </Tooltip>
            ),
          },
        ]}
      />
      {creating ? (
        <NewPublisherModal
          onClose={() => setCreating(false)}
          onCreated={(p) => {
            setCreating(false);
            setShown({ name: p.name, token: p.token });
            void load();
          }}
        />
      ) : null}
      {shown ? <TokenModal name={shown.name} token={shown.token} onClose={() => setShown(null)} /> : null}
    </Card>
  );
}
