import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, Popconfirm, Tag, Tooltip, Typography, Upload } from "antd";
import { DeleteOutlined, PictureOutlined, UploadOutlined } from "@ant-design/icons";
import { useRoot } from "../../../app/context";
import type { RootStore } from "../../../app/root";
import { ApiError } from "../../../api/client";
import { readBase64 } from "../../atendimento/media";
import { FieldError } from "./fields";
import { WALLPAPER_MAX_BYTES, WALLPAPER_TYPES, type GeneralSettings } from "./settings";

type Theme = "light" | "dark";
type Wallpapers = GeneralSettings["wallpapers"];
/** Spec §9: 16:9 recommended; a picture this far from it gets a note. */
const RATIO = 16 / 9;
const RATIO_TOLERANCE = 0.04;

/**
 * A stored wallpaper to show: the API's file URLs need the bearer token and session id, which
 * an <img> cannot send, so the image is fetched and shown from an object URL.
 */
function useStoredImage(root: RootStore, url: string | null | undefined): { src: string | null; failed: boolean } {
  const [state, setState] = useState<{ src: string | null; failed: boolean }>({ src: null, failed: false });
  useEffect(() => {
    if (!url) return setState({ src: null, failed: false });
    let live = true;
    let objectUrl: string | null = null;
    const s = root.session;
    fetch(url, { headers: { Authorization: `Bearer ${s.token ?? ""}`, "X-Session-Id": s.sessionId ?? "" } })
      .then(async (res) => {
        if (!res.ok) throw new Error(String(res.status));
        const ext = url.split(".").pop()?.toLowerCase() ?? "";
        const type = { png: "image/png", jpg: "image/jpeg", webp: "image/webp", gif: "image/gif" }[ext] ?? "image/*";
        objectUrl = URL.createObjectURL(new Blob([await res.arrayBuffer()], { type }));
        if (live) setState({ src: objectUrl, failed: false });
        else URL.revokeObjectURL(objectUrl);
      })
      .catch(() => live && setState({ src: null, failed: true }));
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [root, url]);
  return state;
}

/**
 * One theme's chat wallpaper (spec §3): a 16:9 thumbnail of the stored image, upload (image
 * only, 5 MB, checked here and again by the core) and remove. The core answers the new
 * `wallpapers` value, passed to `onStored`.
 */
export function WallpaperField({ theme, url, onStored }: { theme: Theme; url: string | null | undefined; onStored: (v: Wallpapers) => void }) {
  const root = useRoot();
  const { t } = useTranslation();
  const { src, failed } = useStoredImage(root, url);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [offRatio, setOffRatio] = useState(false);
  const id = `wallpaper-${theme}`;

  const upload = async (file: File) => {
    setError(null);
    if (!WALLPAPER_TYPES.includes(file.type)) return setError(t("geral.wallpapers.notImage"));
    if (file.size > WALLPAPER_MAX_BYTES) return setError(t("geral.wallpapers.tooLarge", { max: WALLPAPER_MAX_BYTES / 1024 / 1024 }));
    setBusy(true);
    try {
      const data = await readBase64(file);
      const r = await root.api.post<{ value: Wallpapers }>(`/settings/wallpaper/${theme}`, { file: { fileName: file.name, mimeType: file.type, data } }, { silent: true, successNotice: t("geral.wallpapers.uploaded") });
      onStored(r.value);
    } catch (e) {
      setError(e instanceof ApiError ? e.detail || e.title : t("errors.generic.title"));
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await root.api.delete<{ value: Wallpapers }>(`/settings/wallpaper/${theme}`, { successNotice: t("geral.wallpapers.removed") });
      onStored(r.value);
    } catch {
      /* the catalogue's notice is the API client's */
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="oa-geral-wallpaper" data-testid={id} data-url={url ?? ""}>
      <Typography.Text strong id={`${id}-label`}>
        {t(`geral.themes.${theme}`)}
      </Typography.Text>
      <div className={`oa-geral-thumb oa-geral-thumb-${theme}`} aria-busy={busy}>
        {src ? (
          <img
            src={src}
            alt={t("geral.wallpapers.alt", { theme: t(`geral.themes.${theme}`) })}
            data-testid={`${id}-image`}
            onLoad={(e) => setOffRatio(Math.abs(e.currentTarget.naturalWidth / e.currentTarget.naturalHeight - RATIO) / RATIO > RATIO_TOLERANCE)}
          />
        ) : (
          <span className="oa-geral-thumb-empty">
            <PictureOutlined />
            <Typography.Text type="secondary">{url && failed ? t("geral.wallpapers.unavailable") : url ? t("common.loading") : t("geral.wallpapers.none")}</Typography.Text>
          </span>
        )}
      </div>
      {src && offRatio ? (
        <Tag color="warning" className="oa-geral-ratio" data-testid={`${id}-ratio`}>
          {t("geral.wallpapers.notWide")}
        </Tag>
      ) : null}
      <div className="oa-geral-wallpaper-actions">
        <Upload
          accept={WALLPAPER_TYPES.join(",")}
          showUploadList={false}
          maxCount={1}
          beforeUpload={(file) => {
            void upload(file);
            return Upload.LIST_IGNORE;
          }}
        >
          <Button icon={<UploadOutlined />} loading={busy} aria-describedby={`${id}-label`} data-testid={`${id}-upload`}>
            {url ? t("geral.wallpapers.replace") : t("geral.wallpapers.upload")}
          </Button>
        </Upload>
        {url ? (
          <Popconfirm title={t("geral.wallpapers.removeConfirm")} okText={t("geral.wallpapers.remove")} cancelText={t("common.cancel")} onConfirm={() => void remove()}>
            <Tooltip title={t("geral.wallpapers.remove")}>
              <Button icon={<DeleteOutlined />} danger disabled={busy} aria-label={t("geral.wallpapers.remove")} data-testid={`${id}-remove`} />
            </Tooltip>
          </Popconfirm>
        ) : null}
      </div>
      <FieldError id={id} message={error} />
    </div>
  );
}
