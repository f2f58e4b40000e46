/**
 * The connect form drawn (server-side render, no browser): the access method with its fields
 * (the Page id only for the Page flow), the human agent switch, the field the server refused,
 * the webhook URL once saved, in the tenant's language.
 */
import * as React from "react";
import { renderToString } from "react-dom/server";
import type { ConnectFormProps } from "@openatende/plugin-sdk/ui";
import { texts } from "./texts";

// The unit project's transform compiles JSX to React.createElement (the remote's build uses the automatic runtime).
(globalThis as { React?: unknown }).React = React;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const InstagramConnectForm = (require("./ConnectForm") as typeof import("./ConnectForm")).default;

function draw(value: Record<string, unknown>, locale: keyof typeof texts = "pt-BR", connection?: ConnectFormProps["connection"], errors: Record<string, string> = {}): string {
  const t = (k: string) => (texts[locale] as Record<string, string>)[k] ?? `!${k}`;
  const runtime = { t, api: { get: async () => ({}), post: async () => ({}) } } as unknown as ConnectFormProps["runtime"];
  return renderToString(React.createElement(InstagramConnectForm, { value, onChange: () => undefined, errors, connection, runtime }));
}

describe("instagram connect form, drawn", () => {
  it("shows the Instagram Login fields and the server's error in the tenant's language", () => {
    const html = draw({ flavour: "instagram", verifyToken: "v".repeat(32) }, "pt-BR", undefined, { igAccountId: texts["pt-BR"].err_igAccountId_required });
    expect(html).not.toContain("!");
    for (const k of ["officialOnly", "flavour", "flavour_instagram", "flavour_page", "igAccountId", "accessToken", "appSecret", "verifyToken", "humanAgentTag", "webhookAfterSave"] as const) expect(html).toContain(texts["pt-BR"][k]);
    expect(html).not.toContain(texts["pt-BR"].pageIdHint);
    expect(html.match(/ant-form-item-has-error/g)).toHaveLength(1);
  });

  it("asks for the Page id in the Page flow and shows a saved connection's webhook URL", () => {
    (globalThis as { window?: unknown }).window = { location: { origin: "https://atende.example.com" } };
    try {
      const html = draw({ flavour: "page", accessToken: "********", appSecret: "********", verifyToken: "********" }, "ru", { id: 1, name: "IG", status: "connected", token: "tok-123456789" });
      expect(html).toContain(texts.ru.pageId);
      expect(html).toContain(texts.ru.secretKept);
      expect(html).toContain(texts.ru.testNeedsSecrets);
      expect(html).toContain("https://atende.example.com/api/instagram/tok-123456789/webhook");
    } finally {
      delete (globalThis as { window?: unknown }).window;
    }
  });
});
