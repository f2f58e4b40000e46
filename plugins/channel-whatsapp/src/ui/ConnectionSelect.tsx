import { useEffect, useState } from "react";
import { Badge, Select } from "antd";
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import { whatsAppConnections, type ConnectionRow } from "./shared";

/**
 * The tenant's WhatsApp connections; only connected ones can be chosen (groups are made and
 * answered through a live session). The only connected one is chosen at once.
 */
export default function ConnectionSelect({
  runtime,
  value,
  onChange,
  testId,
}: {
  runtime: ShellRuntime;
  value: ConnectionRow | null;
  onChange(c: ConnectionRow | null): void;
  testId: string;
}) {
  const t = runtime.t;
  const [rows, setRows] = useState<ConnectionRow[] | null>(null);

  useEffect(() => {
    let live = true;
    whatsAppConnections(runtime).then(
      (list) => {
        if (!live) return;
        setRows(list);
        const connected = list.filter((c) => c.status === "connected");
        if (!value && connected.length === 1) onChange(connected[0]);
      },
      (err) => {
        if (!live) return;
        setRows([]);
        runtime.notify.error(err);
      },
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runtime]);

  return (
    <Select<number>
      loading={rows === null}
      value={value?.id}
      placeholder={t("groupConnection")}
      notFoundContent={t("groupConnectionNone")}
      onChange={(id) => onChange(rows?.find((c) => c.id === id) ?? null)}
      options={(rows ?? []).map((c) => ({
        value: c.id,
        disabled: c.status !== "connected",
        label: <Badge status={c.status === "connected" ? "success" : "default"} text={c.status === "connected" ? c.name : `${c.name} · ${t(`status.${c.status}`)}`} />,
      }))}
      data-testid={testId}
    />
  );
}
