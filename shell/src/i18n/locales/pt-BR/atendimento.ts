/** Texts of the atendimento area (pt-BR). */
export default {} as const;
