import { useCallback, useEffect, useState, type RefObject } from "react";

/**
 * Full screen for the builder's wrapper (React Flow has none of its own): the Fullscreen API on
 * the element, and `onChange` after each enter or leave (the canvas fits its view then, once
 * the new size is laid out).
 */
export function useFullscreen(ref: RefObject<HTMLElement | null>, onChange: () => void) {
  const [on, setOn] = useState(false);
  useEffect(() => {
    const handler = () => {
      setOn(document.fullscreenElement === ref.current && ref.current !== null);
      requestAnimationFrame(() => onChange());
    };
    document.addEventListener("fullscreenchange", handler);
    return () => document.removeEventListener("fullscreenchange", handler);
  }, [ref, onChange]);
  const toggle = useCallback(async () => {
    try {
      if (document.fullscreenElement) await document.exitFullscreen();
      else await ref.current?.requestFullscreen();
    } catch {
      /* refused by the browser (no user gesture, iframe policy): the canvas stays as it is */
    }
  }, [ref]);
  const exit = useCallback(async () => {
    if (document.fullscreenElement) await document.exitFullscreen().catch(() => undefined);
  }, []);
  return { fullscreen: on, toggle, exit };
}
