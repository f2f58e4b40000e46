/**
 * Spec §5 SMS: "if credits are insufficient the user is asked whether to continue with only the
 * first N contacts". A schedule refused with ERR_SMS_INSUFFICIENT_CREDITS (data: credits,
 * needed, affordable) asks it; yes schedules again with `limitTo: N` (the server unlinks the
 * others). No affordable contact, or any other refusal: the refusal is shown as usual.
 */
import { Modal } from "antd";
import type { ShellRuntime, UiApiError } from "@openatende/plugin-sdk/ui";

export function continueWithFirst(runtime: ShellRuntime, _campaign: unknown, err: UiApiError): Promise<Record<string, unknown> | null> {
  const data = (err?.data ?? {}) as { credits?: number; needed?: number; affordable?: number };
  if (err?.code !== "ERR_SMS_INSUFFICIENT_CREDITS" || !data.affordable) return Promise.resolve(null);
  const t = runtime.t;
  const vars = { credits: data.credits ?? 0, needed: data.needed ?? 0, affordable: data.affordable };
  return new Promise((resolve) => {
    Modal.confirm({
      title: t("smsCredits.title"),
      content: <span data-testid="sms-credits-confirm">{t("smsCredits.confirm", vars)}</span>,
      okText: t("smsCredits.ok", vars),
      cancelText: t("smsCredits.cancel"),
      okButtonProps: { "data-testid": "sms-credits-continue" } as never,
      cancelButtonProps: { "data-testid": "sms-credits-stop" } as never,
      onOk: () => resolve({ limitTo: data.affordable }),
      onCancel: () => resolve(null),
    });
  });
}
