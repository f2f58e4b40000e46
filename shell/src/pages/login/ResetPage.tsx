import { useState, type FormEvent } from "react";
import { observer } from "mobx-react-lite";
import { useRoot } from "../../app/context";
import { hashQuery } from "../../app/public-routes";
import { ApiError } from "../../api/client";
import { PublicFrame } from "./PublicFrame";
import { Field, Failure, Spinner, type FailureInfo } from "./parts";

/** The password rule of spec §5, one check per line of the checklist (core: PASSWORD_RULE). */
export const PASSWORD_CHECKS = {
  length: (p: string) => p.length >= 8 && p.length <= 72,
  upper: (p: string) => /[A-Z]/.test(p),
  lower: (p: string) => /[a-z]/.test(p),
  digit: (p: string) => /\d/.test(p),
  alnum: (p: string) => p.length > 0 && /^[A-Za-z\d]+$/.test(p),
} as const;

export function passwordOk(p: string): boolean {
  return Object.values(PASSWORD_CHECKS).every((c) => c(p));
}

/** /redefining?token=… (spec §2): the new password, checked as typed, sent with the link's token. */
const ResetPage = observer(function ResetPage() {
  const root = useRoot();
  const t = (k: string, v?: Record<string, unknown>) => root.t(k, v);
  const [token] = useState(() => hashQuery().get("token") ?? "");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<FailureInfo | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const next: typeof errors = {};
    if (!passwordOk(password)) next.password = t("login.reset.weak");
    if (!confirm) next.confirm = t("login.reset.confirmRequired");
    else if (confirm !== password) next.confirm = t("login.reset.mismatch");
    setErrors(next);
    if (Object.keys(next).length) return;
    setBusy(true);
    setFailure(null);
    try {
      await root.api.post("/auth/redefinirsenha", { token, password, confirmPassword: confirm });
      root.ui.notify({ kind: "success", title: t("login.reset.done"), detail: t("login.reset.doneDetail"), durationMs: 4000 });
      root.navigate("/login");
    } catch (err) {
      if (err instanceof ApiError && err.code !== "ERR_REQUEST_TIMEOUT") setFailure({ title: err.title, detail: err.detail });
      setBusy(false);
    }
  };

  if (token.length < 10) {
    return (
      <PublicFrame page="ResetPage">
        <div className="oa-pub-form" data-testid="reset-invalid">
          <div className="oa-pub-icon oa-pub-icon-warn" aria-hidden="true">
            <svg width="28" height="28" viewBox="0 0 24 24">
              <path fill="currentColor" d="M1 21h22L12 2zm12-3h-2v-2h2zm0-4h-2v-4h2z" />
            </svg>
          </div>
          <h1>{t("login.reset.invalidTitle")}</h1>
          <p className="oa-pub-sub">{t("login.reset.invalidText")}</p>
          <button type="button" className="oa-pub-btn" onClick={() => root.navigate("/login?forgot=1")}>
            {t("login.reset.requestNew")}
          </button>
        </div>
      </PublicFrame>
    );
  }

  return (
    <PublicFrame page="ResetPage">
      <form className="oa-pub-form" onSubmit={submit} noValidate data-testid="reset-form">
        <h1>{t("login.reset.title")}</h1>
        <p className="oa-pub-sub">{t("login.reset.subtitle")}</p>
        {failure ? <Failure {...failure} /> : null}
        <Field id="reset-password" label={t("login.reset.password")} error={errors.password}>
          <input id="reset-password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} aria-invalid={!!errors.password} autoFocus />
        </Field>
        <div className="oa-rules" aria-live="polite">
          <span>{t("login.reset.rulesTitle")}</span>
          <ul>
            {Object.entries(PASSWORD_CHECKS).map(([k, check]) => {
              const ok = check(password);
              return (
                <li key={k} className={ok ? "oa-rule-ok" : ""} data-ok={ok}>
                  <svg width="14" height="14" viewBox="0 0 20 20" aria-hidden="true">
                    {ok ? (
                      <path d="M4.5 10.5l3.5 3.5 7.5-8" stroke="currentColor" strokeWidth="2.6" fill="none" strokeLinecap="round" strokeLinejoin="round" />
                    ) : (
                      <circle cx="10" cy="10" r="4" fill="currentColor" />
                    )}
                  </svg>
                  {t(`login.reset.rules.${k}`)}
                </li>
              );
            })}
          </ul>
        </div>
        <Field id="reset-confirm" label={t("login.reset.confirm")} error={errors.confirm}>
          <input id="reset-confirm" type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} aria-invalid={!!errors.confirm} />
        </Field>
        <button type="submit" className="oa-pub-btn" disabled={busy} data-testid="reset-submit">
          {busy ? <Spinner /> : null}
          {busy ? t("login.reset.saving") : t("login.reset.submit")}
        </button>
        <button type="button" className="oa-pub-link oa-center" onClick={() => root.navigate("/login")}>
          ← {t("login.forgotForm.back")}
        </button>
      </form>
    </PublicFrame>
  );
});

export default ResetPage;
