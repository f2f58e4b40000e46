/** Texts of the atendimento area (ru). */
export default {} as const;
