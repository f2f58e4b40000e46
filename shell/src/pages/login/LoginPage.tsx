import { useEffect, useState, type FormEvent } from "react";
import { observer } from "mobx-react-lite";
import { useRoot } from "../../app/context";
import { hashQuery } from "../../app/public-routes";
import { ApiError } from "../../api/client";
import { PublicFrame } from "./PublicFrame";
import { SliderCaptcha } from "./SliderCaptcha";
import { nextStep, redirectParam } from "./flow";
import { Field, Failure, Spinner, type FailureInfo } from "./parts";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

/** An e-mail, or a phone number (10 to 15 digits once spaces, dots, dashes and brackets go). */
export function parseIdentifier(raw: string): { email: string } | { phoneNumber: string } | null {
  const v = raw.trim();
  if (v.includes("@")) return EMAIL.test(v) ? { email: v.toLowerCase() } : null;
  if (!/^\+?[\d\s().-]+$/.test(v)) return null;
  const digits = v.replace(/\D/g, "");
  return digits.length >= 10 && digits.length <= 15 ? { phoneNumber: digits } : null;
}

function PasswordToggle({ shown, onToggle, show, hide }: { shown: boolean; onToggle: () => void; show: string; hide: string }) {
  return (
    <button type="button" className="oa-eye" onClick={onToggle} aria-label={shown ? hide : show} aria-pressed={shown} title={shown ? hide : show}>
      <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true">
        <path fill="none" stroke="currentColor" strokeWidth="1.8" d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" />
        <circle cx="12" cy="12" r="3" fill="none" stroke="currentColor" strokeWidth="1.8" />
        {shown ? null : <path d="M4 4l16 16" stroke="currentColor" strokeWidth="1.8" />}
      </svg>
    </button>
  );
}

const ForgotForm = observer(function ForgotForm({ initial, onBack }: { initial: string; onBack: () => void }) {
  const root = useRoot();
  const t = (k: string, v?: Record<string, unknown>) => root.t(k, v);
  const [email, setEmail] = useState(initial.includes("@") ? initial.trim() : "");
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const [failure, setFailure] = useState<FailureInfo | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const v = email.trim().toLowerCase();
    if (!EMAIL.test(v)) return setError(t("login.validation.emailInvalid"));
    setError(undefined);
    setFailure(null);
    setBusy(true);
    try {
      await root.api.post("/auth/esquecisenha", { email: v });
      setSent(v);
    } catch (err) {
      if (err instanceof ApiError && err.code !== "ERR_REQUEST_TIMEOUT") setFailure({ title: err.title, detail: err.detail });
    } finally {
      setBusy(false);
    }
  };

  if (sent) {
    return (
      <div className="oa-pub-form" data-testid="forgot-sent">
        <div className="oa-pub-icon oa-pub-icon-ok" aria-hidden="true">
          <svg width="28" height="28" viewBox="0 0 24 24">
            <path fill="currentColor" d="M3 5h18v14H3zm2 2v.5l7 4.5 7-4.5V7zm0 2.9V17h14V9.9l-7 4.5z" />
          </svg>
        </div>
        <h1>{t("login.forgotForm.sentTitle")}</h1>
        <p className="oa-pub-sub">{t("login.forgotForm.sentText", { email: sent })}</p>
        <button type="button" className="oa-pub-btn" onClick={onBack}>
          {t("login.forgotForm.back")}
        </button>
      </div>
    );
  }
  return (
    <form className="oa-pub-form" onSubmit={submit} noValidate data-testid="forgot-form">
      <h1>{t("login.forgotForm.title")}</h1>
      <p className="oa-pub-sub">{t("login.forgotForm.text")}</p>
      {failure ? <Failure {...failure} /> : null}
      <Field id="forgot-email" label={t("login.forgotForm.email")} error={error}>
        <input id="forgot-email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} autoFocus aria-invalid={!!error} />
      </Field>
      <button type="submit" className="oa-pub-btn" disabled={busy}>
        {busy ? <Spinner /> : null}
        {busy ? t("login.forgotForm.sending") : t("login.forgotForm.submit")}
      </button>
      <button type="button" className="oa-pub-link oa-center" onClick={onBack}>
        ← {t("login.forgotForm.back")}
      </button>
    </form>
  );
});

/**
 * /login (spec §2): e-mail or phone, password, the slider check, forgot password and the
 * language. After login: the terms and consent steps when due, then the wanted page.
 */
const LoginPage = observer(function LoginPage() {
  const root = useRoot();
  const t = (k: string, v?: Record<string, unknown>) => root.t(k, v);
  const [identifier, setIdentifier] = useState("");
  const [password, setPassword] = useState("");
  const [shown, setShown] = useState(false);
  const [errors, setErrors] = useState<{ identifier?: string; password?: string; captcha?: string }>({});
  const [captcha, setCaptcha] = useState(false);
  const [captchaRound, setCaptchaRound] = useState(0);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<FailureInfo | null>(null);
  const [forgot, setForgot] = useState(() => hashQuery().get("forgot") === "1");

  // A page load with a live session has nothing to do here.
  useEffect(() => {
    if (root.session.loggedIn) root.navigate(nextStep(root, redirectParam()));
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const id = parseIdentifier(identifier);
    const next: typeof errors = {};
    if (!identifier.trim()) next.identifier = t("login.validation.identifierRequired");
    else if (!id) next.identifier = t("login.validation.identifierInvalid");
    if (!password) next.password = t("login.validation.passwordRequired");
    if (!captcha) next.captcha = t("login.captcha.required");
    setErrors(next);
    if (Object.keys(next).length || !id) return;
    setBusy(true);
    setFailure(null);
    try {
      await root.login({ ...id, password });
      root.navigate(nextStep(root, redirectParam()));
    } catch (err) {
      if (err instanceof ApiError && err.code !== "ERR_REQUEST_TIMEOUT") setFailure({ title: err.title, detail: err.detail });
      // Each attempt needs its own check.
      setCaptcha(false);
      setCaptchaRound((n) => n + 1);
      setBusy(false);
    }
  };

  return (
    <PublicFrame page="LoginPage">
      {forgot ? (
        <ForgotForm initial={identifier} onBack={() => setForgot(false)} />
      ) : (
        <form className="oa-pub-form" onSubmit={submit} noValidate data-testid="login-form">
          <h1>{t("login.title")}</h1>
          <p className="oa-pub-sub">{t("login.subtitle")}</p>
          {failure ? <Failure {...failure} /> : null}
          <Field id="login-identifier" label={t("login.identifier")} error={errors.identifier}>
            <input
              id="login-identifier"
              name="username"
              type="text"
              inputMode="email"
              autoComplete="username"
              placeholder={t("login.identifierPlaceholder")}
              value={identifier}
              onChange={(e) => setIdentifier(e.target.value)}
              aria-invalid={!!errors.identifier}
              autoFocus
            />
          </Field>
          <Field
            id="login-password"
            label={t("login.password")}
            error={errors.password}
            extra={
              <button type="button" className="oa-pub-link" onClick={() => setForgot(true)} data-testid="forgot-link">
                {t("login.forgot")}
              </button>
            }
          >
            <div className="oa-input-wrap">
              <input
                id="login-password"
                name="password"
                type={shown ? "text" : "password"}
                autoComplete="current-password"
                placeholder={t("login.passwordPlaceholder")}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                aria-invalid={!!errors.password}
              />
              <PasswordToggle shown={shown} onToggle={() => setShown(!shown)} show={t("login.showPassword")} hide={t("login.hidePassword")} />
            </div>
          </Field>
          <SliderCaptcha
            key={captchaRound}
            verified={captcha}
            onVerified={() => {
              setCaptcha(true);
              setErrors((x) => ({ ...x, captcha: undefined }));
            }}
            label={t("login.captcha.label")}
            hint={t("login.captcha.hint")}
            done={t("login.captcha.done")}
            error={errors.captcha}
          />
          <button type="submit" className="oa-pub-btn" disabled={busy} data-testid="login-submit">
            {busy ? <Spinner /> : null}
            {busy ? t("login.submitting") : t("login.submit")}
          </button>
        </form>
      )}
    </PublicFrame>
  );
});

export default LoginPage;
