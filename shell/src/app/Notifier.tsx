import { useEffect, useRef } from "react";
import { observer } from "mobx-react-lite";
import { useRoot } from "./context";
import type { Notice } from "../stores/ui";

function Toast({ n, onClose }: { n: Notice; onClose: () => void }) {
  const hovered = useRef(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const arm = () => {
      timer = setTimeout(() => (hovered.current ? arm() : onClose()), n.durationMs);
    };
    arm();
    return () => clearTimeout(timer);
  }, [n.id]);
  return (
    <div
      className={`oa-notice oa-notice-${n.kind}${n.banner ? " oa-banner" : ""}`}
      role={n.kind === "error" || n.kind === "warning" ? "alert" : "status"}
      onMouseEnter={() => (hovered.current = true)}
      onMouseLeave={() => (hovered.current = false)}
      data-kind={n.kind}
    >
      <div className="oa-notice-body">
        <strong className="oa-notice-title">{n.title}</strong>
        {n.detail ? <span className="oa-notice-detail">{n.detail}</span> : null}
      </div>
      <button type="button" className="oa-notice-close" aria-label="×" onClick={onClose}>
        ×
      </button>
    </div>
  );
}

/** Notices (top), banners (contact limit, licence) and the request spinner, without the UI kit. */
export const Notifier = observer(function Notifier() {
  const root = useRoot();
  const { ui } = root;
  return (
    <>
      <div className="oa-notices" aria-live="polite">
        {ui.notices.map((n) => (
          <Toast key={n.id} n={n} onClose={() => ui.dismiss(n.id)} />
        ))}
      </div>
      {ui.spinner ? (
        <div className="oa-spinner" role="progressbar" aria-label={root.t("common.spinner")}>
          <span />
        </div>
      ) : null}
    </>
  );
});
