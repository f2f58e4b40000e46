import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, Form, Input, Modal, Table, Tag, Typography, type FormInstance } from "antd";
import { BankOutlined, PlusOutlined, ReloadOutlined, SearchOutlined, UserAddOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { fieldErrorsOf } from "../../ui/api-errors";
import { formatDateTime } from "../../ui/format";
import "../../ui/kit.css";

interface TenantRow {
  id: number;
  name: string;
  document: string | null;
  status: "active" | "inactive";
  createdAt?: string;
}

interface AdminFields {
  name: string;
  email: string;
  password: string;
}

const SEARCH_DEBOUNCE_MS = 300;

/**
 * /empresas (the platform level only; PathGate refuses other profiles): the tenants, a new
 * tenant created together with its first admin (without one nobody could use it), and more
 * admins added to a tenant later. The full reseller panel comes later.
 */
export default function EmpresasPage() {
  const root = useRoot();
  const { t, i18n } = useTranslation();
  const [rows, setRows] = useState<TenantRow[]>([]);
  const [loading, setLoading] = useState(false);
  const [typed, setTyped] = useState("");
  const [creating, setCreating] = useState(false);
  const [adding, setAdding] = useState<TenantRow | null>(null);

  const load = useCallback(async (search: string) => {
    setLoading(true);
    try {
      const r = await root.api.get<{ tenants: TenantRow[] }>("/tenants", { query: { searchParam: search.trim(), pageSize: 200 } });
      setRows(r.tenants ?? []);
    } catch {
      /* shown by the client */
    } finally {
      setLoading(false);
    }
  }, [root]);

  useEffect(() => {
    const h = setTimeout(() => void load(typed), typed ? SEARCH_DEBOUNCE_MS : 0);
    return () => clearTimeout(h);
  }, [load, typed]);

  return (
    <div className="oa-page" data-page="EmpresasPage" data-testid="empresas-page">
      <div className="oa-page-head">
        <div>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t("empresas.title")}
          </Typography.Title>
          <Typography.Text type="secondary">{t("empresas.subtitle")}</Typography.Text>
        </div>
        <div style={{ display: "flex", gap: 8 }}>
          <Button icon={<ReloadOutlined />} onClick={() => void load(typed)} aria-label={t("empresas.reload")} />
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="tenant-new">
            {t("empresas.new")}
          </Button>
        </div>
      </div>
      <Input allowClear prefix={<SearchOutlined />} placeholder={t("empresas.search")} style={{ maxWidth: 320, marginBottom: 12 }} value={typed} onChange={(e) => setTyped(e.target.value)} />
      <Table<TenantRow>
        rowKey="id"
        size="middle"
        loading={loading}
        dataSource={rows}
        pagination={false}
        locale={{ emptyText: t("empresas.empty") }}
        onRow={(r) => ({ "data-testid": `tenant-row-${r.id}` }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          {
            title: t("empresas.name"),
            dataIndex: "name",
            render: (_: unknown, r) => (
              <span className="oa-cell-main">
                <BankOutlined style={{ opacity: 0.55 }} />
                <strong>{r.name}</strong>
              </span>
            ),
          },
          { title: t("empresas.document"), dataIndex: "document", responsive: ["md"], render: (v: string | null) => v ?? "—" },
          {
            title: t("empresas.status"),
            dataIndex: "status",
            width: 120,
            render: (v: TenantRow["status"]) => <Tag color={v === "active" ? "green" : "default"}>{t(`empresas.statuses.${v}`)}</Tag>,
          },
          {
            title: t("empresas.createdAt"),
            dataIndex: "createdAt",
            width: 180,
            responsive: ["lg"],
            render: (v: string) => <span className="oa-nowrap">{formatDateTime(v, i18n.language)}</span>,
          },
          {
            title: t("common.actions"),
            key: "actions",
            width: 190,
            align: "right",
            render: (_: unknown, r) => (
              <Button size="small" icon={<UserAddOutlined />} onClick={() => setAdding(r)} data-testid={`tenant-add-admin-${r.id}`}>
                {t("empresas.addAdmin")}
              </Button>
            ),
          },
        ]}
      />
      {creating ? (
        <NewTenantModal
          onClose={() => setCreating(false)}
          onSaved={(r) => {
            setCreating(false);
            setRows((old) => [r, ...old.filter((x) => x.id !== r.id)]);
          }}
        />
      ) : null}
      {adding ? <AddAdminModal tenant={adding} onClose={() => setAdding(null)} /> : null}
    </div>
  );
}

/** The admin's three fields, under `prefix` in the form ("admin" for a new tenant's). */
function AdminInputs({ prefix }: { prefix?: string }) {
  const { t } = useTranslation();
  const name = (f: string) => (prefix ? [prefix, f] : f);
  return (
    <>
      <Form.Item name={name("name")} label={t("empresas.adminName")} rules={[{ required: true, min: 2, message: t("empresas.required") }]}>
        <Input maxLength={120} data-testid="admin-name" autoComplete="off" />
      </Form.Item>
      <Form.Item name={name("email")} label={t("empresas.adminEmail")} rules={[{ required: true, type: "email", message: t("empresas.emailInvalid") }]}>
        <Input maxLength={190} data-testid="admin-email" autoComplete="off" />
      </Form.Item>
      <Form.Item name={name("password")} label={t("empresas.adminPassword")} extra={t("empresas.passwordHint")} rules={[{ required: true, message: t("empresas.required") }]}>
        <Input.Password maxLength={128} data-testid="admin-password" autoComplete="new-password" />
      </Form.Item>
    </>
  );
}

/** Shows the API's field errors (a weak password, an e-mail taken) on the form's fields. */
/* Any form of this page. */
function showFieldErrors(form: FormInstance<any>, e: unknown, t: ReturnType<typeof useTranslation>["t"], prefix?: string) {
  const own = fieldErrorsOf(e, t);
  const admin = fieldErrorsOf(e, t, "admin.");
  const fields = [
    ...Object.entries(own).map(([k, v]) => ({ name: k, errors: [v] })),
    // The admin's own rules (users.createAdmin) name its fields "admin.<field>".
    ...Object.entries(admin).map(([k, v]) => ({ name: prefix ? [prefix, k] : k, errors: [v] })),
  ];
  if (fields.length) form.setFields(fields as Parameters<typeof form.setFields>[0]);
}

function NewTenantModal({ onClose, onSaved }: { onClose: () => void; onSaved: (r: TenantRow) => void }) {
  const root = useRoot();
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string; document?: string; admin: AdminFields }>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const v = await form.validateFields();
    setBusy(true);
    try {
      const r = await root.api.post<TenantRow>("/tenants", { name: v.name, document: v.document || undefined, admin: v.admin }, { successNotice: t("empresas.created") });
      onSaved(r);
    } catch (e) {
      showFieldErrors(form, e, t, "admin");
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open title={t("empresas.new")} okText={t("empresas.create")} onOk={() => void submit()} confirmLoading={busy} onCancel={onClose} destroyOnHidden okButtonProps={{ id: "tenant-save" }}>
      <Form form={form} layout="vertical" requiredMark={false} data-testid="tenant-form">
        <Form.Item name="name" label={t("empresas.name")} rules={[{ required: true, min: 2, message: t("empresas.required") }]}>
          <Input maxLength={120} data-testid="tenant-name" />
        </Form.Item>
        <Form.Item name="document" label={t("empresas.document")}>
          <Input maxLength={20} data-testid="tenant-document" />
        </Form.Item>
        <Typography.Title level={5}>{t("empresas.firstAdmin")}</Typography.Title>
        <Typography.Paragraph type="secondary">{t("empresas.firstAdminHint")}</Typography.Paragraph>
        <AdminInputs prefix="admin" />
      </Form>
    </Modal>
  );
}

function AddAdminModal({ tenant, onClose }: { tenant: TenantRow; onClose: () => void }) {
  const root = useRoot();
  const { t } = useTranslation();
  const [form] = Form.useForm<AdminFields>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const v = await form.validateFields();
    setBusy(true);
    try {
      await root.api.post(`/tenants/${tenant.id}/admins`, v, { successNotice: t("empresas.adminAdded") });
      onClose();
    } catch (e) {
      showFieldErrors(form, e, t);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open title={t("empresas.addAdminTo", { name: tenant.name })} okText={t("empresas.add")} onOk={() => void submit()} confirmLoading={busy} onCancel={onClose} destroyOnHidden okButtonProps={{ id: "admin-save" }}>
      <Form form={form} layout="vertical" requiredMark={false} data-testid="admin-form">
        <AdminInputs />
      </Form>
    </Modal>
  );
}
