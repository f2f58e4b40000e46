import type { ReactNode } from "react";
import { Typography } from "antd";
import "./kit.css";

/** Title, one line of help and the actions of a page or a settings section. */
export function SectionHeader({ title, description, extra, level = 4 }: { title: ReactNode; description?: ReactNode; extra?: ReactNode; level?: 3 | 4 }) {
  return (
    <div className="oa-section-head">
      <div className="oa-section-title">
        <Typography.Title level={level} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        {description ? <Typography.Text type="secondary">{description}</Typography.Text> : null}
      </div>
      {extra ? <div className="oa-section-actions">{extra}</div> : null}
    </div>
  );
}
