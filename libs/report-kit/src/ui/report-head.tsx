/**
 * The head of a report page: its title, and Print, Excel and PDF (spec §2: the reports offer
 * print, Excel and PDF), with the print rule that leaves the page's controls (`.no-print`) off
 * the paper. Shared by the report plugins' pages; the texts are the page's own.
 */
import { Button, Space, Typography } from "antd";

export type ExportFormat = "xlsx" | "pdf";

export interface ReportHeadProps {
  title: string;
  texts: { print: string; excel: string; pdf: string };
  onExport(format: ExportFormat): void;
  /** Nothing to print or export yet (a choice to make, an empty list). */
  disabled?: boolean;
  /** Print alone may be off (an empty list prints nothing), the exports still answer the period. */
  printDisabled?: boolean;
  printTestId?: string;
}

export const PRINT_RULE = "@media print { .no-print { display: none !important; } }";

export function ReportHead({ title, texts, onExport, disabled, printDisabled, printTestId }: ReportHeadProps) {
  return (
    <>
      <style>{PRINT_RULE}</style>
      <Space style={{ width: "100%", justifyContent: "space-between", marginBottom: 12 }} wrap>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        <Space className="no-print">
          <Button onClick={() => window.print()} disabled={disabled || printDisabled} data-testid={printTestId}>
            {texts.print}
          </Button>
          <Button onClick={() => onExport("xlsx")} disabled={disabled} data-testid="export-xlsx">
            {texts.excel}
          </Button>
          <Button onClick={() => onExport("pdf")} disabled={disabled} data-testid="export-pdf">
            {texts.pdf}
          </Button>
        </Space>
      </Space>
    </>
  );
}
