import { useState } from "react";
import { Alert, Button, Collapse, Divider, Form, Input, Switch, Typography } from "antd";
import type { ConnectFormProps } from "@openatende/plugin-sdk/ui";
import SessionPanel from "./SessionPanel";
import { MASKED } from "./validate";
import { PLUGIN_TYPE } from "./shared";

interface TestAnswer {
  ok: boolean;
  detail?: string;
}

const IMPORT_SWITCHES = ["messages", "groupMessages", "contacts", "closeTickets"] as const;
const IMPORT_LABEL: Record<(typeof IMPORT_SWITCHES)[number], string> = {
  messages: "importMessages",
  groupMessages: "importGroupMessages",
  contacts: "importContacts",
  closeTickets: "importCloseTickets",
};

/**
 * The WhatsApp part of the connection form (name, default flag, greeting and farewell are the
 * core's fields above it): for a saved connection the link to WhatsApp (QR code, pairing code,
 * reset, health); then the history import settings and, under Advanced, the pairing number,
 * the device name and the proxy; and a test of the settings.
 */
export default function WhatsAppConnectForm({ value, onChange, errors, connection, runtime }: ConnectFormProps) {
  const t = runtime.t;
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<TestAnswer | null>(null);
  const str = (k: string) => (typeof value[k] === "string" ? (value[k] as string) : "");
  const imports = (value.importSettings && typeof value.importSettings === "object" ? value.importSettings : {}) as Record<string, unknown>;
  // An emptied field is sent as "" (not left out): the server merges settings, and a field left out keeps its stored value.
  const set = (k: string, v: unknown) => {
    setTested(null);
    onChange({ ...value, [k]: v });
  };
  const setImport = (k: string, v: unknown) => set("importSettings", { ...imports, [k]: v });
  const field = (k: string) => ({ validateStatus: errors[k] ? ("error" as const) : undefined, help: errors[k] });
  const importsAny = !!(imports.messages || imports.groupMessages);
  const advancedSet = !!(str("proxyUrl") || str("pairingPhone") || str("browserName"));
  const advancedErrors = ["proxyUrl", "proxyPassword", "pairingPhone", "browserName"].some((k) => errors[k]);

  const test = async () => {
    setTesting(true);
    setTested(null);
    try {
      const settings = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
      setTested(await runtime.api.post<TestAnswer>("/connections/test", { type: PLUGIN_TYPE, settings }, { silent: true }));
    } catch (err) {
      const e = err as { detail?: string; message?: string };
      setTested({ ok: false, detail: e.detail || e.message });
    } finally {
      setTesting(false);
    }
  };

  return (
    <div data-testid="whatsapp-connect-form">
      <SessionPanel connection={connection} runtime={runtime} pairingPhone={str("pairingPhone")} />
      <Form layout="vertical" component="div">
        <Divider titlePlacement="start">{t("importTitle")}</Divider>
        <Typography.Paragraph type="secondary">{t("importHint")}</Typography.Paragraph>
        <div style={{ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(240px, 1fr))", gap: "4px 16px", marginBottom: 12 }} data-testid="whatsapp-import">
          {IMPORT_SWITCHES.map((k) => (
            <label key={k} style={{ display: "flex", alignItems: "center", gap: 10, padding: "6px 0", cursor: "pointer" }}>
              <Switch
                size="small"
                checked={!!imports[k]}
                disabled={k === "closeTickets" && !importsAny}
                onChange={(on) => setImport(k, on)}
                data-testid={`whatsapp-import-${k}`}
              />
              <span>{t(IMPORT_LABEL[k])}</span>
            </label>
          ))}
        </div>
        <div style={{ display: "grid", gridTemplateColumns: "1fr 1fr", gap: "0 16px" }}>
          <Form.Item label={t("importFrom")} {...field("importSettings.from")}>
            <Input type="date" name="importFrom" value={String(imports.from ?? "")} onChange={(e) => setImport("from", e.target.value)} data-testid="whatsapp-import-from" />
          </Form.Item>
          <Form.Item label={t("importTo")} {...field("importSettings.to")}>
            <Input type="date" name="importTo" value={String(imports.to ?? "")} onChange={(e) => setImport("to", e.target.value)} data-testid="whatsapp-import-to" />
          </Form.Item>
        </div>
        <Collapse
          ghost
          styles={{ header: { paddingInline: 0 }, body: { paddingInline: 0, paddingBlockEnd: 0 } }}
          defaultActiveKey={advancedSet || advancedErrors ? ["advanced"] : []}
          data-testid="whatsapp-advanced"
          items={[
            {
              key: "advanced",
              label: t("advanced"),
              forceRender: true,
              children: (
                <>
                  <Form.Item label={t("pairingPhoneSetting")} extra={t("pairingPhoneSettingHint")} {...field("pairingPhone")}>
                    <Input name="pairingPhone" inputMode="tel" placeholder="+55 11 98888-7777" value={str("pairingPhone")} onChange={(e) => set("pairingPhone", e.target.value)} />
                  </Form.Item>
                  <Form.Item label={t("browserName")} extra={t("browserNameHint")} {...field("browserName")}>
                    <Input name="browserName" placeholder="Desktop" maxLength={60} value={str("browserName")} onChange={(e) => set("browserName", e.target.value)} />
                  </Form.Item>
                  <Form.Item label={t("proxyUrl")} extra={t("proxyUrlHint")} {...field("proxyUrl")}>
                    <Input name="proxyUrl" placeholder="socks5://proxy.example.com:1080" value={str("proxyUrl")} onChange={(e) => set("proxyUrl", e.target.value.trim())} />
                  </Form.Item>
                  <Form.Item label={t("proxyPassword")} extra={str("proxyPassword") === MASKED ? t("secretKept") : undefined} {...field("proxyPassword")}>
                    <Input.Password name="proxyPassword" autoComplete="new-password" value={str("proxyPassword")} onChange={(e) => set("proxyPassword", e.target.value)} />
                  </Form.Item>
                </>
              ),
            },
          ]}
        />
        <div style={{ marginTop: 8 }}>
          <Button onClick={() => void test()} loading={testing} data-testid="whatsapp-test">
            {t("test")}
          </Button>
        </div>
        {tested ? (
          <Alert
            style={{ marginTop: 12 }}
            showIcon
            type={tested.ok ? "success" : "error"}
            title={tested.ok ? t("testOk") : t("testFailed")}
            description={tested.detail}
            data-testid="whatsapp-test-result"
          />
        ) : null}
      </Form>
    </div>
  );
}
