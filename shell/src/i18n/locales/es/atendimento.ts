/** Texts of the atendimento area (es). */
export default {} as const;
