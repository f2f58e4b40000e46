import { useEffect, useRef, useState, type ReactNode } from "react";
import { Avatar, Button, Form, Input, Modal, Select, Space, Spin, Typography, Upload } from "antd";
import { DeleteOutlined, PictureOutlined, UsergroupAddOutlined } from "@ant-design/icons";
import type { ChatListActionProps } from "@openatende/plugin-sdk/ui";
import ConnectionSelect from "./ConnectionSelect";
import { apiFieldError, type ConnectionRow } from "./shared";
import { fileBase64 } from "./files";
import { GROUP_NAME_MAX, GROUP_PHOTO_TYPES, photoProblem, validateNewGroup } from "./validate";

interface ContactLite {
  id: number;
  name: string;
  number: string | null;
}

interface Picked {
  value: number;
  label: ReactNode;
}

/** How long typing pauses before contacts are searched. */
const SEARCH_DEBOUNCE_MS = 300;

/**
 * A new WhatsApp group from the Groups tab (spec §5 Group): name, connection and contacts
 * required, at most 1,023 participants, an optional photo (image, ≤ 5 MB) checked here before
 * upload and again by the server.
 */
export default function NewGroupModal({ runtime, onClose }: ChatListActionProps) {
  const t = runtime.t;
  const [name, setName] = useState("");
  const [connection, setConnection] = useState<ConnectionRow | null>(null);
  const [picked, setPicked] = useState<Picked[]>([]);
  const [options, setOptions] = useState<ContactLite[]>([]);
  const [searching, setSearching] = useState(false);
  const [photo, setPhoto] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  const searchSeq = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const search = (q: string) => {
    clearTimeout(timer.current);
    const seq = ++searchSeq.current;
    timer.current = setTimeout(async () => {
      setSearching(true);
      try {
        const r = await runtime.api.get<{ contacts: ContactLite[] }>("/contacts", { query: { searchParam: q.trim() || undefined, pageSize: 30 }, silent: true });
        if (seq === searchSeq.current) setOptions(r.contacts);
      } catch {
        if (seq === searchSeq.current) setOptions([]);
      } finally {
        if (seq === searchSeq.current) setSearching(false);
      }
    }, q ? SEARCH_DEBOUNCE_MS : 0);
  };
  useEffect(() => {
    search("");
    return () => clearTimeout(timer.current);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    if (!photo) return setPreview(null);
    const url = URL.createObjectURL(photo);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [photo]);

  const draft = () => ({ name, connectionToken: connection?.token ?? null, contactIds: picked.map((p) => p.value), photo });
  // Once the user tried to save, the messages follow what they change.
  useEffect(() => {
    if (touched) setErrors(validateNewGroup(draft(), t));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [name, connection, picked, photo, touched]);

  const submit = async () => {
    setTouched(true);
    const errs = validateNewGroup(draft(), t);
    setErrors(errs);
    if (Object.keys(errs).length || !connection?.token) return;
    setSaving(true);
    try {
      const picture = photo ? { data: await fileBase64(photo), mimeType: photo.type, fileName: photo.name } : undefined;
      const created = await runtime.api.post<{ name: string; participants: string[]; pictureSet?: boolean }>(
        "/channel-whatsapp/groups",
        { token: connection.token, name: name.trim(), contactIds: picked.map((p) => p.value), ...(picture ? { picture } : {}) },
        { silent: true },
      );
      runtime.notify.success(t("groupCreated", { name: created.name }));
      if (picture && created.pictureSet === false) runtime.notify.info(t("groupPhotoNotSet"));
      onClose();
    } catch (err) {
      const f = apiFieldError(err, { name: "name", token: "connection", contactIds: "contacts", participants: "contacts", picture: "photo" });
      if (f) setErrors((e) => ({ ...e, [f.field]: f.message }));
      runtime.notify.error(err);
    } finally {
      setSaving(false);
    }
  };

  const item = (k: string) => ({ validateStatus: errors[k] ? ("error" as const) : undefined, help: errors[k] });

  return (
    <Modal
      open
      title={
        <Space>
          <UsergroupAddOutlined />
          {t("groupNew")}
        </Space>
      }
      okText={t("groupCreate")}
      cancelText={t("cancel")}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
      width={560}
      okButtonProps={{ "data-testid": "wa-group-create" } as Record<`data-${string}`, string>}
    >
      <Form layout="vertical" component="div" data-testid="wa-group-form">
        <Form.Item label={t("groupName")} required {...item("name")}>
          <Input autoFocus maxLength={GROUP_NAME_MAX + 20} showCount={{ formatter: ({ count }) => `${count}/${GROUP_NAME_MAX}` }} placeholder={t("groupNamePlaceholder")} value={name} onChange={(e) => setName(e.target.value)} data-testid="wa-group-name" />
        </Form.Item>
        <Form.Item label={t("groupConnection")} required {...item("connection")}>
          <ConnectionSelect runtime={runtime} value={connection} onChange={setConnection} testId="wa-group-connection" />
        </Form.Item>
        <Form.Item label={t("groupContacts")} required extra={picked.length ? t("groupContactsSelected", { n: picked.length }) : t("groupContactsHint")} {...item("contacts")}>
          <Select<Picked[]>
            mode="multiple"
            labelInValue
            showSearch={{ filterOption: false, onSearch: search }}
            placeholder={t("groupContactsSearch")}
            value={picked}
            onChange={(v) => setPicked(v)}
            notFoundContent={searching ? <Spin size="small" /> : undefined}
            maxTagCount="responsive"
            options={options.map((c) => ({ value: c.id, label: c.number ? `${c.name} · ${c.number}` : c.name }))}
            data-testid="wa-group-contacts"
          />
        </Form.Item>
        <Form.Item label={t("groupPhoto")} extra={t("groupPhotoHint")} {...item("photo")}>
          <Space align="center">
            <Avatar size={56} shape="square" src={preview ?? undefined} icon={<PictureOutlined />} />
            <Upload
              accept={GROUP_PHOTO_TYPES.join(",")}
              showUploadList={false}
              maxCount={1}
              beforeUpload={(file) => {
                const problem = photoProblem(file, t);
                // Checked here, before anything is sent; the chosen file stays even when refused, so the message shows.
                setPhoto(file);
                if (problem) setErrors((e) => ({ ...e, photo: problem }));
                return false;
              }}
            >
              <Button icon={<PictureOutlined />} data-testid="wa-group-photo">
                {t("groupPhotoPick")}
              </Button>
            </Upload>
            {photo ? (
              <Button type="text" danger icon={<DeleteOutlined />} onClick={() => setPhoto(null)} aria-label={t("groupPhotoRemove")} />
            ) : null}
            {photo ? <Typography.Text type="secondary">{photo.name}</Typography.Text> : null}
          </Space>
        </Form.Item>
      </Form>
    </Modal>
  );
}
