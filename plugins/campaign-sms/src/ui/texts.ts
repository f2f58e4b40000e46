/** The SMS campaign's own texts (its text editor and parts counter) in the four languages; the shared screens' are the engine's `campaign.*`. */
export const LOCALES = ["pt-BR", "en", "es", "ru"] as const;

export const title = { "pt-BR": "Campanhas SMS", en: "SMS campaigns", es: "Campañas SMS", ru: "SMS-кампании" };

export const texts = {
  "pt-BR": {
    smsEditor: {
      label: "Texto do SMS",
      placeholders: "Use {{nameTag}} para o nome do contato e {{firstNameTag}} para o primeiro nome",
      counter: "{{chars}} caracteres · {{parts}} parte(s) de SMS · {{perPart}} por parte",
      credits: "Cada parte custa um crédito por contato; os créditos são conferidos antes de agendar",
      unicode: "Com acentos fora do alfabeto GSM ou emojis, cada parte leva menos caracteres",
      required: "Escreva o texto do SMS",
      tooLong: "O texto passa de {{max}} partes de SMS",
      summary: "{{parts}} parte(s) de SMS",
    },
    smsCredits: {
      title: "Créditos de SMS insuficientes",
      confirm: "Há {{credits}} crédito(s) e a campanha precisa de {{needed}}. Continuar só com os primeiros {{affordable}} contato(s)? Os demais serão removidos da campanha.",
      ok: "Continuar com {{affordable}}",
      cancel: "Não agendar",
    },
  },
  en: {
    smsEditor: {
      label: "SMS text",
      placeholders: "Use {{nameTag}} for the contact's name and {{firstNameTag}} for the first name",
      counter: "{{chars}} characters · {{parts}} SMS part(s) · {{perPart}} per part",
      credits: "Each part costs one credit per contact; credits are checked before scheduling",
      unicode: "With characters outside the GSM alphabet or emoji, each part holds fewer characters",
      required: "Write the SMS text",
      tooLong: "The text is longer than {{max}} SMS parts",
      summary: "{{parts}} SMS part(s)",
    },
    smsCredits: {
      title: "Not enough SMS credits",
      confirm: "There are {{credits}} credit(s) and the campaign needs {{needed}}. Continue with only the first {{affordable}} contact(s)? The others will be removed from the campaign.",
      ok: "Continue with {{affordable}}",
      cancel: "Do not schedule",
    },
  },
  es: {
    smsEditor: {
      label: "Texto del SMS",
      placeholders: "Use {{nameTag}} para el nombre del contacto y {{firstNameTag}} para el primer nombre",
      counter: "{{chars}} caracteres · {{parts}} parte(s) de SMS · {{perPart}} por parte",
      credits: "Cada parte cuesta un crédito por contacto; los créditos se verifican antes de programar",
      unicode: "Con caracteres fuera del alfabeto GSM o emojis, cada parte lleva menos caracteres",
      required: "Escriba el texto del SMS",
      tooLong: "El texto supera las {{max}} partes de SMS",
      summary: "{{parts}} parte(s) de SMS",
    },
    smsCredits: {
      title: "Créditos de SMS insuficientes",
      confirm: "Hay {{credits}} crédito(s) y la campaña necesita {{needed}}. ¿Continuar solo con los primeros {{affordable}} contacto(s)? Los demás se quitarán de la campaña.",
      ok: "Continuar con {{affordable}}",
      cancel: "No programar",
    },
  },
  ru: {
    smsEditor: {
      label: "Текст SMS",
      placeholders: "Используйте {{nameTag}} для имени контакта и {{firstNameTag}} для первого имени",
      counter: "Символов: {{chars}} · частей SMS: {{parts}} · по {{perPart}} в части",
      credits: "Каждая часть стоит один кредит на контакт; кредиты проверяются перед планированием",
      unicode: "С символами вне алфавита GSM или эмодзи в части помещается меньше символов",
      required: "Введите текст SMS",
      tooLong: "Текст длиннее {{max}} частей SMS",
      summary: "частей SMS: {{parts}}",
    },
    smsCredits: {
      title: "Недостаточно SMS-кредитов",
      confirm: "Кредитов: {{credits}}, а кампании нужно {{needed}}. Продолжить только с первыми контактами ({{affordable}})? Остальные будут удалены из кампании.",
      ok: "Продолжить с {{affordable}}",
      cancel: "Не планировать",
    },
  },
};
