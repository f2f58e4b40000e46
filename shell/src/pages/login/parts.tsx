import type { ReactNode } from "react";

export interface FailureInfo {
  title: string;
  detail?: string;
}

/** A labelled form field with its error line (plain HTML: the public pages carry no UI kit). */
export function Field({ id, label, error, extra, children }: { id: string; label: string; error?: string; extra?: ReactNode; children: ReactNode }) {
  return (
    <div className={`oa-field${error ? " oa-has-error" : ""}`}>
      <div className="oa-label-row">
        <label className="oa-label" htmlFor={id}>
          {label}
        </label>
        {extra}
      </div>
      {children}
      {error ? (
        <span className="oa-error" role="alert" id={`${id}-error`} data-testid={`${id}-error`}>
          {error}
        </span>
      ) : null}
    </div>
  );
}

/** What the server answered to the last attempt, kept in the card (the notice goes away). */
export function Failure({ title, detail }: FailureInfo) {
  return (
    <div className="oa-failure" role="alert" data-testid="form-failure">
      <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true">
        <path fill="currentColor" d="M12 2a10 10 0 100 20 10 10 0 000-20zm1 15h-2v-2h2zm0-4h-2V7h2z" />
      </svg>
      <div>
        <strong>{title}</strong>
        {detail ? <span>{detail}</span> : null}
      </div>
    </div>
  );
}

export function Spinner() {
  return <span className="oa-btn-spin" aria-hidden="true" />;
}
