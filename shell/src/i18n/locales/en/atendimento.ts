/** Texts of the atendimento area (en). */
export default {} as const;
