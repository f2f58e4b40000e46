import { useCallback, useEffect, useState } from "react";
import { Alert, Button, Card, Checkbox, Form, Input, InputNumber, Radio, Select, Space, Table, Typography } from "antd";
import { useRuntime } from "./runtime";
import { getFailures, getSettings, saveSettings, testSettings, type Failure, type SettingsView, type TestResult } from "./api";

type Values = { viewerUrl: string; builderUrl: string; apiToken: string; clearToken: boolean; apiGeneration: "latest" | "legacy"; sessionTimeoutMinutes: number; queueId: number | null };

const isUrl = (s: string) => {
  try {
    return ["http:", "https:"].includes(new URL(s).protocol);
  } catch {
    return false;
  }
};

const valuesOf = (s: SettingsView): Values => ({
  viewerUrl: s.viewerUrl ?? "",
  builderUrl: s.builderUrl ?? "",
  apiToken: "",
  clearToken: false,
  apiGeneration: s.apiGeneration,
  sessionTimeoutMinutes: s.sessionTimeoutMinutes,
  queueId: s.queueId,
});

/** Settings › Typebot (/configuracoes/typebotapi): where the tenant's Typebot is, its token, and what happens at a flow's end. */
export default function SettingsPage() {
  const runtime = useRuntime();
  const t = runtime.t;
  const [form] = Form.useForm<Values>();
  const [view, setView] = useState<SettingsView | null>(null);
  const [queues, setQueues] = useState<Array<{ id: number; name: string }>>([]);
  const [saving, setSaving] = useState(false);
  const [bot, setBot] = useState("");
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<TestResult | null>(null);
  const [failures, setFailures] = useState<Failure[]>([]);

  const reloadFailures = useCallback(() => getFailures(runtime.api).then(setFailures, () => undefined), [runtime]);
  useEffect(() => {
    let live = true;
    getSettings(runtime.api).then((s) => {
      if (!live) return;
      setView(s);
      form.setFieldsValue(valuesOf(s));
    }, runtime.notify.error);
    runtime.api.get<Array<{ id: number; name: string }>>("/queues", { silent: true }).then((q) => live && setQueues(q), () => undefined);
    reloadFailures();
    return () => {
      live = false;
    };
  }, [runtime, form, reloadFailures]);

  async function save(v: Values) {
    setSaving(true);
    try {
      const s = await saveSettings(runtime.api, {
        viewerUrl: v.viewerUrl.trim() || null,
        builderUrl: v.builderUrl.trim() || null,
        ...(v.clearToken ? { apiToken: "" } : v.apiToken.trim() ? { apiToken: v.apiToken.trim() } : {}),
        apiGeneration: v.apiGeneration,
        sessionTimeoutMinutes: v.sessionTimeoutMinutes,
        queueId: v.queueId ?? null,
      });
      setView(s);
      form.setFieldsValue(valuesOf(s));
    } catch (err) {
      const e = err as { code?: string; data?: { field?: string } };
      const field = e.data?.field;
      if (field === "viewerUrl" || field === "builderUrl") form.setFields([{ name: field, errors: [t("errUrl")] }]);
    } finally {
      setSaving(false);
    }
  }

  async function test() {
    if (!bot.trim()) return;
    setTesting(true);
    setResult(null);
    try {
      setResult(await testSettings(runtime.api, bot.trim()));
    } catch {
      // the notice shows the refusal (not configured…)
    } finally {
      setTesting(false);
      reloadFailures();
    }
  }

  const urlRule = { validator: (_: unknown, v: string) => (!v || isUrl(v.trim()) ? Promise.resolve() : Promise.reject(new Error(t("errUrl")))) };
  const builder = view?.effective.builderUrl;
  return (
    <Space orientation="vertical" size={16} style={{ width: "100%" }} data-testid="typebot-settings-page" aria-busy={!view}>
      <div>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t("title")}
        </Typography.Title>
        <Typography.Text type="secondary">{t("subtitle")}</Typography.Text>
      </div>
      <Card variant="borderless">
        <Form form={form} layout="vertical" onFinish={save} disabled={!view} initialValues={{ viewerUrl: "", builderUrl: "", apiToken: "", clearToken: false, apiGeneration: "latest", sessionTimeoutMinutes: 0, queueId: null }}>
          <div style={{ display: "grid", gridTemplateColumns: "repeat(auto-fit, minmax(280px, 1fr))", columnGap: 16 }}>
            <Form.Item name="viewerUrl" label={t("viewerUrl")} rules={[urlRule]} extra={view?.defaults.viewerUrl ? t("platformDefault", { url: view.defaults.viewerUrl }) : t("viewerUrlHint")}>
              <Input placeholder={view?.defaults.viewerUrl ?? "https://"} data-testid="typebot-viewer-url" />
            </Form.Item>
            <Form.Item label={t("builderUrl")} extra={view?.defaults.builderUrl ? t("platformDefault", { url: view.defaults.builderUrl }) : t("builderUrlHint")}>
              <Space.Compact style={{ width: "100%" }}>
                <Form.Item name="builderUrl" noStyle rules={[urlRule]}>
                  <Input placeholder={view?.defaults.builderUrl ?? "https://"} data-testid="typebot-builder-url" />
                </Form.Item>
                <Button href={builder ?? undefined} target="_blank" rel="noopener noreferrer" disabled={!builder} data-testid="typebot-open-builder">
                  {t("openBuilder")}
                </Button>
              </Space.Compact>
            </Form.Item>
            <Form.Item name="apiToken" label={t("apiToken")} extra={view?.hasToken ? t("apiTokenSaved", { hint: view.tokenHint }) : t("apiTokenHint")}>
              <Input.Password autoComplete="new-password" placeholder={view?.tokenHint ?? ""} data-testid="typebot-api-token" />
            </Form.Item>
            <Form.Item name="apiGeneration" label={t("apiGeneration")}>
              <Radio.Group data-testid="typebot-api-generation">
                <Radio value="latest">{t("apiLatest")}</Radio>
                <Radio value="legacy">{t("apiLegacy")}</Radio>
              </Radio.Group>
            </Form.Item>
            <Form.Item name="sessionTimeoutMinutes" label={t("sessionTimeout")} extra={t("sessionTimeoutHint")} rules={[{ type: "number", min: 0, max: 43200, required: true, message: t("errTimeout") }]}>
              <InputNumber min={0} max={43200} precision={0} style={{ width: "100%" }} data-testid="typebot-session-timeout" />
            </Form.Item>
            <Form.Item name="queueId" label={t("queue")} extra={t("queueHint")}>
              <Select allowClear placeholder={t("noQueue")} options={queues.map((q) => ({ value: q.id, label: q.name }))} data-testid="typebot-queue" />
            </Form.Item>
          </div>
          {view?.hasToken ? (
            <Form.Item name="clearToken" valuePropName="checked">
              <Checkbox data-testid="typebot-clear-token">{t("clearToken")}</Checkbox>
            </Form.Item>
          ) : null}
          <Button type="primary" htmlType="submit" loading={saving} data-testid="typebot-save">
            {t("save")}
          </Button>
        </Form>
      </Card>
      <Card variant="borderless" title={t("testTitle")}>
        <Typography.Paragraph type="secondary">{t("testHint")}</Typography.Paragraph>
        <Space.Compact style={{ maxWidth: 520, width: "100%" }}>
          <Input placeholder={t("testBot")} value={bot} onChange={(e) => setBot(e.target.value)} onPressEnter={test} data-testid="typebot-test-bot" />
          <Button onClick={test} loading={testing} disabled={!bot.trim() || !view?.effective.viewerUrl} data-testid="typebot-test">
            {t("test")}
          </Button>
        </Space.Compact>
        {result ? (
          <Alert
            style={{ marginTop: 12 }}
            type={result.ok ? "success" : "error"}
            showIcon
            title={result.ok ? t("testOk", { ms: result.ms, session: result.sessionId ?? "—" }) : t("testFail", { message: `${result.status ? `HTTP ${result.status} · ` : ""}${result.message}` })}
            data-testid="typebot-test-result"
          />
        ) : null}
      </Card>
      <Card variant="borderless" title={t("failuresTitle")}>
        <Table
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={failures}
          locale={{ emptyText: t("failuresEmpty") }}
          data-testid="typebot-failures"
          columns={[
            { title: t("failureWhen"), dataIndex: "at", width: 180, render: (at: number) => new Date(at).toLocaleString(runtime.locale) },
            { title: t("failureTicket"), dataIndex: "ticketId", width: 100, render: (id: number) => `#${id}` },
            { title: t("failureWhat"), dataIndex: "message", render: (m: string, f: Failure) => `${f.status ? `HTTP ${f.status} · ` : ""}${m}` },
          ]}
        />
      </Card>
    </Space>
  );
}
