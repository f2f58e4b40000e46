/** The normal campaign's own texts (its message editor) in the four languages; the shared screens' are the engine's `campaign.*`. */
export const LOCALES = ["pt-BR", "en", "es", "ru"] as const;

export const title = { "pt-BR": "Campanhas", en: "Campaigns", es: "Campañas", ru: "Кампании" };

export const texts = {
  "pt-BR": {
    editor: {
      variant: "Mensagem {{n}}",
      variantsHint: "Até três variações: cada contato recebe uma delas, escolhida ao acaso",
      placeholders: "Use {{nameTag}} para o nome do contato e {{firstNameTag}} para o primeiro nome",
      add: "Adicionar variação",
      remove: "Remover",
      media: "Arquivo (opcional, até 10 MB)",
      mediaPick: "Escolher arquivo",
      mediaRemove: "Remover arquivo",
      mediaTooLarge: "O arquivo tem mais de 10 MB",
      uploading: "Enviando arquivo…",
      required: "Escreva a mensagem ou anexe um arquivo",
    },
    summary: { variants: "{{count}} variação(ões)", media: "com arquivo {{name}}" },
  },
  en: {
    editor: {
      variant: "Message {{n}}",
      variantsHint: "Up to three variants: each contact gets one of them, chosen at random",
      placeholders: "Use {{nameTag}} for the contact's name and {{firstNameTag}} for the first name",
      add: "Add variant",
      remove: "Remove",
      media: "File (optional, up to 10 MB)",
      mediaPick: "Choose file",
      mediaRemove: "Remove file",
      mediaTooLarge: "The file is larger than 10 MB",
      uploading: "Uploading file…",
      required: "Write the message or attach a file",
    },
    summary: { variants: "{{count}} variant(s)", media: "with file {{name}}" },
  },
  es: {
    editor: {
      variant: "Mensaje {{n}}",
      variantsHint: "Hasta tres variantes: cada contacto recibe una de ellas, elegida al azar",
      placeholders: "Use {{nameTag}} para el nombre del contacto y {{firstNameTag}} para el primer nombre",
      add: "Agregar variante",
      remove: "Quitar",
      media: "Archivo (opcional, hasta 10 MB)",
      mediaPick: "Elegir archivo",
      mediaRemove: "Quitar archivo",
      mediaTooLarge: "El archivo supera los 10 MB",
      uploading: "Subiendo archivo…",
      required: "Escriba el mensaje o adjunte un archivo",
    },
    summary: { variants: "{{count}} variante(s)", media: "con archivo {{name}}" },
  },
  ru: {
    editor: {
      variant: "Сообщение {{n}}",
      variantsHint: "До трёх вариантов: каждый контакт получает один из них, выбранный случайно",
      placeholders: "Используйте {{nameTag}} для имени контакта и {{firstNameTag}} для первого имени",
      add: "Добавить вариант",
      remove: "Удалить",
      media: "Файл (необязательно, до 10 МБ)",
      mediaPick: "Выбрать файл",
      mediaRemove: "Удалить файл",
      mediaTooLarge: "Файл больше 10 МБ",
      uploading: "Файл загружается…",
      required: "Напишите сообщение или прикрепите файл",
    },
    summary: { variants: "Вариантов: {{count}}", media: "с файлом {{name}}" },
  },
};
