import { useRef, useState, type KeyboardEvent, type PointerEvent } from "react";

interface Props {
  verified: boolean;
  onVerified: () => void;
  label: string;
  hint: string;
  done: string;
  error?: string;
}

const HANDLE = 44;

/**
 * The login's slider check (spec §2 "slider captcha"): drag the handle to the end, or focus
 * it and press End / the right arrow. A release before the end slides it back.
 */
export function SliderCaptcha({ verified, onVerified, label, hint, done, error }: Props) {
  const track = useRef<HTMLDivElement>(null);
  const start = useRef<{ x: number; pos: number } | null>(null);
  const [pos, setPos] = useState(0);
  const [dragging, setDragging] = useState(false);
  const max = () => Math.max(1, (track.current?.clientWidth ?? 300) - HANDLE - 4);
  const x = verified ? max() : pos;
  const pct = Math.round((x / max()) * 100);

  const finish = (p: number) => {
    if (p >= max() * 0.97) {
      setPos(max());
      onVerified();
    } else setPos(0);
  };
  const down = (e: PointerEvent<HTMLButtonElement>) => {
    if (verified) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    start.current = { x: e.clientX, pos };
    setDragging(true);
  };
  const move = (e: PointerEvent<HTMLButtonElement>) => {
    if (!start.current) return;
    setPos(Math.min(max(), Math.max(0, start.current.pos + e.clientX - start.current.x)));
  };
  const up = (e: PointerEvent<HTMLButtonElement>) => {
    if (!start.current) return;
    const p = Math.min(max(), Math.max(0, start.current.pos + e.clientX - start.current.x));
    start.current = null;
    setDragging(false);
    finish(p);
  };
  const key = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (verified) return;
    if (e.key === "End") finish(max());
    else if (e.key === "ArrowRight") {
      e.preventDefault();
      const p = Math.min(max(), pos + max() / 5);
      if (p >= max()) finish(p);
      else setPos(p);
    } else if (e.key === "ArrowLeft" || e.key === "Home") setPos(0);
  };

  return (
    <div className="oa-field">
      <span className="oa-label">{label}</span>
      <div ref={track} className={`oa-captcha${verified ? " oa-captcha-ok" : ""}${error ? " oa-invalid" : ""}`} data-testid="captcha">
        <div className="oa-captcha-fill" style={{ width: x + HANDLE / 2 + 2, transition: dragging ? "none" : undefined }} />
        <span className="oa-captcha-text">{verified ? done : hint}</span>
        <button
          type="button"
          className="oa-captcha-handle"
          role="slider"
          aria-label={label}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={pct}
          aria-valuetext={verified ? done : hint}
          style={{ transform: `translateX(${x}px)`, transition: dragging ? "none" : undefined }}
          onPointerDown={down}
          onPointerMove={move}
          onPointerUp={up}
          onPointerCancel={up}
          onKeyDown={key}
          data-testid="captcha-handle"
        >
          {verified ? (
            <svg width="18" height="18" viewBox="0 0 20 20" aria-hidden="true">
              <path d="M4.5 10.5l3.5 3.5 7.5-8" stroke="currentColor" strokeWidth="2.4" fill="none" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          ) : (
            <svg width="18" height="18" viewBox="0 0 20 20" aria-hidden="true">
              <path d="M5 5l5 5-5 5M11 5l5 5-5 5" stroke="currentColor" strokeWidth="2" fill="none" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          )}
        </button>
      </div>
      {error ? (
        <span className="oa-error" role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}
