/** Texts of the configuracoes area (ru). */
export default {} as const;
