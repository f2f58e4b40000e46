import { useEffect, useRef, useState } from "react";
import { observer } from "mobx-react-lite";
import { useTranslation } from "react-i18next";
import { Alert, Button, Card, Modal, Progress, Space, Statistic, Table, Tag, Typography, Upload, theme } from "antd";
import { CheckCircleFilled, CloseCircleFilled, DownloadOutlined, FileTextOutlined, InboxOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { ApiError } from "../../api/client";
import { downloadText } from "./download";

/** GET /contacts/import/:importId (core/src/contacts/contacts.service.ts importView). */
export interface ImportStatus {
  importId: string;
  status: "waiting" | "active" | "completed" | "failed" | "delayed" | "paused" | string;
  processed: number;
  total: number;
  imported: number;
  errorCount: number;
  errors: Array<{ row: number; field: string | null; code: string }>;
  limit?: { current: number; max: number; code: string };
  failedReason?: string | null;
}

/** How often the import's progress is read while it runs. */
const POLL_MS = 700;
/** The API's `csv` parameter is at most 20,000,000 characters. */
const MAX_CHARS = 20_000_000;

const TEMPLATE = "name,number,email,document,birthday,tags\nMaria Silva,5511912345678,maria@exemplo.com,,1990-05-20,cliente;vip\n";

/**
 * CSV import: the file goes to POST /contacts/import (a Bull job); its progress is polled
 * from GET /contacts/import/:id until it ends, then the rows refused are listed with the
 * field and the reason (the server catalogue's text of its code). Good rows are kept whatever
 * the bad ones. An observer: the catalogue's texts arrive after the first render.
 */
export const ImportModal = observer(function ImportModal({ onClose, onImported }: { onClose: () => void; onImported: () => void }) {
  const root = useRoot();
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [status, setStatus] = useState<ImportStatus | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const alive = useRef(true);
  const importedAny = useRef(false);

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      clearTimeout(timer.current);
    };
  }, []);

  const done = status?.status === "completed" || status?.status === "failed";

  const poll = (id: string) => {
    timer.current = setTimeout(async () => {
      try {
        const s = await root.api.get<ImportStatus>(`/contacts/import/${encodeURIComponent(id)}`, { silent: true });
        if (!alive.current) return;
        setStatus(s);
        if (s.imported > 0) importedAny.current = true;
        if (s.status !== "completed" && s.status !== "failed") poll(id);
      } catch (e) {
        if (!alive.current) return;
        if (e instanceof ApiError && e.status === 0) poll(id); // network hiccup: try again
        else root.notifyError(e);
      }
    }, POLL_MS);
  };

  const start = async () => {
    if (!file) {
      setFileError(t("contatos.import.pickFirst"));
      return;
    }
    setStarting(true);
    try {
      const csv = await file.text();
      if (!csv.trim()) {
        setFileError(t("contatos.import.emptyFile"));
        return;
      }
      if (csv.length > MAX_CHARS) {
        setFileError(t("contatos.import.tooLarge"));
        return;
      }
      const r = await root.api.post<{ importId: string; total: number }>("/contacts/import", { csv });
      setStatus({ importId: r.importId, status: "waiting", processed: 0, total: r.total, imported: 0, errorCount: 0, errors: [] });
      poll(r.importId);
    } catch {
      /* the API's error (unreadable file…) is shown by the client */
    } finally {
      setStarting(false);
    }
  };

  const close = () => {
    clearTimeout(timer.current);
    if (importedAny.current) onImported();
    onClose();
  };

  const again = () => {
    clearTimeout(timer.current);
    setStatus(null);
    setFile(null);
    setFileError(null);
  };

  // Rows refused (a row can carry several errors): all that is not imported once it is over.
  const refusedRows = status ? (done && status.status === "completed" ? Math.max(0, status.total - status.imported) : new Set(status.errors.map((e) => e.row)).size) : 0;
  const pct = status && status.total ? Math.min(100, Math.round((status.processed / status.total) * 100)) : status && done ? 100 : 0;
  const fieldLabel = (f: string | null) => {
    if (!f) return "—";
    const k = `contatos.fields.${f}`;
    const v = t(k);
    return v === k ? f : v;
  };
  const reason = (code: string, field: string | null) => {
    if (code === "ERR_VALIDATION" && field) {
      const byField = `contatos.import.fieldReasons.${field}`;
      const v = t(byField);
      if (v !== byField) return v;
    }
    // The server's words for its code (the catalogue), never the shell's own.
    return root.errors.line(code, i18n.language) ?? t("contatos.import.reasonOther", { code });
  };

  return (
    <Modal
      open
      width={720}
      title={t("contatos.import.title")}
      onCancel={close}
      maskClosable={!status || done}
      destroyOnHidden
      footer={
        !status ? (
          <Space>
            <Button onClick={close}>{t("common.cancel")}</Button>
            <Button type="primary" loading={starting} onClick={start} disabled={!file} data-testid="import-start">
              {t("contatos.import.start")}
            </Button>
          </Space>
        ) : done ? (
          <Space>
            <Button onClick={again}>{t("contatos.import.another")}</Button>
            <Button type="primary" onClick={close} data-testid="import-close">
              {t("contatos.import.finish")}
            </Button>
          </Space>
        ) : (
          <Button onClick={close}>{t("contatos.import.background")}</Button>
        )
      }
    >
      {!status ? (
        <>
          <Typography.Paragraph type="secondary">{t("contatos.import.intro")}</Typography.Paragraph>
          <Upload.Dragger
            accept=".csv,text/csv,text/plain"
            multiple={false}
            maxCount={1}
            fileList={file ? [{ uid: "1", name: file.name, size: file.size, status: "done", type: file.type }] : []}
            beforeUpload={(f) => {
              setFile(f);
              setFileError(null);
              return false;
            }}
            onRemove={() => {
              setFile(null);
              return true;
            }}
            data-testid="import-upload"
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">{t("contatos.import.drop")}</p>
            <p className="ant-upload-hint">{t("contatos.import.dropHint")}</p>
          </Upload.Dragger>
          {fileError ? <Alert style={{ marginTop: 12 }} type="error" showIcon title={fileError} /> : null}
          <Card size="small" style={{ marginTop: 16 }}>
            <Space orientation="vertical" size={6} style={{ width: "100%" }}>
              <Typography.Text strong>
                <FileTextOutlined /> {t("contatos.import.columnsTitle")}
              </Typography.Text>
              <Typography.Text type="secondary">{t("contatos.import.columns")}</Typography.Text>
              <div>
                <Button size="small" icon={<DownloadOutlined />} onClick={() => downloadText(TEMPLATE, "modelo-contatos.csv")}>
                  {t("contatos.import.template")}
                </Button>
              </div>
            </Space>
          </Card>
        </>
      ) : (
        <div data-testid="import-status" data-status={status.status}>
          <Progress
            percent={pct}
            status={status.status === "failed" ? "exception" : done ? "normal" : "active"}
            strokeColor={status.status === "failed" ? undefined : token.colorPrimary}
            data-testid="import-progress"
            aria-valuenow={pct}
          />
          <Typography.Paragraph type="secondary" style={{ marginTop: 4 }}>
            {done
              ? status.status === "failed"
                ? t("contatos.import.failed")
                : t("contatos.import.finished", { total: status.total })
              : t("contatos.import.running", { processed: status.processed, total: status.total })}
          </Typography.Paragraph>
          <div className="oa-stats" style={{ margin: "12px 0 16px" }}>
            <Card size="small">
              <Statistic title={t("contatos.import.total")} value={status.total} />
            </Card>
            <Card size="small">
              <Statistic title={t("contatos.import.imported")} value={status.imported} styles={{ content: { color: "#16a34a" } }} prefix={<CheckCircleFilled />} data-testid="import-imported" />
            </Card>
            <Card size="small">
              <Statistic
                title={t("contatos.import.refused")}
                value={refusedRows}
                styles={{ content: { color: refusedRows ? "#dc2626" : undefined } }}
                prefix={<CloseCircleFilled />}
                data-testid="import-refused"
              />
            </Card>
          </div>
          {status.limit ? (
            <Alert style={{ marginBottom: 12 }} type="warning" showIcon title={t("contatos.import.limit", { current: status.limit.current, max: status.limit.max })} />
          ) : null}
          {status.status === "failed" && status.failedReason ? <Alert style={{ marginBottom: 12 }} type="error" showIcon title={status.failedReason} /> : null}
          {done && status.errors.length ? (
            <>
              <Typography.Title level={5}>
                {t("contatos.import.report")} <Typography.Text type="secondary">({t("contatos.import.errorCount", { count: status.errorCount })})</Typography.Text>
              </Typography.Title>
              <Table
                size="small"
                rowKey={(r) => `${r.row}:${r.field}:${r.code}`}
                dataSource={status.errors}
                pagination={status.errors.length > 8 ? { pageSize: 8, showSizeChanger: false, size: "small" } : false}
                data-testid="import-errors"
                columns={[
                  { title: t("contatos.import.line"), dataIndex: "row", width: 90 },
                  { title: t("contatos.import.field"), dataIndex: "field", width: 170, render: (f: string | null) => <Tag>{fieldLabel(f)}</Tag> },
                  { title: t("contatos.import.reason"), dataIndex: "code", render: (c: string, r) => reason(c, r.field) },
                ]}
              />
              {status.errorCount > status.errors.length ? (
                <Typography.Text type="secondary">{t("contatos.import.moreErrors", { count: status.errorCount - status.errors.length })}</Typography.Text>
              ) : null}
            </>
          ) : null}
          {done && !status.errors.length && status.status === "completed" ? <Alert type="success" showIcon title={t("contatos.import.allGood")} /> : null}
        </div>
      )}
    </Modal>
  );
});
