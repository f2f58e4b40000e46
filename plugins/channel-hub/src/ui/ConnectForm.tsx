import { useEffect, useState } from "react";
import { Alert, Button, Form, Input, Select, Space, Typography } from "antd";
import type { ConnectFormProps } from "@openatende/plugin-sdk/ui";
import { API_TOKEN_PATTERN, CHANNEL_TOKEN_PATTERN, MASKED, newSecret, SECRET_PATTERN, VARIANTS } from "./validate";

interface TestAnswer {
  ok: boolean;
  detail?: string;
}

type WebhookState = { state: "none" } | { state: "loading" } | { state: "failed" } | { state: "ready"; url: string };

/** The hub part of the connection form: variant, connection token, API token, webhook secret; the webhook address once saved. */
export default function HubConnectForm({ value, onChange, errors, connection, runtime }: ConnectFormProps) {
  const t = runtime.t;
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<TestAnswer | null>(null);
  const [webhook, setWebhook] = useState<WebhookState>({ state: "none" });
  const str = (k: string) => (typeof value[k] === "string" ? (value[k] as string) : "");
  const set = (k: string, v: unknown) => {
    setTested(null);
    onChange({ ...value, [k]: v === "" ? undefined : v });
  };
  const field = (k: string) => ({ validateStatus: errors[k] ? ("error" as const) : undefined, help: errors[k] });
  const masked = (k: string) => str(k) === MASKED;
  const secret = (k: string, hint: string) => (masked(k) ? t("secretKept") : hint);
  const variant = (VARIANTS as readonly string[]).includes(str("variant")) ? str("variant") : "facebook";

  // A new connection gets a secret of its own.
  useEffect(() => {
    if (!value.webhookSecret) onChange({ ...value, webhookSecret: newSecret() });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The saved connection's address, with its secret, comes from the plugin (the API masks the secret).
  const token = connection?.token ?? null;
  useEffect(() => {
    if (!token) return setWebhook({ state: "none" });
    let live = true;
    setWebhook({ state: "loading" });
    runtime.api
      .get<{ path: string; url: string | null }>(`/hub/webhook-url?token=${encodeURIComponent(token)}`, { silent: true })
      .then((r) => live && setWebhook({ state: "ready", url: r.url ?? `${window.location.origin}${r.path}` }))
      .catch(() => live && setWebhook({ state: "failed" }));
    return () => {
      live = false;
    };
  }, [token, runtime]);

  const canTest = CHANNEL_TOKEN_PATTERN.test(str("channelToken")) && API_TOKEN_PATTERN.test(str("apiToken")) && SECRET_PATTERN.test(str("webhookSecret"));
  const test = async () => {
    setTesting(true);
    setTested(null);
    try {
      const settings = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
      setTested(await runtime.api.post<TestAnswer>("/connections/test", { type: "channel-hub", settings }, { silent: true }));
    } catch (err) {
      const e = err as { detail?: string; message?: string };
      setTested({ ok: false, detail: e.detail || e.message });
    } finally {
      setTesting(false);
    }
  };

  return (
    <div data-testid="hub-connect-form">
      <Form layout="vertical" component="div">
        <Form.Item label={t("variant")} required extra={t("variantHint")} {...field("variant")}>
          <Select value={variant} onChange={(v) => set("variant", v)} options={VARIANTS.map((v) => ({ value: v, label: t(`variant_${v}`) }))} data-testid="hub-variant" />
        </Form.Item>
        <Form.Item label={t("channelToken")} required extra={secret("channelToken", t("channelTokenHint"))} {...field("channelToken")}>
          <Input.Password name="channelToken" autoComplete="off" value={str("channelToken")} onChange={(e) => set("channelToken", e.target.value.trim())} data-testid="hub-channel-token" />
        </Form.Item>
        <Form.Item label={t("apiToken")} required extra={secret("apiToken", t("apiTokenHint"))} {...field("apiToken")}>
          <Space.Compact style={{ width: "100%" }}>
            <Input.Password name="apiToken" autoComplete="off" value={str("apiToken")} onChange={(e) => set("apiToken", e.target.value.trim())} data-testid="hub-api-token" />
            <Button onClick={test} loading={testing} disabled={!canTest} data-testid="hub-test">
              {t("test")}
            </Button>
          </Space.Compact>
        </Form.Item>
        {tested ? (
          <Alert style={{ marginBottom: 16 }} showIcon type={tested.ok ? "success" : "error"} title={tested.ok ? t("testOk") : t("testFailed")} description={tested.detail} data-testid="hub-test-result" />
        ) : masked("channelToken") || masked("apiToken") ? (
          <Typography.Paragraph type="secondary">{t("testNeedsSecrets")}</Typography.Paragraph>
        ) : null}
        <Form.Item label={t("webhookSecret")} required extra={secret("webhookSecret", t("webhookSecretHint"))} {...field("webhookSecret")}>
          <Space.Compact style={{ width: "100%" }}>
            <Input.Password name="webhookSecret" autoComplete="off" value={str("webhookSecret")} onChange={(e) => set("webhookSecret", e.target.value.trim())} data-testid="hub-webhook-secret" />
            <Button onClick={() => set("webhookSecret", newSecret())} data-testid="hub-secret-generate">
              {t("generate")}
            </Button>
          </Space.Compact>
        </Form.Item>
        {variant === "email" ? (
          <Form.Item label={t("emailSubject")} extra={t("emailSubjectHint")} {...field("emailSubject")}>
            <Input name="emailSubject" value={str("emailSubject")} onChange={(e) => set("emailSubject", e.target.value)} data-testid="hub-email-subject" />
          </Form.Item>
        ) : null}
        <Form.Item label={t("apiUrl")} extra={t("apiUrlHint")} {...field("apiUrl")}>
          <Input name="apiUrl" placeholder="https://api.notificame.com.br/v1" value={str("apiUrl")} onChange={(e) => set("apiUrl", e.target.value.trim())} data-testid="hub-api-url" />
        </Form.Item>
        <div style={{ marginBottom: 16 }} data-testid="hub-webhook-info">
          {webhook.state === "ready" ? (
            <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }} data-testid="hub-webhook-url">
              {t("webhookAt")}
              <br />
              <Typography.Text code copyable={{ text: webhook.url, tooltips: [t("copy"), t("copied")] }} style={{ wordBreak: "break-all" }}>
                {webhook.url}
              </Typography.Text>
            </Typography.Paragraph>
          ) : (
            <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
              {t(webhook.state === "loading" ? "webhookLoading" : webhook.state === "failed" ? "webhookUnavailable" : "webhookAfterSave")}
            </Typography.Paragraph>
          )}
        </div>
      </Form>
    </div>
  );
}
