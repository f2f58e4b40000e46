import type { ReactNode } from "react";
import { Card, Typography } from "antd";
import "./settings-group.css";

/**
 * A group of settings on a settings page (Atendimento, Tickets, Aparência…): a card with its
 * title and one line of help, then one SettingRow per setting. Later groups of the general
 * and global settings use the same two pieces.
 */
export function SettingsGroup({ id, title, description, children }: { id: string; title: ReactNode; description?: ReactNode; children: ReactNode }) {
  return (
    <Card variant="borderless" className="oa-settings-group" data-testid={`settings-group-${id}`} aria-labelledby={`settings-group-${id}-title`}>
      <div className="oa-settings-group-head">
        <Typography.Title level={5} id={`settings-group-${id}-title`} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        {description ? <Typography.Text type="secondary">{description}</Typography.Text> : null}
      </div>
      <div className="oa-settings-rows">{children}</div>
    </Card>
  );
}

/** One setting: its name and what it does on the left, its control on the right (below on a narrow screen). */
export function SettingRow({ id, label, hint, children }: { id: string; label: ReactNode; hint?: ReactNode; children: ReactNode }) {
  return (
    <div className="oa-setting-row" data-testid={`setting-${id}`}>
      <div className="oa-setting-text">
        <Typography.Text strong id={`setting-${id}-label`}>
          {label}
        </Typography.Text>
        {hint ? (
          <Typography.Text type="secondary" className="oa-setting-hint">
            {hint}
          </Typography.Text>
        ) : null}
      </div>
      <div className="oa-setting-control">{children}</div>
    </div>
  );
}
