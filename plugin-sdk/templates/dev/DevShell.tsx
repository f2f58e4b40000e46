/**
 * The page of `plugin-sdk dev`: what the plugin registered, each part usable alone. Connect
 * forms sit in an antd Form with their defaults; Submit runs the form's validate() and shows
 * the values or the errors. Routes open in place; menu entries, api calls and notices are listed.
 */
import { Suspense, lazy, useEffect, useMemo, useState, useSyncExternalStore } from "react";
import { Alert, Button, Card, Checkbox, Empty, Form, Layout, Segmented, Space, Spin, Table, Tag, Typography, message } from "antd";
import type { ChatListActionDefinition, ConnectFormDefinition, ConnectionSettings, UiLocale, UiRoute } from "@openatende/plugin-sdk/ui";
import { LOCALES, type DevRuntime } from "./runtime";

export interface PluginInfo {
  id: string;
  version: string;
  kind: string;
  displayName: Record<string, string>;
}

const DEV_CONNECTION = { id: 1, name: "Dev connection", status: "connected", token: "dev-token-0123456789abcdef" };

function ConnectFormCard({ form, dev, locale }: { form: ConnectFormDefinition; dev: DevRuntime; locale: UiLocale }) {
  const [value, setValue] = useState<ConnectionSettings>(() => ({ ...(form.defaults ?? {}) }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [submitted, setSubmitted] = useState<{ ok: boolean; values: ConnectionSettings } | null>(null);
  const [saved, setSaved] = useState(false);
  const Component = form.component;
  const validate = (v: ConnectionSettings) => form.validate?.(v, dev.runtime.t) ?? {};

  // The messages are translated when validate() runs: run it again in the new language.
  useEffect(() => {
    if (submitted && !submitted.ok) setErrors(validate(value));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [locale]);

  // As the shell does: once errors show, each change validates again.
  const change = (next: ConnectionSettings) => {
    setValue(next);
    if (Object.keys(errors).length) setErrors(validate(next));
  };
  const submit = () => {
    const found = validate(value);
    setErrors(found);
    setSubmitted({ ok: Object.keys(found).length === 0, values: value });
  };
  const reset = () => {
    setValue({ ...(form.defaults ?? {}) });
    setErrors({});
    setSubmitted(null);
  };

  return (
    <Card
      title={
        <Space>
          <span>Connect form</span>
          <Tag>{form.type}</Tag>
        </Space>
      }
      extra={
        <Checkbox checked={saved} onChange={(e) => setSaved(e.target.checked)} data-testid="dev-saved-connection">
          editing a saved connection
        </Checkbox>
      }
      data-testid={`dev-connect-form-${form.type}`}
    >
      <Form layout="vertical" onFinish={submit}>
        <Suspense fallback={<Spin />}>
          <Component value={value} onChange={change} errors={errors} runtime={dev.runtime} connection={saved ? DEV_CONNECTION : undefined} />
        </Suspense>
        <Space>
          <Button type="primary" htmlType="submit" data-testid="dev-submit">
            Submit
          </Button>
          <Button onClick={reset}>Reset to defaults</Button>
        </Space>
      </Form>
      {submitted && !submitted.ok ? (
        <Alert
          style={{ marginTop: 16 }}
          type="error"
          showIcon
          title="validate() refused the settings"
          description={
            <ul data-testid="dev-form-errors" style={{ margin: 0, paddingLeft: 18 }}>
              {Object.entries(errors).map(([field, text]) => (
                <li key={field}>
                  <Typography.Text code>{field}</Typography.Text> {text}
                </li>
              ))}
            </ul>
          }
        />
      ) : null}
      {submitted && submitted.ok ? (
        <Alert
          style={{ marginTop: 16 }}
          type="success"
          showIcon
          title="validate() accepted the settings; the shell would save:"
          description={<pre data-testid="dev-form-values">{JSON.stringify(submitted.values, null, 2)}</pre>}
        />
      ) : null}
    </Card>
  );
}

function RouteCard({ route }: { route: UiRoute }) {
  const [open, setOpen] = useState(false);
  const Page = useMemo(() => (open ? lazy(route.load) : null), [open, route]);
  return (
    <Card size="small" title={<Typography.Text code>#/{route.path.replace(/^\//, "")}</Typography.Text>} extra={<Tag>{route.access ?? "user"}</Tag>}>
      {Page ? (
        <Suspense fallback={<Spin />}>
          <Page />
        </Suspense>
      ) : (
        <Button onClick={() => setOpen(true)}>Open</Button>
      )}
    </Card>
  );
}

export function DevShell({ dev, plugin }: { dev: DevRuntime; plugin: PluginInfo }) {
  const state = useSyncExternalStore(dev.subscribe, dev.getState);
  const [messageApi, holder] = message.useMessage();
  useEffect(() => {
    dev.onNotice((n) => void messageApi.open({ type: n.kind, content: n.text }));
  }, [dev, messageApi]);
  const name = plugin.displayName[state.locale] ?? plugin.displayName["pt-BR"] ?? plugin.id;

  return (
    <Layout style={{ minHeight: "100vh" }}>
      {holder}
      <Layout.Header style={{ display: "flex", alignItems: "center", gap: 16, background: "#fff", borderBottom: "1px solid #eee" }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {name} <Typography.Text type="secondary">{plugin.id}@{plugin.version} · plugin-sdk dev</Typography.Text>
        </Typography.Title>
        <span style={{ flex: 1 }} />
        <Segmented<UiLocale> data-testid="dev-locale" options={LOCALES} value={state.locale} onChange={(l) => dev.setLocale(l)} />
      </Layout.Header>
      <Layout.Content style={{ padding: 24, maxWidth: 1100, width: "100%", margin: "0 auto" }}>
        <Space orientation="vertical" size="large" style={{ width: "100%" }}>
          {state.forms.length === 0 && state.routes.length === 0 && state.menu.length === 0 && state.chatListActions.length === 0 ? (
            <Empty description="register() added nothing yet (connect forms, routes, menu items, chat-list actions)" />
          ) : null}
          {state.forms.map((f) => (
            <ConnectFormCard key={f.type} form={f} dev={dev} locale={state.locale} />
          ))}
          {state.routes.length ? (
            <Card title="Routes">
              <Space orientation="vertical" style={{ width: "100%" }}>
                {state.routes.map((r) => (
                  <RouteCard key={r.path} route={r} />
                ))}
              </Space>
            </Card>
          ) : null}
          {state.chatListActions.length ? <ChatListActionsCard actions={state.chatListActions} dev={dev} locale={state.locale} /> : null}
          {state.menu.length ? (
            <Card title="Menu items">
              {state.menu.map((m) => (
                <div key={m.key}>
                  <Typography.Text strong>{m.label[state.locale] ?? m.label["pt-BR"]}</Typography.Text> → <Typography.Text code>#/{m.path.replace(/^\//, "")}</Typography.Text>{" "}
                  <Tag>{m.access ?? "user"}</Tag>
                </div>
              ))}
            </Card>
          ) : null}
          <Card title={`API calls (${state.calls.length})`} size="small">
            <Table
              size="small"
              rowKey="n"
              pagination={false}
              dataSource={[...state.calls].reverse()}
              locale={{ emptyText: "No calls yet: runtime.api answers from an in-memory table" }}
              columns={[
                { title: "#", dataIndex: "n", width: 48 },
                { title: "call", render: (_, c) => `${c.method} ${c.path}` },
                { title: "body", render: (_, c) => (c.body === undefined ? "" : <Typography.Text code>{JSON.stringify(c.body)}</Typography.Text>) },
                { title: "status", dataIndex: "status", width: 72 },
                { title: "answer", render: (_, c) => <Typography.Text code>{JSON.stringify(c.answer) ?? ""}</Typography.Text> },
              ]}
            />
          </Card>
          {state.notices.length ? (
            <Card title="Notices" size="small">
              {state.notices.map((n, i) => (
                <div key={i}>
                  <Tag color={n.kind === "error" ? "red" : n.kind === "success" ? "green" : "blue"}>{n.kind}</Tag> {n.text}
                </div>
              ))}
            </Card>
          ) : null}
        </Space>
      </Layout.Content>
    </Layout>
  );
}

/** The chat-list buttons register() added, each opening its component as the shell would. */
function ChatListActionsCard({ actions, dev, locale }: { actions: ChatListActionDefinition[]; dev: DevRuntime; locale: UiLocale }) {
  const [open, setOpen] = useState<ChatListActionDefinition | null>(null);
  const Component = open?.component;
  return (
    <Card title="Chat-list actions">
      <Space wrap>
        {actions.map((a) => (
          <Button key={a.key} onClick={() => setOpen(a)} data-testid={`dev-chatlist-${a.key}`}>
            {a.label[locale] ?? a.label["pt-BR"]} <Tag>{a.tabs.join(", ")}</Tag>
          </Button>
        ))}
      </Space>
      {Component && open ? (
        <Suspense fallback={null}>
          <Component runtime={dev.runtime} tab={open.tabs[0] ?? "open"} onClose={() => setOpen(null)} />
        </Suspense>
      ) : null}
    </Card>
  );
}
