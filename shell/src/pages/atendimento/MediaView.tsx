import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, Image, Spin } from "antd";
import { DownloadOutlined, FileOutlined, FilePdfOutlined, FileExcelOutlined, FileWordOutlined, FileZipOutlined, WarningOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import type { MessageMedia } from "../../stores/messages";
import { downloadMedia, useMediaUrl } from "./media";
import { fileSize } from "./format";

function DocIcon({ name, mime }: { name: string; mime: string }) {
  const n = name.toLowerCase();
  if (mime.includes("pdf") || n.endsWith(".pdf")) return <FilePdfOutlined style={{ color: "#d9363e" }} />;
  if (/\.(xlsx?|csv|ods)$/.test(n) || mime.includes("sheet")) return <FileExcelOutlined style={{ color: "#1f7a45" }} />;
  if (/\.(docx?|odt|rtf)$/.test(n) || mime.includes("word")) return <FileWordOutlined style={{ color: "#2b579a" }} />;
  if (/\.(zip|rar|7z|gz|tar)$/.test(n)) return <FileZipOutlined style={{ color: "#a16207" }} />;
  return <FileOutlined />;
}

/** A message's media: image (with preview), audio and video players, or a document card to download. */
export function MediaView({ type, media }: { type: string | null; media: MessageMedia }) {
  const { t } = useTranslation();
  const root = useRoot();
  const kind = type ?? "document";
  const inline = kind === "image" || kind === "audio" || kind === "video";
  const { url, failed } = useMediaUrl(root, media, inline);
  const [downloading, setDownloading] = useState(false);

  if (inline && failed) {
    return (
      <div className="oa-media-failed">
        <WarningOutlined /> {t("atendimento.media.failed")}
      </div>
    );
  }
  if (kind === "image") {
    return url ? (
      <Image src={url} alt={media.fileName} className="oa-media-image" preview={{ cover: t("atendimento.media.preview") }} data-testid="media-image" />
    ) : (
      <div className="oa-media-loading">
        <Spin size="small" />
      </div>
    );
  }
  if (kind === "audio") {
    return url ? <audio controls src={url} className="oa-media-audio" preload="metadata" data-testid="media-audio" /> : <div className="oa-media-loading oa-media-loading-audio"><Spin size="small" /></div>;
  }
  if (kind === "video") {
    return url ? <video controls src={url} className="oa-media-video" preload="metadata" data-testid="media-video" /> : <div className="oa-media-loading"><Spin size="small" /></div>;
  }
  return (
    <div className="oa-media-doc" data-testid="media-document">
      <span className="oa-media-doc-icon">
        <DocIcon name={media.fileName} mime={media.mimeType} />
      </span>
      <span className="oa-media-doc-info">
        <span className="oa-media-doc-name" title={media.fileName}>
          {media.fileName}
        </span>
        <span className="oa-muted oa-small">{media.size ? fileSize(media.size, root.session.locale) : media.mimeType}</span>
      </span>
      {!media.local ? (
        <Button
          type="text"
          shape="circle"
          icon={<DownloadOutlined />}
          loading={downloading}
          aria-label={t("atendimento.media.download")}
          onClick={async () => {
            setDownloading(true);
            try {
              await downloadMedia(root, media);
            } catch {
              root.ui.notify({ kind: "error", title: t("atendimento.media.failed") });
            } finally {
              setDownloading(false);
            }
          }}
        />
      ) : null}
    </div>
  );
}
