import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, Space, Tag } from "antd";
import { CheckCircleOutlined, WhatsAppOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { ApiError } from "../../api/client";
import type { ContactView } from "./types";

/** The contact's "WhatsApp-validated" flag and the button that asks WhatsApp whether the saved number has an account. */
export function WhatsAppFlag({ contact, hidden, onChange }: { contact: ContactView; hidden: boolean; onChange: (next: (c: ContactView | null) => ContactView | null) => void }) {
  const { t } = useTranslation();
  const root = useRoot();
  const [checking, setChecking] = useState(false);
  const noNumber = !hidden && !contact.number;

  const validate = async () => {
    setChecking(true);
    try {
      const checked = await root.api.post<ContactView>(`/contacts/${contact.id}/validate-whatsapp`, {}, { successNotice: t("contatos.whatsapp.exists") });
      onChange(() => checked);
    } catch (e) {
      // Not on WhatsApp: the server unmarked it (the error itself is shown by the client).
      if (e instanceof ApiError && e.code === "ERR_CONTACT_NUMBER_INVALID") onChange((c) => (c ? { ...c, whatsappValidated: false } : c));
    } finally {
      setChecking(false);
    }
  };

  return (
    <Space wrap style={{ marginBottom: 16 }} data-testid="contact-whatsapp">
      {contact.whatsappValidated ? (
        <Tag color="green" icon={<CheckCircleOutlined />} data-testid="contact-whatsapp-flag">
          {t("contatos.whatsapp.validated")}
        </Tag>
      ) : (
        <Tag data-testid="contact-whatsapp-flag">{t("contatos.whatsapp.notValidated")}</Tag>
      )}
      <Button
        size="small"
        icon={<WhatsAppOutlined />}
        loading={checking}
        disabled={noNumber}
        title={noNumber ? t("contatos.whatsapp.saveFirst") : undefined}
        onClick={validate}
        data-testid="contact-whatsapp-validate"
      >
        {t("contatos.whatsapp.validate")}
      </Button>
    </Space>
  );
}
