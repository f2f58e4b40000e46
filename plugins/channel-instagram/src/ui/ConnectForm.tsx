import { useEffect, useState, type ReactNode } from "react";
import { Alert, Button, Collapse, Form, Input, Radio, Space, Switch, Typography } from "antd";
import type { ConnectFormProps } from "@openatende/plugin-sdk/ui";
import { flavourOf, MASKED, newVerifyToken, validateInstagram, webhookUrlOf } from "./validate";

interface TestAnswer {
  ok: boolean;
  detail?: string;
}

const CREDENTIALS = "ERR_INSTAGRAM_CREDENTIALS_REQUIRED";

/** The Instagram part of the connection form: the flavour, its ids, the token and secrets, the webhook URL to copy, a test. */
export default function InstagramConnectForm({ value, onChange, errors, connection, runtime }: ConnectFormProps) {
  const t = runtime.t;
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<TestAnswer | null>(null);
  const [needsCredentials, setNeedsCredentials] = useState(false);
  const str = (k: string) => (typeof value[k] === "string" ? (value[k] as string) : "");
  const set = (k: string, v: unknown) => {
    setTested(null);
    onChange({ ...value, [k]: v === "" ? undefined : v });
  };
  const field = (k: string) => ({ validateStatus: errors[k] ? ("error" as const) : undefined, help: errors[k] });
  const masked = (k: string) => str(k) === MASKED;
  const hint = (k: string) => (masked(k) ? t("secretKept") : t(`${k}Hint`));
  const flavour = flavourOf(value);
  const canTest = Object.keys(validateInstagram(value, t)).length === 0 && !masked("accessToken") && !masked("appSecret") && !masked("verifyToken");

  // A new connection gets a verification token of its own.
  useEffect(() => {
    if (!value.verifyToken) onChange({ ...value, verifyToken: newVerifyToken() });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A saved connection whose token Meta refused says so here, where the new token goes.
  useEffect(() => {
    if (!connection?.id) return;
    let alive = true;
    runtime.api
      .get<{ statusDetail?: string | null }>(`/connections/${connection.id}`, { silent: true })
      .then((c) => alive && setNeedsCredentials(c.statusDetail === CREDENTIALS))
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [connection?.id, runtime]);

  const test = async () => {
    setTesting(true);
    setTested(null);
    try {
      const settings = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
      setTested(await runtime.api.post<TestAnswer>("/connections/test", { type: "channel-instagram", settings }, { silent: true }));
    } catch (err) {
      const e = err as { detail?: string; message?: string };
      setTested({ ok: false, detail: e.detail || e.message });
    } finally {
      setTesting(false);
    }
  };

  const input = (k: string, opts: { secret?: boolean; required?: boolean; extra?: ReactNode; placeholder?: string } = {}) => (
    <Form.Item label={t(k)} required={opts.required ?? true} extra={hint(k)} {...field(k)}>
      <Space.Compact style={{ width: "100%" }}>
        {opts.secret ? (
          <Input.Password name={k} autoComplete="off" value={str(k)} onChange={(e) => set(k, e.target.value.trim())} data-testid={`ig-${k}`} />
        ) : (
          <Input name={k} placeholder={opts.placeholder} value={str(k)} onChange={(e) => set(k, e.target.value.trim())} data-testid={`ig-${k}`} />
        )}
        {opts.extra}
      </Space.Compact>
    </Form.Item>
  );
  const webhookUrl = connection?.token ? webhookUrlOf(window.location.origin, connection.token) : null;

  return (
    <div data-testid="ig-connect-form">
      {needsCredentials ? <Alert style={{ marginBottom: 16 }} showIcon type="warning" title={t("credentialsNeeded")} description={t("credentialsNeededHint")} data-testid="ig-credentials-needed" /> : null}
      <Alert style={{ marginBottom: 16 }} showIcon type="info" title={t("officialOnly")} data-testid="ig-official-only" />
      <Form layout="vertical" component="div">
        <Form.Item label={t("flavour")} required extra={t(`flavourHint_${flavour}`)} {...field("flavour")}>
          <Radio.Group value={flavour} onChange={(e) => set("flavour", e.target.value)} data-testid="ig-flavour">
            <Radio.Button value="instagram">{t("flavour_instagram")}</Radio.Button>
            <Radio.Button value="page">{t("flavour_page")}</Radio.Button>
          </Radio.Group>
        </Form.Item>
        {input("igAccountId")}
        {flavour === "page" ? input("pageId") : null}
        {input("accessToken", {
          secret: true,
          extra: (
            <Button onClick={test} loading={testing} disabled={!canTest} data-testid="ig-test">
              {t("test")}
            </Button>
          ),
        })}
        {tested ? (
          <Alert
            style={{ marginBottom: 16 }}
            showIcon
            type={tested.ok ? "success" : "error"}
            title={tested.ok ? t("testOk") : t("testFailed")}
            description={tested.detail === CREDENTIALS ? t("credentialsNeededHint") : tested.detail}
            data-testid="ig-test-result"
          />
        ) : !canTest && (masked("accessToken") || masked("appSecret")) ? (
          <Typography.Paragraph type="secondary">{t("testNeedsSecrets")}</Typography.Paragraph>
        ) : null}
        {input("appSecret", { secret: true })}
        {input("verifyToken", {
          secret: true,
          extra: (
            <Button onClick={() => set("verifyToken", newVerifyToken())} data-testid="ig-verify-generate">
              {t("generate")}
            </Button>
          ),
        })}
        <Form.Item label={t("humanAgentTag")} extra={t("humanAgentTagHint")}>
          <Switch checked={value.humanAgentTag === true} onChange={(on) => set("humanAgentTag", on)} data-testid="ig-humanAgentTag" />
        </Form.Item>
        <div style={{ marginBottom: 16 }} data-testid="ig-webhook-info">
          {webhookUrl ? (
            <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }} data-testid="ig-webhook-url">
              {t("webhookAt")}
              <br />
              <Typography.Text code copyable={{ text: webhookUrl, tooltips: [t("copy"), t("copied")] }} style={{ wordBreak: "break-all" }}>
                {webhookUrl}
              </Typography.Text>
            </Typography.Paragraph>
          ) : (
            <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
              {t("webhookAfterSave")}
            </Typography.Paragraph>
          )}
        </div>
        <Collapse
          ghost
          styles={{ header: { paddingInline: 0 }, body: { paddingInline: 0, paddingBlockEnd: 0 } }}
          defaultActiveKey={str("graphUrl") || (str("apiVersion") && str("apiVersion") !== "v23.0") ? ["advanced"] : []}
          items={[
            {
              key: "advanced",
              label: t("advanced"),
              children: (
                <>
                  {input("apiVersion", { required: false, placeholder: "v23.0" })}
                  {input("graphUrl", { required: false, placeholder: flavour === "page" ? "https://graph.facebook.com" : "https://graph.instagram.com" })}
                </>
              ),
            },
          ]}
        />
      </Form>
    </div>
  );
}
