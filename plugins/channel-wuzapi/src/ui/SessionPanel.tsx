import { useState } from "react";
import { Alert, Button, Divider, Form, Input, Popconfirm, Space, Typography } from "antd";
import type { ConnectFormProps } from "@openatende/plugin-sdk/ui";
import { pairingPhone } from "./validate";

/** A saved connection's session: a pairing code instead of the QR code, and a reset that unlinks WhatsApp for a new QR. */
export default function SessionPanel({ connection, runtime }: Pick<ConnectFormProps, "connection" | "runtime">) {
  const t = runtime.t;
  const [phone, setPhone] = useState("");
  const [phoneError, setPhoneError] = useState<string | undefined>();
  const [code, setCode] = useState<string | null>(null);
  const [busy, setBusy] = useState<"pair" | "reset" | null>(null);
  const [resetDone, setResetDone] = useState(false);

  if (!connection?.token) {
    return (
      <Typography.Paragraph type="secondary" data-testid="wuzapi-session-after-save">
        {t("pairingNeedsSave")}
      </Typography.Paragraph>
    );
  }
  const token = connection.token;

  const pair = async () => {
    const digits = pairingPhone(phone);
    if (!digits) {
      setPhoneError(t("errPhone"));
      return;
    }
    setBusy("pair");
    setCode(null);
    try {
      const r = await runtime.api.post<{ code: string }>("/wuzapi/pairphone", { token, phone: digits });
      setCode(r.code);
    } finally {
      setBusy(null);
    }
  };

  const reset = async () => {
    setBusy("reset");
    setResetDone(false);
    try {
      await runtime.api.post("/wuzapi/reset", { token });
      setCode(null);
      setResetDone(true);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div data-testid="wuzapi-session-panel">
      <Divider titlePlacement="start">{t("pairingTitle")}</Divider>
      <Typography.Paragraph type="secondary">{t("pairingHint")}</Typography.Paragraph>
      <Form layout="vertical" component="div">
        <Form.Item label={t("pairingPhone")} validateStatus={phoneError ? "error" : undefined} help={phoneError}>
          <Space.Compact style={{ width: "100%" }}>
            <Input
              name="pairingPhone"
              inputMode="tel"
              placeholder="+55 11 98888-7777"
              value={phone}
              onChange={(e) => {
                setPhone(e.target.value);
                setPhoneError(undefined);
              }}
              onPressEnter={() => void pair().catch(() => undefined)}
              data-testid="wuzapi-pairing-phone"
            />
            <Button type="primary" loading={busy === "pair"} onClick={() => void pair().catch(() => undefined)} data-testid="wuzapi-pairing-get">
              {t("pairingGet")}
            </Button>
          </Space.Compact>
        </Form.Item>
      </Form>
      {code ? (
        <Alert
          style={{ marginBottom: 16 }}
          type="info"
          showIcon
          title={t("pairingCode")}
          description={
            <>
              <Typography.Title level={3} copyable style={{ margin: "4px 0", letterSpacing: 4, fontFamily: "monospace" }} data-testid="wuzapi-pairing-code">
                {code}
              </Typography.Title>
              {t("pairingCodeHint")}
            </>
          }
        />
      ) : null}
      <Divider titlePlacement="start">{t("reset")}</Divider>
      <Typography.Paragraph type="secondary">{t("resetHint")}</Typography.Paragraph>
      <Popconfirm title={t("resetConfirm")} okText={t("yes")} cancelText={t("no")} onConfirm={() => reset().catch(() => undefined)}>
        <Button danger loading={busy === "reset"} data-testid="wuzapi-reset">
          {t("reset")}
        </Button>
      </Popconfirm>
      {resetDone ? <Alert style={{ marginTop: 16 }} type="success" showIcon title={t("resetDone")} data-testid="wuzapi-reset-done" /> : null}
    </div>
  );
}
