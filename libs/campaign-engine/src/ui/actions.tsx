/**
 * A campaign's actions (spec §4) as buttons, each behind a confirmation; shared by the list
 * and the detail page. Errors come back as the server's catalogue text (runtime.notify.error).
 */
import { Button, Popconfirm, Space } from "antd";
import type { ShellRuntime, UiApiError } from "@openatende/plugin-sdk/ui";
import { actionsFor, formatDateTime, type Campaign, type CampaignAction, type CampaignUiType } from "./model";

type Op = Exclude<CampaignAction, "edit">;

/** Each type's retrySchedule, by route base (registerCampaignPages sets it). */
const scheduleRetries = new Map<string, NonNullable<CampaignUiType<unknown>["retrySchedule"]>>();
export function setScheduleRetry(base: string, retry: CampaignUiType<unknown>["retrySchedule"]): void {
  if (retry) scheduleRetries.set(base, retry);
}

/** Runs one status change (or the delete) on the server; resolves true when it succeeded. */
export async function runCampaignAction(runtime: ShellRuntime, base: string, c: Campaign, op: Op): Promise<boolean> {
  const t = runtime.t;
  const retry = op === "schedule" ? scheduleRetries.get(base) : undefined;
  try {
    if (op === "delete") await runtime.api.delete(`/${base}/item`, { query: { id: c.id }, silent: true });
    else {
      try {
        // Silent: an error is shown once, by the catch below.
        await runtime.api.post(`/${base}/item/${op}`, { id: c.id }, { silent: true });
      } catch (err) {
        // The type may offer to schedule again differently (SMS: only the first contacts its credits cover).
        const extra = retry ? await retry(runtime, c, err as UiApiError) : null;
        if (!extra) throw err;
        await runtime.api.post(`/${base}/item/${op}`, { id: c.id, ...extra }, { silent: true });
      }
    }
    runtime.notify.success(t(op === "delete" ? "campaign.done.deleted" : `campaign.done.${op}`));
    return true;
  } catch (err) {
    runtime.notify.error(err);
    return false;
  }
}

export function CampaignActions(props: { runtime: ShellRuntime; base: string; campaign: Campaign; onEdit?(c: Campaign): void; onDone(op: Op): void; size?: "small" | "middle" }) {
  const { runtime, base, campaign: c } = props;
  const t = runtime.t;
  const vars = { name: c.name, date: formatDateTime(c.startAt, runtime.locale) };
  const allowed = actionsFor(c.status).filter((a) => a !== "edit" || props.onEdit);
  return (
    <Space size={4} wrap>
      {allowed.map((a) =>
        a === "edit" ? (
          <Button key={a} size={props.size ?? "small"} onClick={() => props.onEdit?.(c)} data-testid={`campaign-edit-${c.id}`}>
            {t("campaign.action.edit")}
          </Button>
        ) : (
          <Popconfirm
            key={a}
            title={t(`campaign.confirm.${a}`, vars)}
            okText={t("campaign.confirm.yes")}
            cancelText={t("campaign.confirm.no")}
            okButtonProps={{ danger: a === "delete" || a === "cancel", "data-testid": "campaign-confirm-ok" } as never}
            onConfirm={async () => {
              if (await runCampaignAction(runtime, base, c, a)) props.onDone(a);
            }}
          >
            <Button size={props.size ?? "small"} danger={a === "delete" || a === "cancel"} data-testid={`campaign-${a}-${c.id}`}>
              {t(`campaign.action.${a}`)}
            </Button>
          </Popconfirm>
        ),
      )}
    </Space>
  );
}
