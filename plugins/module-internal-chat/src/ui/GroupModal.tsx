import { useRef, useState } from "react";
import { Button, Form, Input, Modal, Select, Space, Switch, Typography } from "antd";
import { DeleteOutlined, UploadOutlined } from "@ant-design/icons";
import { GROUP_IMAGE_MAX_BYTES, GROUP_NAME_MAX, groupNameProblem } from "../limits";
import { useRuntime } from "./runtime";
import { base64Of } from "./media";
import type { GroupRow, TenantUser } from "./types";

const MB = 1024 * 1024;

/** New group, or a group's name, members, active flag and photo (image only, at most 5 MB: spec §4). */
export function GroupModal({ group, users, onClose }: { group?: GroupRow; users: TenantUser[]; onClose(changed?: boolean): void }) {
  const runtime = useRuntime();
  const t = runtime.t;
  const [name, setName] = useState(group?.name ?? "");
  const [userIds, setUserIds] = useState<number[]>(group?.userIds ?? []);
  const [active, setActive] = useState(group?.active ?? true);
  const [image, setImage] = useState<File | null>(null);
  const [removeImage, setRemoveImage] = useState(false);
  const [imageError, setImageError] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const nameProblem = groupNameProblem(name);
  const usersProblem = userIds.length ? null : "errGroupUsers";

  const pick = (f: File | undefined) => {
    if (!f) return;
    if (!f.type.startsWith("image/") || f.type === "image/svg+xml") return setImageError(t("errImageOnly"));
    if (f.size > GROUP_IMAGE_MAX_BYTES) return setImageError(t("errTooLarge", { max: GROUP_IMAGE_MAX_BYTES / MB }));
    setImageError(null);
    setImage(f);
    setRemoveImage(false);
  };

  const save = async () => {
    setTried(true);
    if (nameProblem || usersProblem || imageError) return;
    setBusy(true);
    try {
      const body = { name: name.trim(), userIds, active };
      const saved = group
        ? await runtime.api.put<GroupRow>("/chat-interno/groups", { id: group.id, ...body, ...(removeImage ? { removeImage: true } : {}) })
        : await runtime.api.post<GroupRow>("/chat-interno/groups", body);
      if (image) await runtime.api.post("/chat-interno/groups/image", { id: saved.id, file: { fileName: image.name, mimeType: image.type, data: await base64Of(image) } });
      onClose(true);
    } catch (err) {
      runtime.notify.error(err);
      setBusy(false);
    }
  };

  return (
    <Modal open title={group ? t("editGroup") : t("newGroup")} okText={t("save")} cancelText={t("cancel")} onOk={() => void save()} onCancel={() => onClose()} confirmLoading={busy} destroyOnHidden>
      <Form layout="vertical" onFinish={() => void save()}>
        <Form.Item label={t("groupName")} required validateStatus={tried && nameProblem ? "error" : undefined} help={tried && nameProblem ? t(nameProblem, { max: GROUP_NAME_MAX }) : undefined}>
          <Input autoFocus value={name} onChange={(e) => setName(e.target.value)} maxLength={GROUP_NAME_MAX} data-testid="ic-group-name" />
        </Form.Item>
        <Form.Item label={t("groupUsers")} required validateStatus={tried && usersProblem ? "error" : undefined} help={tried && usersProblem ? t(usersProblem) : undefined}>
          <Select
            mode="multiple"
            value={userIds}
            onChange={setUserIds}
            optionFilterProp="label"
            options={users.map((u) => ({ value: u.id, label: u.name }))}
            data-testid="ic-group-users"
          />
        </Form.Item>
        <Form.Item label={t("groupActive")}>
          <Switch checked={active} onChange={setActive} data-testid="ic-group-active-input" />
        </Form.Item>
        <Form.Item label={t("groupImage")} validateStatus={imageError ? "error" : undefined} help={imageError ?? t("imageHint")}>
          <input ref={input} type="file" accept="image/*" style={{ display: "none" }} data-testid="ic-group-image-input" onChange={(e) => { pick(e.target.files?.[0]); e.target.value = ""; }} />
          <Space>
            <Button icon={<UploadOutlined />} onClick={() => input.current?.click()}>
              {t("chooseImage")}
            </Button>
            {image && <Typography.Text data-testid="ic-group-image-name">{image.name}</Typography.Text>}
            {group?.imageUrl && !image && !removeImage && (
              <Button icon={<DeleteOutlined />} onClick={() => setRemoveImage(true)}>
                {t("removeImage")}
              </Button>
            )}
          </Space>
        </Form.Item>
      </Form>
    </Modal>
  );
}
