import { useState } from "react";
import { Alert, Button, Divider, Form, Input, InputNumber, Space, Switch } from "antd";
import type { ConnectFormProps, ConnectionSettings, UiApiError } from "@openatende/plugin-sdk/ui";
import { DEFAULT_PORTS, IMAP_KEYS, MASK, SMTP_KEYS, validateImap, validateSmtp } from "./validate";

interface ProbeResult {
  ok: boolean;
  code: string;
  detail: string;
}
type Kind = "imap" | "smtp";
type TestState = { busy: boolean; result?: ProbeResult; error?: string };

/** The e-mail part of the connection form: IMAP, SMTP and sender, with "test IMAP" / "test SMTP". */
export default function EmailConnectForm({ value, onChange, errors, connection, runtime }: ConnectFormProps) {
  const t = runtime.t;
  const [local, setLocal] = useState<Record<string, string>>({});
  const [tests, setTests] = useState<Record<Kind, TestState>>({ imap: { busy: false }, smtp: { busy: false } });
  const set = (patch: ConnectionSettings) => {
    onChange({ ...value, ...patch });
    setLocal((l) => Object.fromEntries(Object.entries(l).filter(([k]) => !(k in patch))));
  };
  const str = (k: string) => (typeof value[k] === "string" ? (value[k] as string) : "");
  const field = (k: string) => {
    const msg = errors[k] ?? local[k];
    return { validateStatus: msg ? ("error" as const) : undefined, help: msg, required: true };
  };
  const masked = (k: string) => value[k] === MASK;

  /** Switching TLS moves a port still on the usual value to the usual value of the other mode. */
  const setTls = (kind: Kind, on: boolean) => {
    const ports = DEFAULT_PORTS[kind];
    const portKey = `${kind}Port`;
    const port = value[portKey];
    const next: ConnectionSettings = { [`${kind}Tls`]: on };
    if (port === undefined || port === ports.tls || port === ports.plain) next[portKey] = on ? ports.tls : ports.plain;
    set(next);
  };

  const runTest = async (kind: Kind) => {
    const errs = kind === "imap" ? validateImap(value, t) : validateSmtp(value, t);
    setLocal(errs);
    if (Object.keys(errs).length) return;
    const keys: readonly string[] = kind === "imap" ? IMAP_KEYS : SMTP_KEYS;
    if (!connection?.token && keys.some(masked)) {
      setTests((s) => ({ ...s, [kind]: { busy: false, error: t("typePassword") } }));
      return;
    }
    setTests((s) => ({ ...s, [kind]: { busy: true } }));
    try {
      const settings = Object.fromEntries(keys.map((k) => [k, value[k]]));
      const result = await runtime.api.post<ProbeResult>(`/channel-email/test-${kind}`, { settings, token: connection?.token ?? undefined }, { silent: true });
      setTests((s) => ({ ...s, [kind]: { busy: false, result } }));
    } catch (e) {
      const err = e as Partial<UiApiError>;
      setTests((s) => ({ ...s, [kind]: { busy: false, error: err.detail || err.title || err.message || String(e) } }));
    }
  };

  const testBlock = (kind: Kind) => {
    const s = tests[kind];
    return (
      <Space orientation="vertical" style={{ width: "100%", marginBottom: 16 }}>
        <Button onClick={() => void runTest(kind)} loading={s.busy} data-testid={`email-test-${kind}`}>
          {s.busy ? t("testing") : t(kind === "imap" ? "testImap" : "testSmtp")}
        </Button>
        {s.result ? (
          <Alert
            type={s.result.ok ? "success" : "error"}
            showIcon
            title={`${s.result.ok ? t("testOk") : t("testFailed")}: ${t(`code.${s.result.code}`)}`}
            description={s.result.detail}
            data-testid={`email-test-${kind}-result`}
            data-ok={String(s.result.ok)}
            data-code={s.result.code}
          />
        ) : s.error ? (
          <Alert type="error" showIcon title={t("testFailed")} description={s.error} data-testid={`email-test-${kind}-result`} data-ok="false" />
        ) : null}
      </Space>
    );
  };

  const server = (kind: Kind) => (
    <>
      <Space align="start" wrap style={{ width: "100%" }}>
        <Form.Item label={t("host")} {...field(`${kind}Host`)} style={{ minWidth: 280 }}>
          <Input name={`${kind}Host`} maxLength={255} value={str(`${kind}Host`)} placeholder={kind === "imap" ? "imap.example.com" : "smtp.example.com"} onChange={(e) => set({ [`${kind}Host`]: e.target.value })} />
        </Form.Item>
        <Form.Item label={t("port")} {...field(`${kind}Port`)}>
          <InputNumber
            name={`${kind}Port`}
            min={1}
            max={65535}
            precision={0}
            value={typeof value[`${kind}Port`] === "number" ? (value[`${kind}Port`] as number) : null}
            onChange={(n) => set({ [`${kind}Port`]: n ?? undefined })}
          />
        </Form.Item>
        <Form.Item label={t("tls")} {...field(`${kind}Tls`)} extra={t(kind === "imap" ? "imapTlsHint" : "smtpTlsHint")} style={{ maxWidth: 320 }}>
          <Switch checked={value[`${kind}Tls`] === true} onChange={(on) => setTls(kind, on)} data-testid={`email-${kind}-tls`} />
        </Form.Item>
      </Space>
      <Space align="start" wrap style={{ width: "100%" }}>
        <Form.Item label={t("user")} {...field(`${kind}User`)} style={{ minWidth: 280 }}>
          <Input name={`${kind}User`} maxLength={255} autoComplete="off" value={str(`${kind}User`)} onChange={(e) => set({ [`${kind}User`]: e.target.value })} />
        </Form.Item>
        <Form.Item label={t("password")} {...field(`${kind}Password`)} extra={masked(`${kind}Password`) ? t("passwordKept") : undefined} style={{ minWidth: 280 }}>
          <Input.Password name={`${kind}Password`} maxLength={1024} autoComplete="new-password" value={str(`${kind}Password`)} onChange={(e) => set({ [`${kind}Password`]: e.target.value })} />
        </Form.Item>
      </Space>
    </>
  );

  return (
    <div data-testid="email-connect-form">
      <Form layout="vertical" component="div">
        <Divider titlePlacement="start">{t("imapSection")}</Divider>
        {server("imap")}
        {testBlock("imap")}
        <Divider titlePlacement="start">{t("smtpSection")}</Divider>
        {server("smtp")}
        <Divider titlePlacement="start">{t("senderSection")}</Divider>
        <Space align="start" wrap style={{ width: "100%" }}>
          <Form.Item label={t("fromAddress")} {...field("fromAddress")} style={{ minWidth: 280 }}>
            <Input name="fromAddress" type="email" maxLength={254} value={str("fromAddress")} placeholder="atendimento@example.com" onChange={(e) => set({ fromAddress: e.target.value })} />
          </Form.Item>
          <Form.Item label={t("fromName")} {...field("fromName")} style={{ minWidth: 280 }}>
            <Input name="fromName" maxLength={120} value={str("fromName")} onChange={(e) => set({ fromName: e.target.value })} />
          </Form.Item>
        </Space>
        {testBlock("smtp")}
      </Form>
    </div>
  );
}
