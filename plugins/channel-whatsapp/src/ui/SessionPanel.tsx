import { useCallback, useEffect, useRef, useState } from "react";
import { Alert, Badge, Button, Card, Form, Input, Popconfirm, QRCode, Space, Typography } from "antd";
import { LinkOutlined, ReloadOutlined } from "@ant-design/icons";
import type { ConnectFormProps } from "@openatende/plugin-sdk/ui";
import { codeOfDetail, formatCode, parseDetail, phoneOfDetail, type ConnectionRow } from "./shared";
import { phoneDigits } from "./validate";
import HealthPanel from "./HealthPanel";

/** How often the connection's status and QR code are read while the form is open. */
const POLL_MS = 2000;

const BADGE: Record<string, "success" | "processing" | "warning" | "error" | "default"> = {
  connected: "success",
  connecting: "processing",
  pairing: "processing",
  qrcode: "warning",
  timeout: "error",
  conflict: "error",
};

type Props = Pick<ConnectFormProps, "connection" | "runtime"> & { pairingPhone?: string };

/**
 * A saved connection's link to WhatsApp: its live status with the QR code to scan (or the
 * pairing code the session is waiting for), a pairing code asked for a phone number, a reset
 * that unlinks the phone for a new QR code, and the session's health.
 */
export default function SessionPanel({ connection, runtime, pairingPhone }: Props) {
  const t = runtime.t;
  const [live, setLive] = useState<Pick<ConnectionRow, "status" | "qrcode" | "statusDetail">>({ status: connection?.status ?? "disconnected" });
  const [phone, setPhone] = useState(pairingPhone ?? "");
  const [phoneError, setPhoneError] = useState<string | undefined>();
  const [code, setCode] = useState<string | null>(null);
  const [busy, setBusy] = useState<"connect" | "pair" | "reset" | null>(null);
  const [healthKey, setHealthKey] = useState(0);
  const id = connection?.id;
  const token = connection?.token ?? null;
  const alive = useRef(true);

  const read = useCallback(async () => {
    if (!id) return;
    try {
      const c = await runtime.api.get<ConnectionRow>(`/connections/${id}`, { silent: true });
      if (alive.current) setLive({ status: c.status, qrcode: c.qrcode ?? null, statusDetail: c.statusDetail ?? null });
    } catch {
      /* the next round tries again */
    }
  }, [runtime, id]);

  useEffect(() => {
    alive.current = true;
    void read();
    const h = setInterval(() => void read(), POLL_MS);
    return () => {
      alive.current = false;
      clearInterval(h);
    };
  }, [read]);

  // A code asked here is no longer the one to type once the session moved on.
  useEffect(() => {
    if (live.status === "connected" || live.status === "qrcode") setCode(null);
  }, [live.status]);

  if (!id || !token) {
    return (
      <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t("sessionTitle")} description={t("afterSave")} data-testid="whatsapp-session-after-save" />
    );
  }

  const connect = async () => {
    setBusy("connect");
    try {
      const c = await runtime.api.post<ConnectionRow>(`/connections/${id}/connect`, {}, { silent: true });
      setLive({ status: c.status, qrcode: c.qrcode ?? null, statusDetail: c.statusDetail ?? null });
    } catch (err) {
      runtime.notify.error(err);
    } finally {
      setBusy(null);
    }
  };

  const pair = async () => {
    const digits = phoneDigits(phone);
    if (!digits) {
      setPhoneError(t("errPhone"));
      return;
    }
    setBusy("pair");
    setCode(null);
    try {
      const r = await runtime.api.post<{ code: string; status: { status: string; detail?: string } }>("/channel-whatsapp/pairing-code", { token, phone: digits }, { silent: true });
      setCode(formatCode(r.code));
      setLive((l) => ({ ...l, status: r.status.status, statusDetail: r.status.detail ?? l.statusDetail, qrcode: null }));
    } catch (err) {
      runtime.notify.error(err);
    } finally {
      setBusy(null);
    }
  };

  const reset = async () => {
    setBusy("reset");
    try {
      const s = await runtime.api.post<{ status: string; detail?: string; qrcode?: string }>("/channel-whatsapp/reset", { token }, { silent: true });
      setCode(null);
      setLive({ status: s.status, qrcode: s.qrcode ?? null, statusDetail: s.detail ?? null });
      setHealthKey((k) => k + 1);
      runtime.notify.success(t("resetDone"));
    } catch (err) {
      runtime.notify.error(err);
    } finally {
      setBusy(null);
    }
  };

  const detail = parseDetail(live.statusDetail);
  const shownCode = code ?? codeOfDetail(live.statusDetail);
  const number = phoneOfDetail(live.statusDetail);
  const statusText = t(`status.${live.status}`);
  const detailText = detail && detail.key !== "qr" ? t(`detail.${detail.key}`) : null;
  const canConnect = !["connected", "connecting", "qrcode", "pairing"].includes(live.status);

  return (
    <Card size="small" title={t("sessionTitle")} style={{ marginBottom: 8 }} data-testid="whatsapp-session-panel" data-status={live.status}>
      <div className="oa-wa-status" style={{ display: "flex", alignItems: "center", gap: 12, flexWrap: "wrap", marginBottom: 12 }}>
        <Badge status={BADGE[live.status] ?? "default"} text={<strong data-testid="whatsapp-status">{statusText}</strong>} />
        {live.status === "connected" && number ? <Typography.Text type="secondary">{t("connectedAs", { phone: number })}</Typography.Text> : null}
        {detailText && live.status !== "connected" ? (
          <Typography.Text type="secondary" data-testid="whatsapp-status-detail">
            {detailText}
          </Typography.Text>
        ) : null}
        {canConnect ? (
          <Button type="primary" ghost icon={<LinkOutlined />} loading={busy === "connect"} onClick={() => void connect()} style={{ marginInlineStart: "auto" }} data-testid="whatsapp-connect">
            {t("connect")}
          </Button>
        ) : null}
      </div>

      {live.status === "qrcode" ? (
        <div style={{ display: "flex", gap: 20, alignItems: "center", flexWrap: "wrap", marginBottom: 16 }} data-testid="whatsapp-qr">
          {live.qrcode?.startsWith("data:image") ? (
            <img src={live.qrcode} alt={t("qrTitle")} width={232} height={232} style={{ borderRadius: 8, border: "1px solid rgba(0,0,0,0.08)" }} data-testid="whatsapp-qr-image" />
          ) : live.qrcode ? (
            <QRCode value={live.qrcode} size={232} />
          ) : (
            <QRCode value="-" status="loading" size={232} />
          )}
          <div style={{ flex: "1 1 220px" }}>
            <Typography.Title level={5} style={{ marginTop: 0 }}>
              {t("qrTitle")}
            </Typography.Title>
            <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
              {t("qrHint")}
            </Typography.Paragraph>
          </div>
        </div>
      ) : null}

      {shownCode && live.status !== "connected" ? (
        <Alert
          style={{ marginBottom: 16 }}
          type="info"
          showIcon
          title={t("pairingCode")}
          description={
            <>
              <Typography.Title level={2} copyable={{ text: shownCode.replace("-", "") }} style={{ margin: "4px 0 8px", letterSpacing: 6, fontFamily: "monospace" }} data-testid="whatsapp-pairing-code">
                {shownCode}
              </Typography.Title>
              {t("pairingCodeHint")}
            </>
          }
        />
      ) : null}

      {live.status !== "connected" ? (
        <>
          <Typography.Title level={5}>{t("pairingTitle")}</Typography.Title>
          <Typography.Paragraph type="secondary">{t("pairingHint")}</Typography.Paragraph>
          <Form layout="vertical" component="div">
            <Form.Item label={t("pairingPhone")} validateStatus={phoneError ? "error" : undefined} help={phoneError}>
              <Space.Compact style={{ width: "100%" }}>
                <Input
                  inputMode="tel"
                  placeholder="+55 11 98888-7777"
                  value={phone}
                  onChange={(e) => {
                    setPhone(e.target.value);
                    setPhoneError(undefined);
                  }}
                  onPressEnter={() => void pair()}
                  data-testid="whatsapp-pairing-phone"
                />
                <Button type="primary" loading={busy === "pair"} onClick={() => void pair()} data-testid="whatsapp-pairing-get">
                  {t("pairingGet")}
                </Button>
              </Space.Compact>
            </Form.Item>
          </Form>
        </>
      ) : null}

      <div style={{ display: "flex", alignItems: "center", gap: 12, flexWrap: "wrap", marginBottom: 8 }}>
        <Typography.Text type="secondary" style={{ flex: "1 1 240px" }}>
          {t("resetHint")}
        </Typography.Text>
        <Popconfirm title={t("resetConfirm")} okText={t("yes")} cancelText={t("no")} onConfirm={() => reset()} okButtonProps={{ danger: true }}>
          <Button danger icon={<ReloadOutlined />} loading={busy === "reset"} data-testid="whatsapp-reset">
            {t("reset")}
          </Button>
        </Popconfirm>
      </div>

      <HealthPanel key={healthKey} token={token} runtime={runtime} />
    </Card>
  );
}
