/**
 * The connect form drawn (server-side render, no browser): the variant picker with the
 * connection's variant, the required tokens, the webhook secret, the e-mail subject only for
 * e-mail, the field the server refused, and where the webhook address will be, in the
 * tenant's language.
 */
import * as React from "react";
import { renderToString } from "react-dom/server";
import type { ConnectFormProps } from "@openatende/plugin-sdk/ui";
import { texts } from "./texts";

// The unit project's transform compiles JSX to React.createElement (the remote's build uses the automatic runtime).
(globalThis as { React?: unknown }).React = React;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const HubConnectForm = (require("./ConnectForm") as typeof import("./ConnectForm")).default;

function draw(value: Record<string, unknown>, locale: keyof typeof texts = "pt-BR", connection?: ConnectFormProps["connection"]): string {
  const t = (k: string) => (texts[locale] as Record<string, string>)[k] ?? `!${k}`;
  const runtime = { t, api: { get: async () => ({}), post: async () => ({}) } } as unknown as ConnectFormProps["runtime"];
  return renderToString(React.createElement(HubConnectForm, { value, onChange: () => undefined, errors: { channelToken: t("errChannelTokenRequired") }, connection, runtime }));
}

describe("hub connect form, drawn", () => {
  it("shows the picker, the required fields and the server's errors in the tenant's language", () => {
    const html = draw({ variant: "instagram", webhookSecret: "s".repeat(40) });
    expect(html).not.toContain("!");
    for (const k of ["variant", "channelToken", "apiToken", "webhookSecret", "webhookAfterSave"] as const) expect(html).toContain(texts["pt-BR"][k]);
    // The server's error marks the connection token's field (antd shows the text once mounted).
    expect(html).toMatch(/ant-form-item-has-error[^]*?title="Token de conexão"/);
    expect(html.match(/ant-form-item-has-error/g)).toHaveLength(1);
    expect(html).toContain(texts["pt-BR"].variant_instagram);
    expect(html).not.toContain(texts["pt-BR"].emailSubject);
    const ru = draw({ variant: "email" }, "ru");
    expect(ru).toContain(texts.ru.variant_email);
    expect(ru).toContain(texts.ru.emailSubject);
  });

  it("says a saved connection's secrets are kept and asks for them again to test", () => {
    const html = draw({ variant: "facebook", channelToken: "********", apiToken: "********", webhookSecret: "********" }, "en", { id: 1, name: "FB", status: "connected", token: "tok-123456789" });
    expect(html).toContain(texts.en.secretKept);
    expect(html).toContain(texts.en.testNeedsSecrets);
    expect(html).toContain(texts.en.variant_facebook);
  });
});
