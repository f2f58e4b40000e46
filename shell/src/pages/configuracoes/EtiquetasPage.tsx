import { useState } from "react";
import { observer } from "mobx-react-lite";
import { useTranslation } from "react-i18next";
import { Button, ColorPicker, Form, Input, Modal, Space, Switch, Tag, Tooltip } from "antd";
import { DeleteOutlined, EditOutlined, SearchOutlined, TagsOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { SettingsList } from "../../ui/SettingsList";
import { ApiError } from "../../api/client";
import { PRESET_COLORS } from "../../ui/colors";
import { applyFieldErrors } from "../../ui/api-errors";
import { formatDateTime } from "../../ui/format";
import { useNamedRows } from "../../ui/named-rows";

export interface TagView {
  id: number;
  name: string;
  color: string;
  active: boolean;
  updatedAt?: string;
}

const HEX = /^#[0-9a-fA-F]{6}$/;

/** Settings › Etiquetas: tags with a colour; a tag in use is removed from its contacts after a second confirmation. */
export default observer(function EtiquetasPage() {
  const root = useRoot();
  const { t, i18n } = useTranslation();
  const { loading, filter, setFilter, shown, busy, toggle, saved, removed } = useNamedRows<TagView>(root.api, "/tags");
  const [editing, setEditing] = useState<TagView | null | undefined>(undefined);
  const [modal, modalHolder] = Modal.useModal();

  const remove = (tag: TagView) => {
    const run = async (force: boolean) => {
      try {
        await root.api.delete(`/tags/${tag.id}`, { query: force ? { force: true } : undefined, silent: !force, successNotice: true });
        removed(tag.id);
      } catch (e) {
        if (!force && e instanceof ApiError && e.code === "ERR_TAG_HAS_CONTACTS") {
          const count = Number(e.data.count ?? 0);
          modal.confirm({
            title: t("configuracoes.tags.inUseTitle"),
            content: t("configuracoes.tags.inUseDetail", { name: tag.name, count }),
            okText: t("configuracoes.tags.deleteAnyway"),
            okButtonProps: { danger: true },
            cancelText: t("common.cancel"),
            onOk: () => run(true),
          });
        } else if (!force) root.notifyError(e);
      }
    };
    modal.confirm({
      title: t("configuracoes.tags.deleteTitle"),
      content: t("configuracoes.tags.deleteDetail", { name: tag.name }),
      okText: t("common.delete"),
      okButtonProps: { danger: true },
      cancelText: t("common.cancel"),
      onOk: () => run(false),
    });
  };

  return (
    <SettingsList<TagView>
      testId="tags-page"
      title={t("configuracoes.tags.title")}
      description={t("configuracoes.tags.description")}
      newLabel={t("configuracoes.tags.new")}
      newTestId="tag-new"
      onNew={() => setEditing(null)}
      toolbar={<Input allowClear prefix={<SearchOutlined />} placeholder={t("configuracoes.tags.search")} style={{ maxWidth: 320 }} value={filter} onChange={(e) => setFilter(e.target.value)} />}
      icon={<TagsOutlined />}
      emptyText={t("configuracoes.tags.empty")}
      noMatchText={t("configuracoes.noMatch")}
      filtered={!!filter}
      rows={shown}
      loading={loading}
      columns={[
        {
          title: t("configuracoes.tags.tag"),
          dataIndex: "name",
          render: (_: unknown, tag) => (
            <Tag color={tag.color} variant="solid" style={{ fontSize: 13, padding: "2px 10px" }}>
              {tag.name}
            </Tag>
          ),
        },
        {
          title: t("configuracoes.tags.color"),
          dataIndex: "color",
          width: 140,
          render: (c: string) => (
            <Space size={8}>
              <span className="oa-swatch" style={{ background: c }} />
              <span className="oa-code">{c}</span>
            </Space>
          ),
        },
        {
          title: t("configuracoes.queues.status"),
          dataIndex: "active",
          width: 160,
          render: (_: unknown, tag) => (
            <Space>
              <Switch size="small" checked={tag.active} loading={busy === tag.id} onChange={(v) => void toggle(tag, v)} aria-label={t("configuracoes.tags.active")} />
              <Tag color={tag.active ? "green" : "default"} variant="filled">
                {tag.active ? t("configuracoes.active") : t("configuracoes.inactive")}
              </Tag>
            </Space>
          ),
        },
        {
          title: t("configuracoes.updatedAt"),
          dataIndex: "updatedAt",
          width: 180,
          responsive: ["md"],
          render: (v: string) => <span className="oa-nowrap">{formatDateTime(v, i18n.language)}</span>,
        },
        {
          title: t("common.actions"),
          key: "actions",
          width: 110,
          align: "right",
          fixed: "right",
          render: (_: unknown, tag) => (
            <Space size={4}>
              <Tooltip title={t("common.edit")}>
                <Button type="text" icon={<EditOutlined />} onClick={() => setEditing(tag)} aria-label={t("common.edit")} />
              </Tooltip>
              <Tooltip title={t("common.delete")}>
                <Button type="text" danger icon={<DeleteOutlined />} onClick={() => remove(tag)} aria-label={t("common.delete")} />
              </Tooltip>
            </Space>
          ),
        },
      ]}
    >
      {modalHolder}
      {editing !== undefined ? (
        <TagModal
          tag={editing}
          onClose={() => setEditing(undefined)}
          onSaved={(tag) => {
            saved(tag);
            setEditing(undefined);
          }}
        />
      ) : null}
    </SettingsList>
  );
});

interface TagForm {
  name: string;
  color: string;
  active: boolean;
}

function TagModal({ tag, onClose, onSaved }: { tag: TagView | null; onClose: () => void; onSaved: (t: TagView) => void }) {
  const root = useRoot();
  const { t } = useTranslation();
  const [form] = Form.useForm<TagForm>();
  const [saving, setSaving] = useState(false);
  const name = Form.useWatch("name", form);
  const color = Form.useWatch("color", form);
  const submit = async () => {
    // Invalid fields show their messages; nothing is sent.
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setSaving(true);
    try {
      const body = { name: v.name.trim(), color: v.color.toLowerCase(), active: v.active };
      const saved = tag
        ? await root.api.put<TagView>(`/tags/${tag.id}`, body, { silent: true, successNotice: true })
        : await root.api.post<TagView>("/tags", body, { silent: true, successNotice: true });
      onSaved(saved);
    } catch (e) {
      if (!applyFieldErrors(form, e, t, ["name", "color"])) root.notifyError(e);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={tag ? t("configuracoes.tags.edit") : t("configuracoes.tags.new")}
      okText={t("common.save")}
      cancelText={t("common.cancel")}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
       
        initialValues={{ name: tag?.name ?? "", color: tag?.color ?? PRESET_COLORS[4], active: tag?.active ?? true }}
        onFinish={submit}
      >
        <Form.Item name="name" label={t("configuracoes.tags.name")} rules={[{ required: true, whitespace: true, message: t("common.required") }, { max: 100, message: t("configuracoes.rules.stringMax", { expected: 100 }) }]}>
          <Input autoFocus maxLength={100} placeholder={t("configuracoes.tags.namePlaceholder")} data-testid="tag-name" />
        </Form.Item>
        <Form.Item label={t("configuracoes.tags.color")} required>
          <Space wrap>
            <Form.Item name="color" noStyle rules={[{ pattern: HEX, message: t("configuracoes.rules.color") }]} getValueFromEvent={(c: { toHexString(): string }) => c.toHexString()}>
              <ColorPicker disabledAlpha presets={[{ label: t("configuracoes.tags.suggested"), colors: PRESET_COLORS }]} showText />
            </Form.Item>
            {PRESET_COLORS.slice(0, 8).map((c) => (
              <button
                type="button"
                key={c}
                className="oa-swatch"
                style={{ background: c, border: 0, cursor: "pointer", outline: color === c ? "2px solid currentColor" : undefined, outlineOffset: 2 }}
                aria-label={c}
                onClick={() => form.setFieldValue("color", c)}
              />
            ))}
          </Space>
        </Form.Item>
        <Form.Item label={t("configuracoes.tags.preview")}>
          <Tag color={HEX.test(color ?? "") ? color : undefined} variant="solid" style={{ fontSize: 13, padding: "2px 10px" }}>
            {name?.trim() || t("configuracoes.tags.namePlaceholder")}
          </Tag>
        </Form.Item>
        <Form.Item name="active" label={t("configuracoes.tags.active")} valuePropName="checked">
          <Switch />
        </Form.Item>
        <button type="submit" hidden />
      </Form>
    </Modal>
  );
}
