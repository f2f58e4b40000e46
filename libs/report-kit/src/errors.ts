/**
 * The error codes the kit throws, under each plugin's own prefix (the core refuses one code in
 * two plugins' manifests): a report plugin copies reportKitErrors("<its prefix>") into its
 * manifest's `errors` (its tests check they are there).
 */
type Entry = { status: number } & Record<"pt-BR" | "en" | "es" | "ru", { title: string; detail: string }>;

export function reportKitErrors(prefix: string): Record<string, Entry> {
  return {
    [`${prefix}_PERIOD_INVALID`]: {
      status: 400,
      "pt-BR": { title: "Período inválido", detail: "Confira as datas de início e fim: o fim não pode ser antes do início e o período vai até um ano." },
      en: { title: "Invalid period", detail: "Check the start and end dates: the end cannot be before the start and the period spans at most a year." },
      es: { title: "Período inválido", detail: "Revise las fechas de inicio y fin: el fin no puede ser anterior al inicio y el período abarca como máximo un año." },
      ru: { title: "Неверный период", detail: "Проверьте даты начала и конца: конец не может быть раньше начала, а период — не больше года." },
    },
    [`${prefix}_PROJECTION_BUILDING`]: {
      status: 503,
      "pt-BR": { title: "Relatório em preparação", detail: "Os dados do relatório estão sendo montados ({{rows}} até agora). Tente de novo em instantes." },
      en: { title: "Report being prepared", detail: "The report's data is being assembled ({{rows}} so far). Try again in a moment." },
      es: { title: "Informe en preparación", detail: "Los datos del informe se están preparando ({{rows}} hasta ahora). Inténtelo de nuevo en unos instantes." },
      ru: { title: "Отчёт готовится", detail: "Данные отчёта собираются (пока {{rows}}). Повторите попытку через минуту." },
    },
    [`${prefix}_PROJECTION_BUSY`]: {
      status: 409,
      "pt-BR": { title: "Reconstrução em andamento", detail: "Os dados do relatório já estão sendo reconstruídos. Aguarde terminar." },
      en: { title: "Rebuild in progress", detail: "The report's data is already being rebuilt. Wait for it to finish." },
      es: { title: "Reconstrucción en curso", detail: "Los datos del informe ya se están reconstruyendo. Espere a que termine." },
      ru: { title: "Идёт перестроение", detail: "Данные отчёта уже перестраиваются. Дождитесь окончания." },
    },
  };
}
