import { Button, ColorPicker, Form, Input, Space, Switch, Typography } from "antd";
import type { ConnectFormProps } from "@openatende/plugin-sdk/ui";

/** The web-chat part of the connection form: how the widget looks, and the code to embed it. */
export default function WebchatConnectForm({ value, onChange, errors, connection, runtime }: ConnectFormProps) {
  const t = runtime.t;
  const set = (k: string, v: unknown) => onChange({ ...value, [k]: v === "" ? undefined : v });
  const field = (k: string) => ({
    validateStatus: errors[k] ? ("error" as const) : undefined,
    help: errors[k],
  });
  const str = (k: string) => (typeof value[k] === "string" ? (value[k] as string) : "");
  const snippet = connection?.token ? `<script src="${window.location.origin}/api/webchat/widget.js" data-token="${connection.token}" async></script>` : null;
  return (
    <div data-testid="webchat-connect-form">
      <Form layout="vertical" component="div">
        <Form.Item label={t("title")} extra={t("titleHint")} {...field("title")}>
          <Input name="title" maxLength={80} value={str("title")} onChange={(e) => set("title", e.target.value)} />
        </Form.Item>
        <Form.Item label={t("mainColor")} {...field("mainColor")}>
          <Space>
            <ColorPicker
              value={str("mainColor") || "#1f6feb"}
              disabledAlpha
              onChange={(c) => set("mainColor", c.toHexString())}
            />
            <Input name="mainColor" style={{ width: 120 }} value={str("mainColor")} placeholder="#1f6feb" onChange={(e) => set("mainColor", e.target.value)} />
          </Space>
        </Form.Item>
        <Form.Item label={t("footerText")} {...field("footerText")}>
          <Input name="footerText" maxLength={200} value={str("footerText")} onChange={(e) => set("footerText", e.target.value)} />
        </Form.Item>
        <Form.Item label={t("iconUrl")} {...field("iconUrl")}>
          <Input name="iconUrl" value={str("iconUrl")} placeholder="https://" onChange={(e) => set("iconUrl", e.target.value)} />
        </Form.Item>
        <Space size="large" wrap>
          <Form.Item label={t("autoOpen")}>
            <Switch checked={!!value.autoOpen} onChange={(v) => set("autoOpen", v)} />
          </Form.Item>
          <Form.Item label={t("offerHelp")}>
            <Switch checked={!!value.offerHelp} onChange={(v) => set("offerHelp", v)} />
          </Form.Item>
        </Space>
        {value.offerHelp ? (
          <Form.Item label={t("helpMessage")} {...field("helpMessage")}>
            <Input.TextArea name="helpMessage" maxLength={500} rows={2} value={str("helpMessage")} onChange={(e) => set("helpMessage", e.target.value)} />
          </Form.Item>
        ) : null}
        <Form.Item label={t("notificationSoundUrl")} {...field("notificationSoundUrl")}>
          <Input name="notificationSoundUrl" value={str("notificationSoundUrl")} placeholder="https://" onChange={(e) => set("notificationSoundUrl", e.target.value)} />
        </Form.Item>
      </Form>
      <Typography.Title level={5}>{t("embed")}</Typography.Title>
      {snippet ? (
        <>
          <Typography.Paragraph type="secondary">{t("embedHint")}</Typography.Paragraph>
          <Typography.Paragraph code copyable={{ text: snippet, tooltips: [t("copy"), t("copied")] }} data-testid="webchat-snippet">
            {snippet}
          </Typography.Paragraph>
          <Button href={`/api/webchat/${connection!.token}/page`} target="_blank" rel="noopener">
            {t("preview")}
          </Button>
        </>
      ) : (
        <Typography.Paragraph type="secondary">{t("saveFirst")}</Typography.Paragraph>
      )}
    </div>
  );
}
