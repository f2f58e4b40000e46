import { Link, useLocation } from "react-router-dom";
import { useTranslation } from "react-i18next";

export default function NotFound() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <div className="oa-notfound" data-testid="not-found">
      <div className="oa-notfound-code">404</div>
      <h1>{t("common.notFound.title")}</h1>
      <p>{t("common.notFound.detail", { path: pathname })}</p>
      <Link to="/home" className="oa-button">
        {t("common.notFound.home")}
      </Link>
    </div>
  );
}
