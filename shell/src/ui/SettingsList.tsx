import type { HTMLAttributes, ReactNode } from "react";
import { Button, Card, Empty, Table, type TableColumnsType, type TableProps } from "antd";
import { PlusOutlined } from "@ant-design/icons";
import { SectionHeader } from "./SectionHeader";

/**
 * The scaffold every settings list page shares: a card with the title, one line of help and
 * the "new" button; an optional notice and toolbar; the table, paged at 20 rows, whose empty
 * state offers the same "new" button (or says nothing matches while the list is filtered).
 * The page brings its columns, its filters and its drawers or modals (as children).
 */
export function SettingsList<T extends { id: number }>({
  testId,
  title,
  description,
  newLabel,
  newIcon = <PlusOutlined />,
  newTestId,
  newLoading,
  onNew,
  extra,
  notice,
  toolbar,
  icon,
  emptyText,
  noMatchText,
  filtered,
  emptyAction = true,
  rows,
  loading,
  columns,
  scrollX = 640,
  pagination,
  rowTestId,
  children,
}: {
  testId: string;
  title: ReactNode;
  description: ReactNode;
  newLabel: ReactNode;
  newIcon?: ReactNode;
  newTestId?: string;
  /** The "new" button waits (what it needs is loading). */
  newLoading?: boolean;
  onNew: () => void;
  /** Header buttons before "new". */
  extra?: ReactNode;
  notice?: ReactNode;
  toolbar?: ReactNode;
  /** The empty state's picture (the page's icon). */
  icon: ReactNode;
  emptyText: ReactNode;
  noMatchText: ReactNode;
  filtered: boolean;
  /** Whether the empty state repeats the "new" button. */
  emptyAction?: boolean;
  rows: T[];
  loading: boolean;
  columns: TableColumnsType<T>;
  scrollX?: number;
  /** Default: 20 rows a page in the browser when there are more. */
  pagination?: TableProps<T>["pagination"];
  /** data-testid of each row, from its id. */
  rowTestId?: (row: T) => string;
  children?: ReactNode;
}) {
  return (
    <Card variant="borderless" data-testid={testId}>
      <SectionHeader
        title={title}
        description={description}
        extra={
          <>
            {extra}
            <Button type="primary" icon={newIcon} loading={newLoading} onClick={onNew} data-testid={newTestId}>
              {newLabel}
            </Button>
          </>
        }
      />
      {notice}
      {toolbar ? <div className="oa-toolbar">{toolbar}</div> : null}
      <Table<T>
        rowKey="id"
        loading={loading}
        dataSource={rows}
        pagination={pagination !== undefined ? pagination : rows.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
        scroll={{ x: scrollX }}
        onRow={rowTestId ? (r) => ({ "data-testid": rowTestId(r) }) as HTMLAttributes<HTMLElement> : undefined}
        locale={{
          emptyText: (
            <Empty className="oa-empty-cta" image={<span className="oa-empty-icon">{icon}</span>} description={filtered ? noMatchText : emptyText}>
              {!filtered && emptyAction ? (
                <Button type="primary" icon={newIcon} onClick={onNew}>
                  {newLabel}
                </Button>
              ) : null}
            </Empty>
          ),
        }}
        columns={columns}
      />
      {children}
    </Card>
  );
}
